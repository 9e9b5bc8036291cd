package nn

import (
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// Every layer and loss passes a float64 finite-difference gradient check
// with respect to its input and its parameters.
func TestGradcheckLayers(t *testing.T) {
	tensor.ManualSeed(11)
	rn := func(shape ...int) *tensor.Tensor { return f64(tensor.Randn(shape...)) }

	lin := NewLinear(4, 3)
	lin.Weight, lin.Bias = f64(lin.Weight), f64(lin.Bias)
	x := rn(2, 4)
	gradcheck(t, "Linear", func() *tensor.Tensor { return lin.Forward(x) }, x, lin.Weight, lin.Bias)

	conv := NewConv2d(2, 3, 3, Stride(2), Padding(1), Dilation(1))
	conv.Weight, conv.Bias = f64(conv.Weight), f64(conv.Bias)
	x = rn(2, 2, 5, 4)
	gradcheck(t, "Conv2d", func() *tensor.Tensor { return conv.Forward(x) }, x, conv.Weight, conv.Bias)

	dil := NewConv2d(2, 2, 2, Dilation(2), PaddingHW(1, 0), NoBias())
	dil.Weight = f64(dil.Weight)
	x = rn(1, 2, 5, 5)
	gradcheck(t, "Conv2d dilated", func() *tensor.Tensor { return dil.Forward(x) }, x, dil.Weight)

	for _, tc := range []struct {
		name string
		m    Module
		x    *tensor.Tensor
	}{
		{"MaxPool2d", NewMaxPool2d(2), rn(2, 2, 4, 4)},
		{"MaxPool2d padded", NewMaxPool2d(3, Stride(2), Padding(1)), rn(1, 2, 5, 4)},
		{"AvgPool2d", NewAvgPool2d(2), rn(2, 2, 4, 4)},
		{"AvgPool2d padded", NewAvgPool2d(3, Stride(2), Padding(1)), rn(1, 2, 5, 4)},
		{"Flatten", NewFlatten(), rn(2, 3, 2)},
		{"ReLU", NewReLU(), rn(3, 4)},
		{"Sigmoid", NewSigmoid(), rn(3, 4)},
		{"Tanh", NewTanh(), rn(3, 4)},
		{"GELU", NewGELU(), rn(3, 4)},
		{"Dropout", NewDropout(0.4), rn(4, 5)},
	} {
		x := tc.x
		gradcheck(t, tc.name, func() *tensor.Tensor { return tc.m.Forward(x) }, x)
	}

	for _, tc := range []struct {
		name string
		bn   *BatchNorm
		x    *tensor.Tensor
	}{
		{"BatchNorm1d", NewBatchNorm1d(3), rn(5, 3)},
		{"BatchNorm1d [N C L]", NewBatchNorm1d(3), rn(2, 3, 4)},
		{"BatchNorm2d", NewBatchNorm2d(2), rn(2, 2, 3, 3)},
	} {
		bn, x := tc.bn, tc.x
		tensor.NoGrad(func() { tensor.CopyInto(bn.Weight, tensor.Randn(bn.NumFeatures)) })
		bn.Weight, bn.Bias = f64(bn.Weight), f64(bn.Bias)
		gradcheck(t, tc.name+" train", func() *tensor.Tensor { return bn.Forward(x) }, x, bn.Weight, bn.Bias)
		bn.Eval()
		gradcheck(t, tc.name+" eval", func() *tensor.Tensor { return bn.Forward(x) }, x, bn.Weight, bn.Bias)
	}

	ln := NewLayerNorm(3, 4)
	ln.Weight, ln.Bias = rn(3, 4), rn(3, 4)
	x = rn(2, 3, 4)
	gradcheck(t, "LayerNorm", func() *tensor.Tensor { return ln.Forward(x) }, x, ln.Weight, ln.Bias)

	emb := NewEmbedding(5, 3)
	emb.Weight = f64(emb.Weight)
	idx := tensor.FromInts([]int{4, 0, 4, 2}, 2, 2)
	gradcheck(t, "Embedding", func() *tensor.Tensor { return emb.Forward(idx) }, emb.Weight)

	seq := NewSequential(NewLinear(3, 4), NewTanh(), NewLinear(4, 2))
	for _, i := range []int{0, 2} {
		l := seq.At(i).(*Linear)
		l.Weight, l.Bias = f64(l.Weight), f64(l.Bias)
	}
	x = rn(2, 3)
	gradcheck(t, "Sequential", func() *tensor.Tensor { return seq.Forward(x) }, append([]*tensor.Tensor{x}, seq.Parameters()...)...)
}

func TestGradcheckLosses(t *testing.T) {
	tensor.ManualSeed(12)
	logits := f64(tensor.Randn(4, 5).MulScalar(2))
	labels := tensor.FromInts([]int{0, 4, 2, 2})
	gradcheck(t, "CrossEntropy", func() *tensor.Tensor { return CrossEntropy(logits, labels) }, logits)
	gradcheck(t, "NLLLoss", func() *tensor.Tensor { return NLLLoss(logits.LogSoftmax(1), labels) }, logits)
	pred, target := f64(tensor.Randn(3, 2)), f64(tensor.Randn(3, 2))
	gradcheck(t, "MSELoss", func() *tensor.Tensor { return MSELoss(pred, target) }, pred, target)
	z, y := f64(tensor.Randn(3, 4).MulScalar(3)), f64(tensor.Rand(3, 4))
	gradcheck(t, "BCEWithLogits", func() *tensor.Tensor { return BCEWithLogits(z, y) }, z, y)
}
