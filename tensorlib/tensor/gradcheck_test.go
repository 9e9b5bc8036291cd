package tensor

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/cpu"
)

// Finite-difference gradient checking with PyTorch's gradcheck defaults.
const (
	gcEps  = 1e-6
	gcAtol = 1e-5
	gcRtol = 1e-3
)

// gradcheck checks the gradients that Backward gives f at the float64
// inputs against central finite differences, element by element of the
// full Jacobian, as torch.autograd.gradcheck does: for every output
// element o and input element i, |analytic - numeric| <= atol + rtol *
// |numeric|. f must build its result from the inputs each call (it may
// take views of them first, to test non-contiguous operands). The
// generator is reseeded before each call, so random ops draw the same.
func gradcheck(t *testing.T, name string, f func(xs ...*Tensor) *Tensor, inputs ...*Tensor) {
	t.Helper()
	for _, x := range inputs {
		if x.DType() != Float64 || !x.IsContiguous() || x.layout.Offset != 0 {
			t.Fatalf("%s: gradcheck inputs must be contiguous Float64 leaves", name)
		}
		x.SetRequiresGrad(true)
	}
	eval := func() *Tensor {
		ManualSeed(1)
		return f(inputs...)
	}
	var out *Tensor
	NoGrad(func() { out = eval().Contiguous() })
	nOut := out.Numel()
	// Analytic Jacobian, one row per output element.
	ana := make([][][]float64, nOut) // [out][input][elem]
	for o := 0; o < nOut; o++ {
		for _, x := range inputs {
			x.ZeroGrad()
		}
		y := eval()
		if !y.RequiresGrad() {
			t.Fatalf("%s: result does not require grad", name)
		}
		seed := make([]float64, nOut)
		seed[o] = 1
		y.BackwardWith(FromFloat64s(seed).Reshape(y.Shape()...).AsType(y.DType()))
		ana[o] = make([][]float64, len(inputs))
		for k, x := range inputs {
			if g := x.Grad(); g != nil {
				if !slices.Equal(g.Shape(), x.Shape()) || g.DType() != x.DType() {
					t.Fatalf("%s: grad of input %d is %v %v, want %v %v", name, k, g.Shape(), g.DType(), x.Shape(), x.DType())
				}
				ana[o][k] = g.Float64s()
			} else {
				ana[o][k] = make([]float64, x.Numel())
			}
		}
	}
	// Numeric Jacobian, one column per input element.
	for k, x := range inputs {
		data := x.storage.(*cpu.Storage)
		for i := range data.Len() {
			orig := data.At(i)
			var plus, minus []float64
			NoGrad(func() {
				data.Set(i, orig+gcEps)
				plus = eval().Float64s()
				data.Set(i, orig-gcEps)
				minus = eval().Float64s()
			})
			data.Set(i, orig)
			for o := 0; o < nOut; o++ {
				num := (plus[o] - minus[o]) / (2 * gcEps)
				a := ana[o][k][i]
				if math.Abs(a-num) > gcAtol+gcRtol*math.Abs(num) || math.IsNaN(a) != math.IsNaN(num) {
					t.Errorf("%s: d out[%d] / d input%d[%d]: analytic %.8g, numeric %.8g", name, o, k, i, a, num)
					return
				}
			}
		}
	}
	for _, x := range inputs {
		x.SetRequiresGrad(false)
	}
}

// r64 returns a seeded Float64 tensor with normal entries.
func r64(seed int64, shape ...int) *Tensor {
	ManualSeed(seed)
	return Randn(shape...).AsType(Float64)
}

// pos64 returns a seeded Float64 tensor with entries in [0.5, 2).
func pos64(seed int64, shape ...int) *Tensor {
	ManualSeed(seed)
	return Rand(shape...).AsType(Float64).MulScalar(1.5).AddScalar(0.5)
}

type fn = func(xs ...*Tensor) *Tensor

type gcCase struct {
	name   string
	f      fn
	inputs []*Tensor
}

func unaryCases() []gcCase {
	var cs []gcCase
	ops := map[string]func(x *Tensor) *Tensor{
		"Neg": (*Tensor).Neg, "Abs": (*Tensor).Abs, "Exp": (*Tensor).Exp, "Sin": (*Tensor).Sin,
		"Cos": (*Tensor).Cos, "Tanh": (*Tensor).Tanh, "Sigmoid": (*Tensor).Sigmoid, "ReLU": (*Tensor).ReLU,
		"GELU": (*Tensor).GELU, "Erf": (*Tensor).Erf, "Square": (*Tensor).Square,
	}
	for name, op := range ops {
		op := op
		cs = append(cs, gcCase{name, func(xs ...*Tensor) *Tensor { return op(xs[0]) }, []*Tensor{r64(1, 3, 4)}})
		cs = append(cs, gcCase{name + " of T", func(xs ...*Tensor) *Tensor { return op(xs[0].T()) }, []*Tensor{r64(2, 3, 4)}})
	}
	for name, op := range map[string]func(x *Tensor) *Tensor{"Sqrt": (*Tensor).Sqrt, "Log": (*Tensor).Log} {
		op := op
		cs = append(cs, gcCase{name, func(xs ...*Tensor) *Tensor { return op(xs[0].T()) }, []*Tensor{pos64(3, 3, 4)}})
	}
	return cs
}

func binaryCases() []gcCase {
	ops := map[string]func(x, y *Tensor) *Tensor{
		"Add": (*Tensor).Add, "Sub": (*Tensor).Sub, "Mul": (*Tensor).Mul, "Div": (*Tensor).Div,
		"Maximum": (*Tensor).Maximum, "Minimum": (*Tensor).Minimum, "Pow": (*Tensor).Pow,
	}
	var cs []gcCase
	for name, op := range ops {
		op := op
		mk := r64
		if name == "Pow" || name == "Div" {
			mk = pos64
		}
		cs = append(cs,
			gcCase{name, func(xs ...*Tensor) *Tensor { return op(xs[0], xs[1]) }, []*Tensor{mk(1, 2, 3), mk(2, 2, 3)}},
			gcCase{name + " broadcast row", func(xs ...*Tensor) *Tensor { return op(xs[0], xs[1]) }, []*Tensor{mk(3, 2, 3), mk(4, 3)}},
			gcCase{name + " broadcast both", func(xs ...*Tensor) *Tensor { return op(xs[0], xs[1]) }, []*Tensor{mk(5, 2, 1), mk(6, 1, 3)}},
			gcCase{name + " scalar operand", func(xs ...*Tensor) *Tensor { return op(xs[0], xs[1]) }, []*Tensor{mk(7), mk(8, 2, 3)}},
			gcCase{name + " transposed", func(xs ...*Tensor) *Tensor { return op(xs[0].T(), xs[1].Narrow(1, 1, 3)) }, []*Tensor{mk(9, 3, 2), mk(10, 2, 4)}},
			gcCase{name + " overlapping views", func(xs ...*Tensor) *Tensor { return op(xs[0].Narrow(0, 0, 4), xs[0].Narrow(0, 1, 4)) }, []*Tensor{mk(11, 5)}},
			gcCase{name + " x with x", func(xs ...*Tensor) *Tensor { return op(xs[0], xs[0]) }, []*Tensor{mk(12, 3)}},
		)
	}
	return cs
}

func scalarCases() []gcCase {
	x := func() []*Tensor { return []*Tensor{r64(1, 2, 3)} }
	p := func() []*Tensor { return []*Tensor{pos64(2, 2, 3)} }
	return []gcCase{
		{"AddScalar", func(xs ...*Tensor) *Tensor { return xs[0].AddScalar(2) }, x()},
		{"SubScalar", func(xs ...*Tensor) *Tensor { return xs[0].SubScalar(2) }, x()},
		{"RSubScalar", func(xs ...*Tensor) *Tensor { return xs[0].RSubScalar(2) }, x()},
		{"MulScalar", func(xs ...*Tensor) *Tensor { return xs[0].T().MulScalar(-3) }, x()},
		{"DivScalar", func(xs ...*Tensor) *Tensor { return xs[0].DivScalar(4) }, x()},
		{"RDivScalar", func(xs ...*Tensor) *Tensor { return xs[0].RDivScalar(3) }, p()},
		{"PowScalar", func(xs ...*Tensor) *Tensor { return xs[0].PowScalar(2.5) }, p()},
		{"PowScalar int", func(xs ...*Tensor) *Tensor { return xs[0].PowScalar(3) }, x()},
		{"PowScalar 0", func(xs ...*Tensor) *Tensor { return xs[0].PowScalar(0) }, x()},
		{"Clamp", func(xs ...*Tensor) *Tensor { return xs[0].Clamp(-0.5, 0.5) }, x()},
		{"Clamp low only", func(xs ...*Tensor) *Tensor { return xs[0].Clamp(0, math.Inf(1)) }, x()},
		{"Clamp none", func(xs ...*Tensor) *Tensor { return xs[0].Clamp(math.Inf(-1), math.Inf(1)) }, x()},
		{"Where", func(xs ...*Tensor) *Tensor { return Where(xs[0].GtScalar(0), xs[0], xs[1]) }, []*Tensor{r64(3, 2, 3), r64(4, 3)}},
		{"Where scalar branch", func(xs ...*Tensor) *Tensor { return Where(xs[0].GtScalar(0), xs[0].T(), Scalar(0).AsType(Float64)) }, []*Tensor{r64(5, 3, 3)}},
	}
}

func reduceCases() []gcCase {
	x := func() []*Tensor { return []*Tensor{r64(1, 2, 3, 4)} }
	return []gcCase{
		{"Sum all", func(xs ...*Tensor) *Tensor { return xs[0].Sum() }, x()},
		{"Sum dims", func(xs ...*Tensor) *Tensor { return xs[0].Sum(0, 2) }, x()},
		{"SumKeep", func(xs ...*Tensor) *Tensor { return xs[0].Permute(2, 0, 1).SumKeep(-1) }, x()},
		{"Mean", func(xs ...*Tensor) *Tensor { return xs[0].Mean() }, x()},
		{"Mean dim", func(xs ...*Tensor) *Tensor { return xs[0].Mean(1) }, x()},
		{"MeanKeep", func(xs ...*Tensor) *Tensor { return xs[0].MeanKeep(0, 1) }, x()},
		{"Max", func(xs ...*Tensor) *Tensor { return xs[0].Max(1) }, x()},
		{"Min", func(xs ...*Tensor) *Tensor { return xs[0].Transpose(0, 2).Min(-1) }, x()},
		{"MaxKeep", func(xs ...*Tensor) *Tensor { return xs[0].MaxKeep(2) }, x()},
		{"MinKeep", func(xs ...*Tensor) *Tensor { return xs[0].MinKeep(0) }, x()},
		{"MaxAll", func(xs ...*Tensor) *Tensor { return xs[0].MaxAll() }, x()},
		{"MinAll", func(xs ...*Tensor) *Tensor { return xs[0].MinAll() }, x()},
		{"Var", func(xs ...*Tensor) *Tensor { return xs[0].Var(1) }, x()},
		{"Softmax", func(xs ...*Tensor) *Tensor { return xs[0].Softmax(-1) }, x()},
		{"Softmax T", func(xs ...*Tensor) *Tensor { return xs[0].Transpose(1, 2).Softmax(1) }, x()},
		{"LogSoftmax", func(xs ...*Tensor) *Tensor { return xs[0].LogSoftmax(1) }, x()},
		{"LogSumExp", func(xs ...*Tensor) *Tensor { return xs[0].LogSumExp(2) }, x()},
		{"LogSoftmax middle dim", func(xs ...*Tensor) *Tensor { return xs[0].LogSoftmax(1).MulScalar(2) }, x()},
		{"LogSoftmax T expanded", func(xs ...*Tensor) *Tensor {
			return xs[0].Narrow(0, 0, 1).Expand(3, 3, 4).Transpose(0, 2).LogSoftmax(2)
		}, x()},
		{"Softmax causal mask", func(xs ...*Tensor) *Tensor { return xs[0].Narrow(2, 0, 3).Add(causalMask64(3)).Softmax(-1) }, x()},
		{"LayerNorm", func(xs ...*Tensor) *Tensor { return LayerNorm(xs[0], []int{4}, xs[1], xs[2], 1e-5) }, []*Tensor{r64(9, 2, 3, 4), r64(10, 4), r64(11, 4)}},
		{"LayerNorm two dims, weight only", func(xs ...*Tensor) *Tensor { return LayerNorm(xs[0], []int{3, 4}, xs[1], nil, 1e-3) }, []*Tensor{r64(12, 2, 3, 4), r64(13, 3, 4)}},
		{"LayerNorm of T, no affine", func(xs ...*Tensor) *Tensor { return LayerNorm(xs[0].T(), []int{5}, nil, nil, 1e-5) }, []*Tensor{r64(14, 5, 3)}},
		{"LayerNorm bias only, permuted", func(xs ...*Tensor) *Tensor {
			return LayerNorm(xs[0].Permute(2, 0, 1), []int{2, 3}, nil, xs[1], 1e-5)
		}, []*Tensor{r64(15, 2, 3, 4), r64(16, 2, 3)}},
	}
}

// causalMask64 returns [t, t] Float64 with 0 on and below the diagonal and
// -Inf above.
func causalMask64(t int) *Tensor {
	v := make([]float64, t*t)
	for i := range t {
		for j := i + 1; j < t; j++ {
			v[i*t+j] = math.Inf(-1)
		}
	}
	return FromFloat64s(v, t, t)
}

func movementCases() []gcCase {
	x := func() []*Tensor { return []*Tensor{r64(1, 2, 3, 4)} }
	idx := FromInt64s([]int64{2, 0, 2}, 3)
	gidx := FromInt64s([]int64{0, 2, 2, 1, 1, 1}, 2, 3)
	return []gcCase{
		{"Reshape view", func(xs ...*Tensor) *Tensor { return xs[0].Reshape(6, -1) }, x()},
		{"Reshape copy", func(xs ...*Tensor) *Tensor { return xs[0].Transpose(0, 2).Reshape(-1) }, x()},
		{"View", func(xs ...*Tensor) *Tensor { return xs[0].View(4, 6) }, x()},
		{"Flatten", func(xs ...*Tensor) *Tensor { return xs[0].Flatten(1) }, x()},
		{"Transpose", func(xs ...*Tensor) *Tensor { return xs[0].Transpose(0, 2) }, x()},
		{"T", func(xs ...*Tensor) *Tensor { return xs[0].T() }, x()},
		{"Permute", func(xs ...*Tensor) *Tensor { return xs[0].Permute(1, 2, 0) }, x()},
		{"Narrow", func(xs ...*Tensor) *Tensor { return xs[0].Narrow(2, 1, 2) }, x()},
		{"Select", func(xs ...*Tensor) *Tensor { return xs[0].Select(1, -1) }, x()},
		{"Squeeze", func(xs ...*Tensor) *Tensor { return xs[0].Unsqueeze(1).Squeeze() }, x()},
		{"Squeeze dim", func(xs ...*Tensor) *Tensor { return xs[0].Narrow(0, 1, 1).Squeeze(0) }, x()},
		{"Unsqueeze", func(xs ...*Tensor) *Tensor { return xs[0].Unsqueeze(-1) }, x()},
		{"Expand", func(xs ...*Tensor) *Tensor { return xs[0].Narrow(1, 0, 1).Expand(3, 2, 3, 4) }, x()},
		{"Contiguous", func(xs ...*Tensor) *Tensor { return xs[0].T().Contiguous() }, x()},
		{"Clone", func(xs ...*Tensor) *Tensor { return xs[0].Clone() }, x()},
		{"Cat", func(xs ...*Tensor) *Tensor { return Cat(1, xs[0], xs[1].T(), xs[0].Narrow(1, 0, 1)) }, []*Tensor{r64(2, 2, 3), r64(3, 2, 2)}},
		{"Stack", func(xs ...*Tensor) *Tensor { return Stack(1, xs[0], xs[1], xs[0]) }, []*Tensor{r64(4, 2, 3), r64(5, 2, 3)}},
		{"Gather", func(xs ...*Tensor) *Tensor { return xs[0].Gather(1, gidx) }, []*Tensor{r64(6, 2, 4)}},
		{"Gather T", func(xs ...*Tensor) *Tensor { return xs[0].T().Gather(1, gidx) }, []*Tensor{r64(7, 4, 2)}},
		{"IndexSelect", func(xs ...*Tensor) *Tensor { return xs[0].IndexSelect(1, idx) }, []*Tensor{r64(8, 2, 3, 2)}},
	}
}

func matmulCases() []gcCase {
	return []gcCase{
		{"MatMul 2D", func(xs ...*Tensor) *Tensor { return xs[0].MatMul(xs[1]) }, []*Tensor{r64(1, 2, 3), r64(2, 3, 4)}},
		{"MatMul T", func(xs ...*Tensor) *Tensor { return xs[0].T().MatMul(xs[1].T()) }, []*Tensor{r64(3, 3, 2), r64(4, 4, 3)}},
		{"MatMul dot", func(xs ...*Tensor) *Tensor { return xs[0].MatMul(xs[1]) }, []*Tensor{r64(5, 3), r64(6, 3)}},
		{"MatMul vec@mat", func(xs ...*Tensor) *Tensor { return xs[0].MatMul(xs[1]) }, []*Tensor{r64(7, 3), r64(8, 3, 2)}},
		{"MatMul mat@vec", func(xs ...*Tensor) *Tensor { return xs[0].MatMul(xs[1]) }, []*Tensor{r64(9, 2, 3), r64(10, 3)}},
		{"MatMul batched", func(xs ...*Tensor) *Tensor { return xs[0].MatMul(xs[1]) }, []*Tensor{r64(11, 2, 2, 3), r64(12, 2, 3, 2)}},
		{"MatMul batch@2D", func(xs ...*Tensor) *Tensor { return xs[0].MatMul(xs[1]) }, []*Tensor{r64(13, 2, 2, 3), r64(14, 3, 2)}},
		{"MatMul 2D@batch", func(xs ...*Tensor) *Tensor { return xs[0].MatMul(xs[1]) }, []*Tensor{r64(15, 2, 3), r64(16, 2, 3, 2)}},
		{"MatMul broadcast batch", func(xs ...*Tensor) *Tensor { return xs[0].MatMul(xs[1]) }, []*Tensor{r64(17, 2, 1, 2, 3), r64(18, 3, 3, 2)}},
		{"MatMul strided batch", func(xs ...*Tensor) *Tensor { return xs[0].Transpose(0, 1).MatMul(xs[1]) }, []*Tensor{r64(19, 2, 2, 3), r64(20, 3, 2)}},
		{"Linear", func(xs ...*Tensor) *Tensor { return Linear(xs[0], xs[1], xs[2]) }, []*Tensor{r64(21, 2, 3, 4), r64(22, 2, 4), r64(23, 2)}},
		{"Linear no bias T", func(xs ...*Tensor) *Tensor { return Linear(xs[0].T(), xs[1].T(), nil) }, []*Tensor{r64(24, 3, 2), r64(25, 3, 4)}},
		{"Linear 1-D", func(xs ...*Tensor) *Tensor { return Linear(xs[0], xs[1], xs[2]) }, []*Tensor{r64(26, 3), r64(27, 2, 3), r64(28, 2)}},
	}
}

func nnCases() []gcCase {
	labels := FromInt64s([]int64{2, 0, 3})
	one := [2]int{1, 1}
	return []gcCase{
		{"Unfold2d", func(xs ...*Tensor) *Tensor {
			return xs[0].Unfold2d([2]int{2, 3}, [2]int{1, 2}, [2]int{1, 1}, [2]int{2, 1})
		}, []*Tensor{r64(1, 2, 2, 4, 5)}},
		{"Conv2d", func(xs ...*Tensor) *Tensor { return Conv2d(xs[0], xs[1], xs[2], one, one, one) }, []*Tensor{r64(2, 2, 2, 4, 4), r64(3, 3, 2, 3, 3), r64(4, 3)}},
		{"Conv2d strided dilated", func(xs ...*Tensor) *Tensor {
			return Conv2d(xs[0].Permute(0, 3, 1, 2), xs[1], nil, [2]int{2, 1}, [2]int{0, 2}, [2]int{1, 2})
		}, []*Tensor{r64(5, 1, 5, 4, 2), r64(6, 2, 2, 2, 2)}},
		{"MaxPool2d", func(xs ...*Tensor) *Tensor { return xs[0].MaxPool2d([2]int{2, 2}, [2]int{}, [2]int{0, 0}) }, []*Tensor{r64(7, 2, 2, 4, 4)}},
		{"MaxPool2d overlap pad", func(xs ...*Tensor) *Tensor {
			return xs[0].Transpose(2, 3).MaxPool2d([2]int{3, 3}, [2]int{2, 1}, [2]int{1, 1})
		}, []*Tensor{r64(8, 1, 2, 5, 4)}},
		{"AvgPool2d", func(xs ...*Tensor) *Tensor { return xs[0].AvgPool2d([2]int{2, 2}, [2]int{}, [2]int{0, 0}) }, []*Tensor{r64(9, 2, 2, 4, 4)}},
		{"AvgPool2d pad", func(xs ...*Tensor) *Tensor { return xs[0].AvgPool2d([2]int{3, 2}, [2]int{1, 2}, [2]int{1, 1}) }, []*Tensor{r64(10, 1, 2, 4, 5)}},
		{"CrossEntropy", func(xs ...*Tensor) *Tensor { return CrossEntropy(xs[0], labels) }, []*Tensor{r64(11, 3, 5)}},
		{"CrossEntropy T", func(xs ...*Tensor) *Tensor { return CrossEntropy(xs[0].T().MulScalar(10), labels) }, []*Tensor{r64(12, 5, 3)}},
		{"Dropout", func(xs ...*Tensor) *Tensor { return Dropout(xs[0], 0.3) }, []*Tensor{r64(13, 4, 5)}},
		{"To testdev", func(xs ...*Tensor) *Tensor { return xs[0].To(NewDevice("testdev", 1)).Exp().To(CPU) }, []*Tensor{r64(14, 2, 3)}},
	}
}

func TestGradcheck(t *testing.T) {
	groups := map[string][]gcCase{
		"unary": unaryCases(), "binary": binaryCases(), "scalar": scalarCases(), "reduce": reduceCases(),
		"movement": movementCases(), "matmul": matmulCases(), "nn": nnCases(),
	}
	n := 0
	for g, cs := range groups {
		for i, c := range cs {
			gradcheck(t, fmt.Sprintf("%s %d %s", g, i, c.name), c.f, c.inputs...)
			n++
		}
	}
	t.Logf("%d gradient checks", n)
}
