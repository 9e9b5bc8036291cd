package display_test

import (
	"fmt"

	"github.com/gotensor/gotensor/display"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

func ExampleTableBundle() {
	b := display.TableBundle([]string{"layer", "params"}, [][]any{
		{"Linear(784, 256)", 200960},
		{"ReLU", 0},
		{"Linear(256, 10)", 2570},
	})
	fmt.Println(b.Data["text/plain"])
	// Output:
	// layer             params
	// ----------------  ------
	// Linear(784, 256)  200960
	// ReLU                   0
	// Linear(256, 10)     2570
}

func ExampleLatexBundle() {
	b := display.LatexBundle(`\sigma(x) = \frac{1}{1+e^{-x}}`)
	fmt.Println(b.Data["text/latex"])
	// Output:
	// $$\sigma(x) = \frac{1}{1+e^{-x}}$$
}

func ExampleConfusionCounts() {
	pred := tensor.FromInt64s([]int64{0, 1, 1, 2}, 4)
	truth := tensor.FromInt64s([]int64{0, 1, 2, 2}, 4)
	for _, row := range display.ConfusionCounts(pred, truth, 3) {
		fmt.Println(row)
	}
	// Output:
	// [1 0 0]
	// [0 1 0]
	// [0 1 1]
}

func ExampleFromMethods() {
	// The interpreter calls a cell type's display methods itself.
	b := display.FromMethods("<b>7</b>", "", "", nil, "7")
	fmt.Println(b.Data["text/html"], b.Data["text/plain"])
	// Output:
	// <b>7</b> 7
}
