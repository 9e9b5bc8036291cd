package data_test

import (
	"fmt"

	"github.com/gotensor/gotensor/tensorlib/data"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

func ExampleNewLoader() {
	x := tensor.Arange(0, 10, 1).Reshape(5, 2) // five examples of two features
	y := tensor.FromInt64s([]int64{0, 1, 0, 1, 1})
	loader := data.NewLoader(data.NewTensorDataset(x, y), 2)
	for epoch := 0; epoch < 2; epoch++ {
		for loader.Next() {
			xb, yb := loader.Batch()
			fmt.Println(epoch, xb.Shape(), yb.Int64s())
		}
	}
	// Output:
	// 0 [2 2] [0 1]
	// 0 [2 2] [0 1]
	// 0 [1 2] [1]
	// 1 [2 2] [0 1]
	// 1 [2 2] [0 1]
	// 1 [1 2] [1]
}

func ExampleDataset_Get() {
	ds := data.NewTensorDataset(tensor.Arange(0, 6, 1).Reshape(3, 2), tensor.FromInt64s([]int64{7, 8, 9}))
	x, y := ds.Get(1)
	fmt.Println(ds.Len(), x.Float32s(), y.Item())
	fmt.Println(ds)
	// Output:
	// 3 [2 3] 8
	// Dataset(3 examples, images [3 2] float32, labels [3] int64)
}
