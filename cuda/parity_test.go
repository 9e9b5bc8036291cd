//go:build cgo

package cuda

import (
	"fmt"
	"math"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// The parity suite runs each op forward and backward on the CPU and on the
// emulated CUDA device and compares the results: values to 1e-5 relative,
// integers and booleans exactly. Inputs are contiguous leaves; the ops
// take views of them (transposes, narrows, expands, broadcasting) so that
// the backend sees non-contiguous and stride-0 layouts.

const (
	rtol = 1e-5
	atol = 1e-6
)

type parityCase struct {
	name   string
	inputs func() []*tensor.Tensor // CPU tensors
	f      func(in []*tensor.Tensor) *tensor.Tensor
	nograd bool // forward only
}

func randn(shape ...int) func() *tensor.Tensor {
	return func() *tensor.Tensor { return tensor.Randn(shape...) }
}

func pos(shape ...int) func() *tensor.Tensor {
	return func() *tensor.Tensor { return tensor.Rand(shape...).AddScalar(0.1) }
}

func f64(shape ...int) func() *tensor.Tensor {
	return func() *tensor.Tensor { return tensor.Randn(shape...).AsType(tensor.Float64) }
}

func ints(lo, hi int, shape ...int) func() *tensor.Tensor {
	return func() *tensor.Tensor { return tensor.RandInt(lo, hi, shape...) }
}

func fixed(t *tensor.Tensor) func() *tensor.Tensor { return func() *tensor.Tensor { return t } }

func in(gens ...func() *tensor.Tensor) func() []*tensor.Tensor {
	return func() []*tensor.Tensor {
		out := make([]*tensor.Tensor, len(gens))
		for i, g := range gens {
			out[i] = g()
		}
		return out
	}
}

func unaryCases(name string, f func(x *tensor.Tensor) *tensor.Tensor, gen func(shape ...int) func() *tensor.Tensor) []parityCase {
	return []parityCase{
		{name: name, inputs: in(gen(3, 70)), f: func(x []*tensor.Tensor) *tensor.Tensor { return f(x[0]) }},
		{name: name + "/transposed", inputs: in(gen(5, 7)), f: func(x []*tensor.Tensor) *tensor.Tensor { return f(x[0].T()) }},
		{name: name + "/narrowed", inputs: in(gen(4, 6, 5)), f: func(x []*tensor.Tensor) *tensor.Tensor {
			return f(x[0].Narrow(1, 1, 3).Permute(2, 0, 1))
		}},
		{name: name + "/f64", inputs: in(func() *tensor.Tensor { return gen(4, 9)().AsType(tensor.Float64) }),
			f: func(x []*tensor.Tensor) *tensor.Tensor { return f(x[0].T()) }},
	}
}

func binaryCases(name string, f func(x, y *tensor.Tensor) *tensor.Tensor, gen func(shape ...int) func() *tensor.Tensor) []parityCase {
	return []parityCase{
		{name: name, inputs: in(gen(6, 9), gen(6, 9)), f: func(x []*tensor.Tensor) *tensor.Tensor { return f(x[0], x[1]) }},
		{name: name + "/broadcast", inputs: in(gen(3, 1, 5), gen(4, 5)), f: func(x []*tensor.Tensor) *tensor.Tensor { return f(x[0], x[1]) }},
		{name: name + "/transposed", inputs: in(gen(5, 7), gen(7, 5)), f: func(x []*tensor.Tensor) *tensor.Tensor { return f(x[0], x[1].T()) }},
		{name: name + "/expanded", inputs: in(gen(4, 1), gen(3, 4, 6)), f: func(x []*tensor.Tensor) *tensor.Tensor {
			return f(x[0].Expand(3, 4, 6), x[1].Narrow(2, 0, 6))
		}},
		{name: name + "/f64", inputs: in(func() *tensor.Tensor { return gen(2, 3, 4)().AsType(tensor.Float64) },
			func() *tensor.Tensor { return gen(3, 1)().AsType(tensor.Float64) }),
			f: func(x []*tensor.Tensor) *tensor.Tensor { return f(x[0], x[1]) }},
	}
}

func parityCases() []parityCase {
	var cs []parityCase
	add := func(c ...parityCase) { cs = append(cs, c...) }
	op1 := func(f func(x *tensor.Tensor) *tensor.Tensor) func(in []*tensor.Tensor) *tensor.Tensor {
		return func(in []*tensor.Tensor) *tensor.Tensor { return f(in[0]) }
	}
	op2 := func(f func(x, y *tensor.Tensor) *tensor.Tensor) func(in []*tensor.Tensor) *tensor.Tensor {
		return func(in []*tensor.Tensor) *tensor.Tensor { return f(in[0], in[1]) }
	}

	// Elementwise.
	add(unaryCases("Neg", (*tensor.Tensor).Neg, randn)...)
	add(unaryCases("Abs", (*tensor.Tensor).Abs, randn)...)
	add(unaryCases("ReLU", (*tensor.Tensor).ReLU, randn)...)
	add(unaryCases("Sqrt", (*tensor.Tensor).Sqrt, pos)...)
	add(unaryCases("Exp", (*tensor.Tensor).Exp, randn)...)
	add(unaryCases("Log", (*tensor.Tensor).Log, pos)...)
	add(unaryCases("Sin", (*tensor.Tensor).Sin, randn)...)
	add(unaryCases("Cos", (*tensor.Tensor).Cos, randn)...)
	add(unaryCases("Tanh", (*tensor.Tensor).Tanh, randn)...)
	add(unaryCases("Sigmoid", (*tensor.Tensor).Sigmoid, randn)...)
	add(unaryCases("GELU", (*tensor.Tensor).GELU, randn)...)
	add(unaryCases("Erf", (*tensor.Tensor).Erf, randn)...)
	add(unaryCases("Square", (*tensor.Tensor).Square, randn)...)
	add(unaryCases("Clamp", func(x *tensor.Tensor) *tensor.Tensor { return x.Clamp(-0.5, 0.7) }, randn)...)
	add(binaryCases("Add", (*tensor.Tensor).Add, randn)...)
	add(binaryCases("Sub", (*tensor.Tensor).Sub, randn)...)
	add(binaryCases("Mul", (*tensor.Tensor).Mul, randn)...)
	add(binaryCases("Div", (*tensor.Tensor).Div, pos)...)
	add(binaryCases("Pow", (*tensor.Tensor).Pow, pos)...)
	add(binaryCases("Maximum", (*tensor.Tensor).Maximum, randn)...)
	add(binaryCases("Minimum", (*tensor.Tensor).Minimum, randn)...)
	add(
		parityCase{name: "AddScalar", inputs: in(randn(4, 5)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.T().AddScalar(2.5) })},
		parityCase{name: "RSubScalar", inputs: in(randn(4, 5)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.T().RSubScalar(1.5) })},
		parityCase{name: "RDivScalar", inputs: in(pos(4, 5)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.RDivScalar(3) })},
		parityCase{name: "PowScalar", inputs: in(pos(4, 5)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.PowScalar(1.7) })},
		parityCase{name: "PowScalar2", inputs: in(randn(4, 5)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.PowScalar(2) })},
		parityCase{name: "DivScalar/f64", inputs: in(f64(4, 5)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.T().DivScalar(7) })},
	)

	// Integers and booleans (forward only).
	add(
		parityCase{name: "Int64/Add", nograd: true, inputs: in(ints(-50, 50, 3, 4), ints(-50, 50, 4)), f: op2((*tensor.Tensor).Add)},
		parityCase{name: "Int64/Mul", nograd: true, inputs: in(ints(-50, 50, 3, 4), ints(-50, 50, 4, 3)), f: op2(func(x, y *tensor.Tensor) *tensor.Tensor { return x.Mul(y.T()) })},
		parityCase{name: "Int64/Pow", nograd: true, inputs: in(ints(-3, 4, 20), ints(-2, 5, 20)), f: op2((*tensor.Tensor).Pow)},
		parityCase{name: "Int64/Neg Abs ReLU", nograd: true, inputs: in(ints(-9, 9, 5, 5)), f: op1(func(x *tensor.Tensor) *tensor.Tensor {
			return x.T().Neg().Add(x.Abs()).Add(x.ReLU())
		})},
		parityCase{name: "Int64/Maximum", nograd: true, inputs: in(ints(-9, 9, 5, 5), ints(-9, 9, 5)), f: op2((*tensor.Tensor).Maximum)},
		parityCase{name: "Int64/Sum", nograd: true, inputs: in(ints(-9, 9, 5, 80)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.Sum(1) })},
		parityCase{name: "Int64/SumAll", nograd: true, inputs: in(ints(-9, 9, 5, 8)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.T().Sum() })},
		parityCase{name: "Int64/Max", nograd: true, inputs: in(ints(-9, 9, 70, 5)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.Max(0) })},
		parityCase{name: "Int64/Argmin", nograd: true, inputs: in(ints(-3, 3, 6, 90)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.Argmin(1) })},
		parityCase{name: "Int64/MatMul", nograd: true, inputs: in(ints(-5, 5, 2, 3, 4), ints(-5, 5, 5, 4)), f: op2(func(x, y *tensor.Tensor) *tensor.Tensor { return x.MatMul(y.T()) })},
		parityCase{name: "Int64/Unfold2d", nograd: true, inputs: in(ints(-5, 5, 1, 2, 5, 5)), f: op1(func(x *tensor.Tensor) *tensor.Tensor {
			return x.Unfold2d([2]int{2, 2}, [2]int{1, 1}, [2]int{1, 1}, [2]int{1, 1})
		})},
		parityCase{name: "Compare", nograd: true, inputs: in(randn(4, 5), randn(5)), f: op2(func(x, y *tensor.Tensor) *tensor.Tensor {
			r := x.Lt(y).AsType(tensor.Int64).MulScalar(1)
			for i, c := range []*tensor.Tensor{x.Le(y), x.Gt(y), x.Ge(y), x.Eq(x.T().T()), x.Ne(y), x.GtScalar(0.2)} {
				r = r.Add(c.AsType(tensor.Int64).MulScalar(float64(int(1) << (i + 1))))
			}
			return r
		})},
		parityCase{name: "Compare/Bool", nograd: true, inputs: in(randn(4, 5), randn(4, 5)), f: op2(func(x, y *tensor.Tensor) *tensor.Tensor {
			return x.GtScalar(0).Eq(y.T().T().GtScalar(0))
		})},
		parityCase{name: "Cast", nograd: true, inputs: in(randn(4, 6)), f: op1(func(x *tensor.Tensor) *tensor.Tensor {
			y := x.MulScalar(3).T()
			return y.AsType(tensor.Int64).AsType(tensor.Float64).Add(y.AsType(tensor.Bool).AsType(tensor.Float64)).
				Add(y.GtScalar(0).AsType(tensor.Float64)).Add(y.AsType(tensor.Float64))
		})},
	)
	add(parityCase{name: "Where", inputs: in(randn(4, 5), randn(5), randn(4, 1)), f: func(x []*tensor.Tensor) *tensor.Tensor {
		return tensor.Where(x[0].GtScalar(0), x[1], x[2])
	}})

	// Reductions: long dims take the block kernels, short ones the serial.
	for _, sh := range [][]int{{3, 100}, {7, 5}} {
		sh := sh
		tag := fmt.Sprint(sh)
		add(
			parityCase{name: "Sum1" + tag, inputs: in(randn(sh...)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.Sum(1) })},
			parityCase{name: "Sum0T" + tag, inputs: in(randn(sh...)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.T().Sum(0) })},
			parityCase{name: "SumAll" + tag, inputs: in(randn(sh...)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.Sum() })},
			parityCase{name: "MeanKeep" + tag, inputs: in(randn(sh...)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.MeanKeep(1) })},
			parityCase{name: "Max" + tag, inputs: in(randn(sh...)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.Max(1) })},
			parityCase{name: "MinT" + tag, inputs: in(randn(sh...)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.T().Min(1) })},
			parityCase{name: "MaxAll" + tag, inputs: in(randn(sh...)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.MaxAll() })},
			parityCase{name: "Argmax" + tag, nograd: true, inputs: in(randn(sh...)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.Argmax(1) })},
			parityCase{name: "ArgminT" + tag, nograd: true, inputs: in(randn(sh...)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.T().Argmin(1) })},
			parityCase{name: "Var" + tag, inputs: in(randn(sh...)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.Var(1) })},
			parityCase{name: "Softmax" + tag, inputs: in(randn(sh...)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.Softmax(1) })},
			parityCase{name: "LogSoftmaxT" + tag, inputs: in(randn(sh...)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.T().LogSoftmax(0) })},
			parityCase{name: "LogSumExp" + tag, inputs: in(randn(sh...)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.LogSumExp(1) })},
		)
	}
	add(
		parityCase{name: "Sum/3d middle", inputs: in(randn(4, 70, 3)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.Sum(1) })},
		parityCase{name: "Sum/3d outer", inputs: in(randn(4, 5, 30)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.Permute(2, 0, 1).Sum(0, 2) })},
		parityCase{name: "Sum/f64", inputs: in(f64(6, 130)), f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.Sum(1) })},
		parityCase{name: "Argmax/ties", nograd: true, inputs: in(ints(0, 3, 5, 100)), f: op1(func(x *tensor.Tensor) *tensor.Tensor {
			return x.AsType(tensor.Float32).Argmax(1)
		})},
		parityCase{name: "Max/NaN", nograd: true, inputs: in(fixed(tensor.FromFloat32s([]float32{1, float32(math.NaN()), 3, 4, -1, 2}, 2, 3))),
			f: op1(func(x *tensor.Tensor) *tensor.Tensor { return x.Max(1).Add(x.Argmax(1).AsType(tensor.Float32)) })},
	)

	// Matrix products.
	add(
		parityCase{name: "MatMul", inputs: in(randn(5, 7), randn(7, 3)), f: op2((*tensor.Tensor).MatMul)},
		parityCase{name: "MatMul/transposed", inputs: in(randn(7, 5), randn(3, 7)), f: op2(func(x, y *tensor.Tensor) *tensor.Tensor { return x.T().MatMul(y.T()) })},
		parityCase{name: "MatMul/batched", inputs: in(randn(2, 3, 4, 5), randn(2, 3, 5, 6)), f: op2((*tensor.Tensor).MatMul)},
		parityCase{name: "MatMul/broadcast batch", inputs: in(randn(3, 4, 5), randn(5, 2)), f: op2((*tensor.Tensor).MatMul)},
		parityCase{name: "MatMul/permuted batch", inputs: in(randn(4, 3, 5), randn(3, 5, 2)), f: op2(func(x, y *tensor.Tensor) *tensor.Tensor {
			return x.Permute(1, 0, 2).MatMul(y)
		})},
		parityCase{name: "MatMul/vector", inputs: in(randn(4, 5), randn(5)), f: op2((*tensor.Tensor).MatMul)},
		parityCase{name: "MatMul/narrowed", inputs: in(randn(6, 8), randn(8, 9)), f: op2(func(x, y *tensor.Tensor) *tensor.Tensor {
			return x.Narrow(1, 2, 5).MatMul(y.Narrow(0, 1, 5).Narrow(1, 3, 4))
		})},
		parityCase{name: "MatMul/f64", inputs: in(f64(2, 4, 3), f64(2, 4, 5)), f: op2(func(x, y *tensor.Tensor) *tensor.Tensor {
			return x.Transpose(1, 2).MatMul(y)
		})},
		// Attention's heads: batch dims [B, H] that merge in no operand:
		// GEMM calls looped over B when each call fills the device (the
		// emulator's 2 multiprocessors: 8 products), else copies, and
		// copies when the calls would be too many.
		parityCase{name: "MatMul/heads, looped", inputs: in(randn(2, 5, 8, 4), randn(2, 6, 8, 4)), f: op2(func(x, y *tensor.Tensor) *tensor.Tensor {
			return x.Permute(0, 2, 1, 3).MatMul(y.Permute(0, 2, 1, 3).Transpose(-2, -1))
		})},
		parityCase{name: "MatMul/heads", inputs: in(randn(2, 5, 3, 4), randn(2, 6, 3, 4)), f: op2(func(x, y *tensor.Tensor) *tensor.Tensor {
			return x.Permute(0, 2, 1, 3).MatMul(y.Permute(0, 2, 1, 3).Transpose(-2, -1))
		})},
		parityCase{name: "MatMul/heads, copied", inputs: in(randn(9, 3, 10, 2), randn(9, 2, 10, 3)), f: op2(func(x, y *tensor.Tensor) *tensor.Tensor {
			return x.Permute(0, 2, 1, 3).MatMul(y.Permute(0, 2, 1, 3))
		})},
		parityCase{name: "MatMul/outer broadcast", inputs: in(randn(2, 1, 3, 4), randn(3, 4, 5)), f: op2((*tensor.Tensor).MatMul)},
		parityCase{name: "MatMul/heads f64", inputs: in(f64(2, 5, 3, 4), f64(2, 3, 4, 5)), f: op2(func(x, y *tensor.Tensor) *tensor.Tensor {
			return x.Permute(0, 2, 1, 3).MatMul(y)
		})},
	)

	// Indexing.
	add(
		parityCase{name: "Gather", inputs: in(randn(4, 6), fixed(tensor.FromInts([]int{0, 5, 5, 1, 2, 3, 3, 3}, 4, 2))), f: op2(func(x, i *tensor.Tensor) *tensor.Tensor {
			return x.Gather(1, i)
		})},
		parityCase{name: "Gather/dim0 transposed", inputs: in(randn(6, 4), fixed(tensor.FromInts([]int{0, 1, 1, 3, 2, 2, 0, 1}, 2, 4))), f: op2(func(x, i *tensor.Tensor) *tensor.Tensor {
			return x.T().Gather(1, i.T().Contiguous().T().Narrow(1, 0, 2).T().Narrow(0, 0, 2).T())
		})},
		parityCase{name: "IndexSelect", inputs: in(randn(5, 3, 4), fixed(tensor.FromInts([]int{4, 0, 4, 2}, 4))), f: op2(func(x, i *tensor.Tensor) *tensor.Tensor {
			return x.IndexSelect(0, i)
		})},
		parityCase{name: "IndexSelect/dim1", inputs: in(randn(5, 3, 4), fixed(tensor.FromInts([]int{2, 2, 0}, 3))), f: op2(func(x, i *tensor.Tensor) *tensor.Tensor {
			return x.Transpose(0, 2).IndexSelect(1, i)
		})},
		parityCase{name: "CrossEntropy", inputs: in(randn(6, 5), fixed(tensor.FromInts([]int{0, 4, 2, 2, 1, 3}, 6))), f: op2(tensor.CrossEntropy)},
	)

	// Convolution and pooling.
	pair := func(a, b int) [2]int { return [2]int{a, b} }
	add(
		parityCase{name: "Conv2d", inputs: in(randn(2, 3, 7, 6), randn(4, 3, 3, 2), randn(4)), f: func(x []*tensor.Tensor) *tensor.Tensor {
			return tensor.Conv2d(x[0], x[1], x[2], pair(1, 1), pair(1, 0), pair(1, 1))
		}},
		parityCase{name: "Conv2d/stride dilation", inputs: in(randn(1, 2, 9, 8), randn(3, 2, 2, 3)), f: func(x []*tensor.Tensor) *tensor.Tensor {
			return tensor.Conv2d(x[0], x[1], nil, pair(2, 1), pair(1, 2), pair(2, 2))
		}},
		parityCase{name: "Unfold2d/permuted", inputs: in(randn(5, 4, 2, 3)), f: op1(func(x *tensor.Tensor) *tensor.Tensor {
			return x.Permute(2, 3, 0, 1).Unfold2d(pair(2, 3), pair(1, 2), pair(1, 1), pair(1, 1))
		})},
		parityCase{name: "MaxPool2d", inputs: in(randn(2, 3, 6, 7)), f: op1(func(x *tensor.Tensor) *tensor.Tensor {
			return x.MaxPool2d(pair(2, 3), pair(2, 2), pair(1, 1))
		})},
		parityCase{name: "MaxPool2d/transposed", inputs: in(randn(2, 3, 7, 6)), f: op1(func(x *tensor.Tensor) *tensor.Tensor {
			return x.Transpose(2, 3).MaxPool2d(pair(3, 3), pair(1, 2), pair(0, 1))
		})},
		parityCase{name: "AvgPool2d", inputs: in(randn(2, 2, 6, 6)), f: op1(func(x *tensor.Tensor) *tensor.Tensor {
			return x.AvgPool2d(pair(3, 2), pair(2, 2), pair(1, 0))
		})},
	)
	return cs
}

// runParity runs c's op on device dev: the inputs are copied there as
// leaves that require grad (floats, unless c.nograd), and the loss is the
// sum of the output times a fixed weight, so every gradient element is
// exercised.
func runParity(c parityCase, inputs []*tensor.Tensor, weight *tensor.Tensor, dev tensor.Device) (out *tensor.Tensor, grads []*tensor.Tensor) {
	ins := make([]*tensor.Tensor, len(inputs))
	for i, x := range inputs {
		ins[i] = x.Detach().Clone().To(dev)
		if !c.nograd && x.DType().IsFloat() {
			ins[i].SetRequiresGrad(true)
		}
	}
	out = c.f(ins)
	if out.Device() != dev {
		panic(fmt.Sprintf("output on %v, want %v", out.Device(), dev))
	}
	if c.nograd || !out.DType().IsFloat() {
		return out.To(tensor.CPU), nil
	}
	out.Mul(weight.AsType(out.DType()).To(dev)).Sum().Backward()
	for _, x := range ins {
		if g := x.Grad(); g != nil {
			grads = append(grads, g.To(tensor.CPU))
		} else {
			grads = append(grads, nil)
		}
	}
	return out.To(tensor.CPU), grads
}

func TestParity(t *testing.T) { checkParity(t, parityCases()) }

// checkParity runs each case on the CPU and on the emulated device and
// compares outputs and gradients.
func checkParity(t *testing.T, cases []parityCase) {
	dev := tensor.CUDA(0)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tensor.ManualSeed(int64(i + 1))
			inputs := c.inputs()
			var weight *tensor.Tensor
			tensor.NoGrad(func() {
				o := c.f(inputs)
				weight = tensor.Randn(o.Shape()...)
			})
			var want, got *tensor.Tensor
			var wantG, gotG []*tensor.Tensor
			if err := tensor.Try(func() { want, wantG = runParity(c, inputs, weight, tensor.CPU) }); err != nil {
				t.Fatalf("cpu: %v", err)
			}
			if err := tensor.Try(func() { got, gotG = runParity(c, inputs, weight, dev) }); err != nil {
				t.Fatalf("cuda: %v", err)
			}
			assertClose(t, "output", got, want)
			for j := range wantG {
				if wantG[j] == nil {
					continue
				}
				if gotG[j] == nil {
					t.Errorf("input %d: no gradient on cuda", j)
					continue
				}
				assertClose(t, fmt.Sprintf("grad of input %d", j), gotG[j], wantG[j])
			}
		})
	}
}

// assertClose compares two CPU tensors: shape, dtype, and values to rtol
// relative (plus atol absolute, for values that cancel to near zero).
func assertClose(t *testing.T, what string, got, want *tensor.Tensor) {
	t.Helper()
	if fmt.Sprint(got.Shape()) != fmt.Sprint(want.Shape()) || got.DType() != want.DType() {
		t.Fatalf("%s: got %v %v, want %v %v", what, got.DType(), got.Shape(), want.DType(), want.Shape())
	}
	switch want.DType() {
	case tensor.Int64:
		g, w := got.Int64s(), want.Int64s()
		for i := range w {
			if g[i] != w[i] {
				t.Fatalf("%s: element %d = %d, want %d\ngot  %v\nwant %v", what, i, g[i], w[i], got, want)
			}
		}
		return
	case tensor.Bool:
		g, w := got.Bools(), want.Bools()
		for i := range w {
			if g[i] != w[i] {
				t.Fatalf("%s: element %d = %v, want %v", what, i, g[i], w[i])
			}
		}
		return
	}
	g, w := got.Float64s(), want.Float64s()
	for i := range w {
		a, b := g[i], w[i]
		if math.IsNaN(a) && math.IsNaN(b) || a == b {
			continue
		}
		if !(math.Abs(a-b) <= rtol*math.Max(math.Abs(a), math.Abs(b))+atol) {
			t.Fatalf("%s: element %d = %.9g, want %.9g (rel err %.2g)\ngot  %v\nwant %v", what, i, a, b,
				math.Abs(a-b)/math.Max(math.Abs(a), math.Abs(b)), got, want)
		}
	}
}
