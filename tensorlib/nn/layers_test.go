package nn

import (
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// runCase feeds the fixture input of case c through m, back-propagates
// the fixture's upstream gradient and compares the output and the
// gradients of the input and of the named parameters with PyTorch's.
func runCase(t *testing.T, c string, m Module, params map[string]*tensor.Tensor) {
	t.Helper()
	x := fx(t, c+".x")
	if x.DType() != tensor.Int64 {
		x.SetRequiresGrad(true)
	}
	y := m.Forward(x)
	assertClose(t, c+" output", y, fx(t, c+".y"), fxRtol, fxAtol)
	y.BackwardWith(fx(t, c+".gout"))
	if x.DType() != tensor.Int64 {
		assertClose(t, c+" grad x", x.Grad(), fx(t, c+".grad_x"), fxRtol, fxAtol)
	}
	for name, p := range params {
		assertClose(t, c+" grad "+name, p.Grad(), fx(t, c+".grad_"+name), fxRtol, fxAtol)
	}
}

func TestLinearMatchesTorch(t *testing.T) {
	for _, c := range []string{"linear", "linear_3d"} {
		l := NewLinear(5, 3)
		l.Weight, l.Bias = fxParam(t, c+".weight"), fxParam(t, c+".bias")
		runCase(t, c, l, map[string]*tensor.Tensor{"weight": l.Weight, "bias": l.Bias})
	}
	l := NewLinear(5, 3, NoBias())
	if l.Bias != nil {
		t.Fatal("NoBias: Bias is not nil")
	}
	l.Weight = fxParam(t, "linear_nobias.weight")
	runCase(t, "linear_nobias", l, map[string]*tensor.Tensor{"weight": l.Weight})
}

func TestConv2dMatchesTorch(t *testing.T) {
	c := NewConv2d(2, 3, 3, Stride(2), Padding(1))
	c.Weight, c.Bias = fxParam(t, "conv.weight"), fxParam(t, "conv.bias")
	runCase(t, "conv", c, map[string]*tensor.Tensor{"weight": c.Weight, "bias": c.Bias})

	d := NewConv2d(2, 4, 0, KernelHW(3, 2), StrideHW(1, 2), PaddingHW(2, 1), DilationHW(2, 1), NoBias())
	if d.Bias != nil || d.Weight.Shape()[2] != 3 || d.Weight.Shape()[3] != 2 {
		t.Fatalf("conv_dilated: weight %v, bias %v", d.Weight.Shape(), d.Bias)
	}
	d.Weight = fxParam(t, "conv_dilated.weight")
	runCase(t, "conv_dilated", d, map[string]*tensor.Tensor{"weight": d.Weight})

	u := NewConv2d(3, 2, 2)
	u.Weight, u.Bias = fxParam(t, "conv_unbatched.weight"), fxParam(t, "conv_unbatched.bias")
	runCase(t, "conv_unbatched", u, map[string]*tensor.Tensor{"weight": u.Weight, "bias": u.Bias})
}

func TestParameterFreeLayersMatchTorch(t *testing.T) {
	for _, tc := range []struct {
		c string
		m Module
	}{
		{"maxpool", NewMaxPool2d(2)},
		{"maxpool_pad", NewMaxPool2d(3, Stride(2), Padding(1))},
		{"avgpool", NewAvgPool2d(2)},
		{"avgpool_pad", NewAvgPool2d(3, Stride(2), Padding(1))},
		{"flatten", NewFlatten()},
		{"relu", NewReLU()},
		{"sigmoid", NewSigmoid()},
		{"tanh", NewTanh()},
		{"gelu", NewGELU()},
	} {
		runCase(t, tc.c, tc.m, nil)
	}
}

func TestLayerNormMatchesTorch(t *testing.T) {
	for _, tc := range []struct {
		c     string
		shape []int
	}{{"layernorm", []int{4, 5}}, {"layernorm_1", []int{6}}} {
		l := NewLayerNorm(tc.shape...)
		l.Weight, l.Bias = fxParam(t, tc.c+".weight"), fxParam(t, tc.c+".bias")
		runCase(t, tc.c, l, map[string]*tensor.Tensor{"weight": l.Weight, "bias": l.Bias})
	}
}

func TestEmbeddingMatchesTorch(t *testing.T) {
	e := NewEmbedding(10, 4)
	e.Weight = fxParam(t, "embedding.weight")
	runCase(t, "embedding", e, map[string]*tensor.Tensor{"weight": e.Weight})
}

func TestBatchNormMatchesTorch(t *testing.T) {
	for _, tc := range []struct {
		c  string
		bn *BatchNorm
	}{
		{"bn1d", NewBatchNorm1d(4)},
		{"bn1d_3d", NewBatchNorm1d(3)},
		{"bn2d", NewBatchNorm2d(3)},
	} {
		bn, c := tc.bn, tc.c
		bn.Weight, bn.Bias = fxParam(t, c+".weight"), fxParam(t, c+".bias")
		runCase(t, c, bn, map[string]*tensor.Tensor{"weight": bn.Weight, "bias": bn.Bias})
		assertClose(t, c+" running_mean after 1", bn.RunningMean, fx(t, c+".running_mean1"), fxRtol, fxAtol)
		assertClose(t, c+" running_var after 1", bn.RunningVar, fx(t, c+".running_var1"), fxRtol, fxAtol)
		tensor.NoGrad(func() { bn.Forward(fx(t, c+".x2")) })
		assertClose(t, c+" running_mean after 2", bn.RunningMean, fx(t, c+".running_mean2"), fxRtol, fxAtol)
		assertClose(t, c+" running_var after 2", bn.RunningVar, fx(t, c+".running_var2"), fxRtol, fxAtol)
		if n := bn.NumBatchesTracked.Item(); n != 2 || bn.NumBatchesTracked.DType() != tensor.Int64 || bn.NumBatchesTracked.Dim() != 0 {
			t.Errorf("%s: num_batches_tracked %v (%v, %d-d), want 2 (Int64, 0-d)", c, n, bn.NumBatchesTracked.DType(), bn.NumBatchesTracked.Dim())
		}
		before := bn.RunningMean.Clone()
		SetTraining(bn, false)
		x3 := fx(t, c+".x3").SetRequiresGrad(true)
		y3 := bn.Forward(x3)
		assertClose(t, c+" eval output", y3, fx(t, c+".y3"), fxRtol, fxAtol)
		y3.BackwardWith(fx(t, c+".gout3"))
		assertClose(t, c+" eval grad x", x3.Grad(), fx(t, c+".grad_x3"), fxRtol, fxAtol)
		assertClose(t, c+" running_mean unchanged by eval", bn.RunningMean, before, 0, 0)
	}
}

func TestLossesMatchTorch(t *testing.T) {
	for _, tc := range []struct {
		c string
		f func(a, b *tensor.Tensor, opts ...LossOption) *tensor.Tensor
	}{
		{"cross_entropy", CrossEntropy},
		{"nll", NLLLoss},
		{"mse", MSELoss},
		{"bce", BCEWithLogits},
	} {
		a := fx(t, tc.c+".a").SetRequiresGrad(true)
		loss := tc.f(a, fx(t, tc.c+".b"))
		if loss.Dim() != 0 {
			t.Errorf("%s: loss shape %v, want a 0-d tensor", tc.c, loss.Shape())
		}
		assertClose(t, tc.c+" loss", loss, fx(t, tc.c+".loss"), fxRtol, fxAtol)
		loss.Backward()
		assertClose(t, tc.c+" grad", a.Grad(), fx(t, tc.c+".grad_a"), fxRtol, 1e-7)
	}
}

func TestDropout(t *testing.T) {
	tensor.ManualSeed(3)
	x := tensor.Ones(100, 100).SetRequiresGrad(true)
	d := NewDropout(0.25)
	y := d.Forward(x)
	zeros, kept := 0, 0
	for _, v := range y.Float32s() {
		switch v {
		case 0:
			zeros++
		case float32(1 / 0.75):
			kept++
		default:
			t.Fatalf("Dropout(0.25) of ones gave %v, want 0 or 4/3", v)
		}
	}
	if zeros < 2300 || zeros > 2700 || zeros+kept != 10000 {
		t.Errorf("Dropout(0.25): %d of 10000 zeroed, want about 2500", zeros)
	}
	y.Sum().Backward()
	g := x.Grad().Float32s()
	for i, v := range y.Float32s() {
		if g[i] != v { // d/dx of mask·x/(1-p) is the same mask/(1-p)
			t.Fatalf("grad %d is %v, want %v", i, g[i], v)
		}
	}
	d.Eval()
	if got := d.Forward(x); got != x {
		t.Error("Dropout in eval mode does not return its input")
	}
	SetTraining(d, true)
	if !d.Training {
		t.Error("SetTraining(true) left Dropout in eval mode")
	}
	if s := NewDropout(1).Forward(tensor.Ones(3)).Float32s(); s[0] != 0 || s[1] != 0 || s[2] != 0 {
		t.Errorf("Dropout(1) gave %v, want zeros", s)
	}
}
