package tensor

import (
	"fmt"
	"math"
	"testing"
)

// fusedCase is an expression that the CPU backend computes with its fused
// kernels (backend.Conv, backend.BatchNorm, backend.ActivationGrad,
// backend.Loss, backend.Softmax, backend.LayerNorm) and
// the test device, which implements none of them, composes from the
// primitives.
type fusedCase struct {
	name   string
	f      func(xs ...*Tensor) *Tensor
	inputs []*Tensor // Float64 or Float32 leaves on the CPU
}

func fusedCases() []fusedCase {
	one, two, zero := [2]int{1, 1}, [2]int{2, 2}, [2]int{0, 0}
	conv := func(s, p, d [2]int) func(xs ...*Tensor) *Tensor {
		return func(xs ...*Tensor) *Tensor { return Conv2d(xs[0], xs[1], xs[2], s, p, d) }
	}
	return []fusedCase{
		{"Conv2d 5x5", conv(one, zero, one), []*Tensor{r64(1, 3, 2, 9, 8), r64(2, 4, 2, 5, 5), r64(3, 4)}},
		{"Conv2d padded strided dilated", conv([2]int{2, 1}, [2]int{1, 2}, [2]int{2, 1}), []*Tensor{r64(4, 2, 3, 7, 6), r64(5, 2, 3, 3, 2), r64(6, 2)}},
		{"Conv2d 1x1", conv(one, zero, one), []*Tensor{r64(7, 2, 3, 4, 5), r64(8, 4, 3, 1, 1), r64(9, 4)}},
		{"Conv2d 1x1 strided", conv(two, zero, one), []*Tensor{r64(10, 2, 3, 4, 5), r64(11, 4, 3, 1, 1), r64(12, 4)}},
		{"Conv2d no bias, view input", func(xs ...*Tensor) *Tensor {
			return Conv2d(xs[0].Permute(0, 3, 1, 2), xs[1], nil, one, one, one)
		}, []*Tensor{r64(13, 2, 6, 5, 3), r64(14, 2, 3, 3, 3)}},
		{"Conv2d float32 batch 33", conv(one, one, one), []*Tensor{r64(15, 33, 2, 6, 6).AsType(Float32), r64(16, 3, 2, 3, 3).AsType(Float32), r64(17, 3).AsType(Float32)}},
		{"ReLU", func(xs ...*Tensor) *Tensor { return xs[0].ReLU() }, []*Tensor{r64(21, 3, 700)}},
		{"ReLU float32 of T", func(xs ...*Tensor) *Tensor { return xs[0].T().ReLU().Exp() }, []*Tensor{r64(22, 400, 3).AsType(Float32)}},
		{"BatchNorm 2d", func(xs ...*Tensor) *Tensor { return BatchNorm(xs[0], nil, nil, xs[1], xs[2], true, 0.1, 1e-5) }, []*Tensor{r64(23, 4, 3, 5, 6).MulScalar(3).AddScalar(7), r64(24, 3), r64(25, 3)}},
		{"BatchNorm 2d float32, no affine", func(xs ...*Tensor) *Tensor { return BatchNorm(xs[0], nil, nil, nil, nil, true, 0.1, 1e-3).Exp() }, []*Tensor{r64(26, 5, 2, 3, 7).AddScalar(100).AsType(Float32)}},
		{"BatchNorm 1d [N C]", func(xs ...*Tensor) *Tensor { return BatchNorm(xs[0], nil, nil, xs[1], nil, true, 0.1, 1e-5) }, []*Tensor{r64(27, 9, 4), r64(28, 4)}},
		{"BatchNorm 1d [N C L] of a view", func(xs ...*Tensor) *Tensor {
			return BatchNorm(xs[0].Transpose(1, 2), nil, nil, nil, xs[1], true, 0.1, 1e-5)
		}, []*Tensor{r64(29, 3, 5, 2), r64(30, 2)}},
		{"CrossEntropy", func(xs ...*Tensor) *Tensor {
			return CrossEntropy(xs[0], FromInt64s([]int64{2, 0, 4, 4, 1}).To(xs[0].Device()))
		}, []*Tensor{r64(34, 5, 6).MulScalar(4)}},
		{"CrossEntropy float32 of T", func(xs ...*Tensor) *Tensor {
			return CrossEntropy(xs[0].T(), FromInt64s([]int64{9, 0, 3}).To(xs[0].Device())).MulScalar(3)
		}, []*Tensor{r64(35, 10, 3).AsType(Float32)}},
		{"Softmax", func(xs ...*Tensor) *Tensor { return xs[0].Softmax(-1) }, []*Tensor{r64(36, 3, 1025)}},
		{"Softmax float32 dim 0", func(xs ...*Tensor) *Tensor { return xs[0].Softmax(0) }, []*Tensor{r64(37, 33, 5).AsType(Float32)}},
		{"Softmax causal mask", func(xs ...*Tensor) *Tensor { return xs[0].Add(causalMask64(6).To(xs[0].Device())).Softmax(-1) }, []*Tensor{r64(38, 2, 6, 6)}},
		{"LogSoftmax", func(xs ...*Tensor) *Tensor { return xs[0].MulScalar(5).LogSoftmax(1) }, []*Tensor{r64(39, 4, 7, 3)}},
		{"LogSoftmax float32 of T", func(xs ...*Tensor) *Tensor { return xs[0].T().LogSoftmax(-1) }, []*Tensor{r64(40, 33, 4).AsType(Float32)}},
		{"LayerNorm", func(xs ...*Tensor) *Tensor { return LayerNorm(xs[0], []int{33}, xs[1], xs[2], 1e-5) }, []*Tensor{r64(41, 4, 3, 33).MulScalar(3).AddScalar(7), r64(42, 33), r64(43, 33)}},
		{"LayerNorm float32 two dims", func(xs ...*Tensor) *Tensor { return LayerNorm(xs[0], []int{3, 5}, xs[1], nil, 1e-5) }, []*Tensor{r64(44, 6, 3, 5).AsType(Float32), r64(45, 3, 5).AsType(Float32)}},
		{"LayerNorm of a view, bias only", func(xs ...*Tensor) *Tensor { return LayerNorm(xs[0].T(), []int{9}, nil, xs[1], 1e-3) }, []*Tensor{r64(46, 9, 4), r64(47, 9)}},
		{"Conv2d mixed dtypes", conv(one, zero, one), []*Tensor{r64(18, 2, 2, 5, 5).AsType(Float32), r64(19, 3, 2, 3, 3), r64(20, 3).AsType(Float32)}},
	}
}

// TestFusedMatchesComposed checks each fused kernel's result and
// gradients against the composition of primitives that other backends
// run; PyTorch fixtures and gradcheck cover the fused kernels too.
func TestFusedMatchesComposed(t *testing.T) {
	dev := NewDevice("testdev", 1)
	for _, c := range fusedCases() {
		run := func(d Device) (*Tensor, []*Tensor) {
			xs := make([]*Tensor, len(c.inputs))
			for i, x := range c.inputs {
				xs[i] = x.Detach().To(d).SetRequiresGrad(true)
			}
			y := c.f(xs...)
			ManualSeed(5)
			r := Randn(y.Shape()...).AsType(y.DType()).To(d)
			y.Mul(r).Sum().Backward()
			gs := make([]*Tensor, len(xs))
			for i, x := range xs {
				gs[i] = x.Grad().CPU()
			}
			return y.CPU(), gs
		}
		y, gs := run(CPU)
		wantY, wantGs := run(dev)
		near(t, c.name+" result", y, wantY, tolFor(y))
		for i := range gs {
			near(t, fmt.Sprintf("%s grad %d", c.name, i), gs[i], wantGs[i], tolFor(gs[i]))
		}
	}
}

// tolFor is the tolerance of two ways of computing x: sums in another
// order differ in the last bits of x's dtype.
func tolFor(x *Tensor) float64 {
	if x.DType() == Float32 {
		return 1e-5
	}
	return 1e-12
}

// near checks that got and want have one shape and dtype and agree
// within tol relative to max(1, |want|).
func near(t *testing.T, name string, got, want *Tensor, tol float64) {
	t.Helper()
	if fmt.Sprint(got.Shape()) != fmt.Sprint(want.Shape()) || got.DType() != want.DType() {
		t.Errorf("%s: %v %v, want %v %v", name, got.Shape(), got.DType(), want.Shape(), want.DType())
		return
	}
	g, w := got.Float64s(), want.Float64s()
	for i := range w {
		if d := math.Abs(g[i] - w[i]); !(d <= tol*math.Max(1, math.Abs(w[i]))) {
			t.Errorf("%s: element %d = %.10g, want %.10g", name, i, g[i], w[i])
			return
		}
	}
}

// TestFusedBatchNormStatistics checks the running statistics and the
// evaluation-mode result of the fused BatchNorm against the composed one.
func TestFusedBatchNormStatistics(t *testing.T) {
	dev := NewDevice("testdev", 1)
	for _, dt := range []DType{Float64, Float32} {
		x := r64(31, 6, 3, 4, 5).MulScalar(2).AddScalar(-1).AsType(dt)
		w, b := r64(32, 3).AsType(dt), r64(33, 3).AsType(dt)
		run := func(d Device) []*Tensor {
			rm, rv := Zeros(3).AsType(dt).To(d), Ones(3).AsType(dt).To(d)
			xd := x.To(d)
			BatchNorm(xd, rm, rv, w.To(d), b.To(d), true, 0.1, 1e-5)
			BatchNorm(xd.MulScalar(3), rm, rv, w.To(d), b.To(d), true, 0.3, 1e-5)
			y := BatchNorm(xd, rm, rv, w.To(d), b.To(d), false, 0.1, 1e-5)
			return []*Tensor{rm.CPU(), rv.CPU(), y.CPU()}
		}
		got, want := run(CPU), run(dev)
		for i, name := range []string{"running mean", "running var", "eval result"} {
			near(t, fmt.Sprintf("%v %s", dt, name), got[i], want[i], tolFor(got[i]))
		}
	}
}

// TestSoftmaxSpecialValuesMatchTorch checks the fused softmax on rows with
// +Inf, only -Inf, NaN, and a masked -Inf, forward and backward, against
// PyTorch 2.11 (torch.softmax, torch.log_softmax and their gradients for
// the loss sum(y * w), w = [0.5, -1, 2] on every row): the first three
// rows are NaN.
func TestSoftmaxSpecialValuesMatchTorch(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range []struct {
		log      bool
		row3, g3 []float64
	}{
		{false, []float64{0, 0.2689414322376251, 0.7310585975646973}, []float64{0, -0.5898358225822449, 0.5898357629776001}},
		{true, []float64{math.Inf(-1), -1.31326162815094, -0.31326165795326233}, []float64{0.5, -1.403412103652954, 0.9034121036529541}},
	} {
		x := FromFloat64s([]float64{1, inf, 2, -inf, -inf, -inf, 1, nan, 0, -inf, 1, 2}, 4, 3).AsType(Float32)
		x.SetRequiresGrad(true)
		var y *Tensor
		if c.log {
			y = x.LogSoftmax(1)
		} else {
			y = x.Softmax(1)
		}
		y.Mul(FromFloat64s([]float64{0.5, -1, 2}).AsType(Float32)).Sum().Backward()
		for name, got := range map[string][]float64{"result": y.Float64s(), "grad": x.Grad().Float64s()} {
			want := c.row3
			if name == "grad" {
				want = c.g3
			}
			for i, v := range got {
				if i < 9 {
					if !math.IsNaN(v) {
						t.Errorf("log %v %s: element %d = %v, want NaN", c.log, name, i, v)
					}
					continue
				}
				if w := want[i-9]; !(v == w || math.Abs(v-w) <= 1e-6) {
					t.Errorf("log %v %s: element %d = %v, want %v", c.log, name, i, v, w)
				}
			}
		}
	}
}
