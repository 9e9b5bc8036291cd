package tensor_test

import (
	"fmt"
	"math"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// The expected outputs below are what PyTorch 1.13 prints for the same
// tensors (with dtype=float64 for torch.float64).

func ExampleTensor_Add() {
	a := tensor.FromFloat32s([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	b := tensor.FromFloat32s([]float32{10, 20, 30})
	fmt.Println(a.Add(b))
	// Output:
	// tensor([[11., 22., 33.],
	//         [14., 25., 36.]])
}

func ExampleTensor_String() {
	fmt.Println(tensor.FromFloat32s([]float32{1, 2.5, 3, 4}, 2, 2))
	fmt.Println(tensor.Arange(0, 6, 1).AsType(tensor.Int64).Reshape(2, 3).T())
	fmt.Println(tensor.FromFloat32s([]float32{1e-5, 123}))
	fmt.Println(tensor.Scalar(2.5))
	fmt.Println(tensor.FromFloat64s([]float64{1, 2, 3, 4}, 2, 2).Mean(1))
	// Output:
	// tensor([[1.0000, 2.5000],
	//         [3.0000, 4.0000]])
	// tensor([[0, 3],
	//         [1, 4],
	//         [2, 5]])
	// tensor([1.0000e-05, 1.2300e+02])
	// tensor(2.5000)
	// tensor([1.5000, 3.5000], dtype=float64)
}

func ExampleTensor_String_summarized() {
	// More than 1000 elements: 3 edge items per dim around "...".
	fmt.Println(tensor.Arange(0, 2000, 1).Reshape(40, 50).DivScalar(7))
	// Output:
	// tensor([[0.0000e+00, 1.4286e-01, 2.8571e-01,  ..., 6.7143e+00, 6.8571e+00,
	//          7.0000e+00],
	//         [7.1429e+00, 7.2857e+00, 7.4286e+00,  ..., 1.3857e+01, 1.4000e+01,
	//          1.4143e+01],
	//         [1.4286e+01, 1.4429e+01, 1.4571e+01,  ..., 2.1000e+01, 2.1143e+01,
	//          2.1286e+01],
	//         ...,
	//         [2.6429e+02, 2.6443e+02, 2.6457e+02,  ..., 2.7100e+02, 2.7114e+02,
	//          2.7129e+02],
	//         [2.7143e+02, 2.7157e+02, 2.7171e+02,  ..., 2.7814e+02, 2.7829e+02,
	//          2.7843e+02],
	//         [2.7857e+02, 2.7871e+02, 2.7886e+02,  ..., 2.8529e+02, 2.8543e+02,
	//          2.8557e+02]])
}

func ExampleTensor_Eq() {
	a := tensor.FromInt64s([]int64{1, 2, 3})
	fmt.Println(a.Eq(tensor.FromInt64s([]int64{1, 0, 3})))
	// Output: tensor([ True, False,  True])
}

func ExampleOneHot() {
	fmt.Println(tensor.OneHot(tensor.FromInt64s([]int64{0, 2}), 3))
	// Output:
	// tensor([[1, 0, 0],
	//         [0, 0, 1]])
}

func ExampleTensor_Softmax() {
	x := tensor.FromFloat32s([]float32{0, 0, math.Ln2})
	fmt.Println(x.Softmax(0))
	// Output: tensor([0.2500, 0.2500, 0.5000])
}

func ExampleLayerNorm() {
	x := tensor.FromFloat32s([]float32{1, 2, 3, 4, 2, 2, 2, 6}, 2, 4)
	w := tensor.FromFloat32s([]float32{1, 1, 2, 2})
	b := tensor.FromFloat32s([]float32{0, 0, 0, 1})
	fmt.Println(tensor.LayerNorm(x, []int{4}, w, b, 1e-5))
	// Output:
	// tensor([[-1.3416, -0.4472,  0.8944,  3.6833],
	//         [-0.5773, -0.5773, -1.1547,  4.4641]])
}

func ExampleTensor_Mean() {
	fmt.Println(tensor.Arange(0, 4, 1).Mean())
	// Output: tensor(1.5000)
}

func ExampleTensor_MatMul() {
	x := tensor.FromFloat32s([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	w := tensor.FromFloat32s([]float32{7, 8, 9, 10, 11, 12}, 3, 2)
	fmt.Println(x.MatMul(w))
	fmt.Println(x.MatMul(x.T()).Shape(), x.T().MatMul(x).Shape())
	// Output:
	// tensor([[ 58.,  64.],
	//         [139., 154.]])
	// [2 2] [3 3]
}

func ExampleTry() {
	a, b := tensor.Zeros(2, 3), tensor.Zeros(4, 3)
	err := tensor.Try(func() { a.Add(b) })
	fmt.Println(err)
	// Output: tensor: Add: shapes [2 3] and [4 3] cannot be broadcast: sizes 2 and 4 differ in dim 0 (counting from the right: -2); each dimension, aligned from the right, must be equal or 1; use Unsqueeze, Reshape or Expand to line them up
}

func ExampleTensor_Narrow() {
	x := tensor.Arange(0, 12, 1).Reshape(3, 4)
	v := x.Narrow(1, 1, 2) // a view: no copy
	fmt.Println(v, v.SharesStorage(x))
	// Output:
	// tensor([[ 1.,  2.],
	//         [ 5.,  6.],
	//         [ 9., 10.]]) true
}

func ExampleTensor_Backward() {
	x := tensor.FromFloat32s([]float32{1, 2, 3}).SetRequiresGrad(true)
	loss := x.Mul(x).Sum() // sum of squares
	loss.Backward()
	fmt.Println(x.Grad())
	// Output: tensor([2., 4., 6.])
}

func ExampleNoGrad() {
	w := tensor.Ones(2).SetRequiresGrad(true)
	var y *tensor.Tensor
	tensor.NoGrad(func() { y = w.MulScalar(3) })
	fmt.Println(y.RequiresGrad(), w.MulScalar(3).RequiresGrad())
	// Output: false true
}

func ExampleCrossEntropy() {
	logits := tensor.FromFloat32s([]float32{2, 0, 0, 0, 2, 0}, 2, 3).SetRequiresGrad(true)
	labels := tensor.FromInt64s([]int64{0, 1})
	loss := tensor.CrossEntropy(logits, labels)
	loss.Backward()
	fmt.Printf("%.4f\n", loss.Item())
	fmt.Println(logits.Grad())
	// Output:
	// 0.2395
	// tensor([[-0.1065,  0.0533,  0.0533],
	//         [ 0.0533, -0.1065,  0.0533]])
}
