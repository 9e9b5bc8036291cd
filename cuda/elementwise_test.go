//go:build cgo

package cuda

import (
	"fmt"
	"math"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// The fast path of the elementwise kernels (kernels/elementwise.cuh:
// dense operands, 0-d and broadcast vectors, 16-byte vectors with a
// scalar tail) and their strided path, against the CPU backend, over
// lengths around the vector width, misaligned views and each dtype.

type ewCase struct {
	name string
	in   []*tensor.Tensor
	f    func(x []*tensor.Tensor) *tensor.Tensor
}

func ewCases(dt tensor.DType) []ewCase {
	data := func(seed uint64, shape ...int) *tensor.Tensor {
		return reduceData(dt, numel(shape), seed, dt.IsFloat()).Reshape(shape...)
	}
	var cs []ewCase
	add := func(name string, f func(x []*tensor.Tensor) *tensor.Tensor, in ...*tensor.Tensor) {
		cs = append(cs, ewCase{name, in, f})
	}
	for _, n := range []int{1, 3, 31, 33, 1023, 4097} {
		x, y := data(uint64(n), n+1), data(uint64(n)+1, n+1)
		tag := fmt.Sprintf("[%d]", n)
		add("Neg"+tag, func(x []*tensor.Tensor) *tensor.Tensor { return x[0].Narrow(0, 0, n).Neg() }, x)
		add("Abs misaligned"+tag, func(x []*tensor.Tensor) *tensor.Tensor { return x[0].Narrow(0, 1, n).Abs() }, x)
		add("Add"+tag, func(x []*tensor.Tensor) *tensor.Tensor { return x[0].Narrow(0, 0, n).Add(x[1].Narrow(0, 0, n)) }, x, y)
		add("Mul one misaligned"+tag, func(x []*tensor.Tensor) *tensor.Tensor {
			return x[0].Narrow(0, 1, n).Mul(x[1].Narrow(0, 0, n))
		}, x, y)
		add("Maximum both misaligned"+tag, func(x []*tensor.Tensor) *tensor.Tensor {
			return x[0].Narrow(0, 1, n).Maximum(x[1].Narrow(0, 1, n))
		}, x, y)
		add("AddScalar"+tag, func(x []*tensor.Tensor) *tensor.Tensor { return x[0].Narrow(0, 0, n).AddScalar(2) }, x)
		add("RSubScalar misaligned"+tag, func(x []*tensor.Tensor) *tensor.Tensor { return x[0].Narrow(0, 1, n).RSubScalar(3) }, x)
		add("0-d operand"+tag, func(x []*tensor.Tensor) *tensor.Tensor {
			return x[0].Narrow(0, 0, n).Sub(x[1].Narrow(0, 0, 1).Reshape())
		}, x, y)
		add("Lt"+tag, func(x []*tensor.Tensor) *tensor.Tensor { return x[0].Narrow(0, 1, n).Lt(x[1].Narrow(0, 0, n)) }, x, y)
		add("Where"+tag, func(x []*tensor.Tensor) *tensor.Tensor {
			a, b := x[0].Narrow(0, 0, n), x[1].Narrow(0, 1, n)
			return tensor.Where(a.Gt(b), a, b)
		}, x, y)
		if dt.IsFloat() {
			add("Exp"+tag, func(x []*tensor.Tensor) *tensor.Tensor { return x[0].Narrow(0, 0, n).Exp() }, x)
			add("Div"+tag, func(x []*tensor.Tensor) *tensor.Tensor { return x[0].Narrow(0, 0, n).Div(x[1].Narrow(0, 1, n)) }, x, y)
		}
	}
	// Broadcast vectors: a bias row, a column, a channel vector, a row
	// whose length is not a multiple of the vector width.
	for _, rc := range [][2]int{{3, 8}, {5, 6}, {4, 33}, {70, 4}} {
		r, c := rc[0], rc[1]
		tag := fmt.Sprintf("[%d %d]", r, c)
		x, row, col := data(1, r, c), data(2, c), data(3, r, 1)
		add("row"+tag, func(x []*tensor.Tensor) *tensor.Tensor { return x[0].Add(x[1]) }, x, row)
		add("row first"+tag, func(x []*tensor.Tensor) *tensor.Tensor { return x[1].Mul(x[0]) }, x, row)
		add("column"+tag, func(x []*tensor.Tensor) *tensor.Tensor { return x[0].Sub(x[1]) }, x, col)
		add("row Gt"+tag, func(x []*tensor.Tensor) *tensor.Tensor { return x[0].Gt(x[1]) }, x, row)
		add("Where rows"+tag, func(x []*tensor.Tensor) *tensor.Tensor {
			return tensor.Where(x[1].GtScalar(0), x[0], x[2])
		}, x, row, col)
		add("transposed"+tag, func(x []*tensor.Tensor) *tensor.Tensor {
			return x[0].T().Contiguous().T().Add(x[1])
		}, x, row)
	}
	for _, sh := range [][]int{{2, 3, 8}, {3, 5, 7}} {
		x, ch := data(4, sh...), data(5, sh[1], 1)
		tag := fmt.Sprint(sh)
		add("channel"+tag, func(x []*tensor.Tensor) *tensor.Tensor { return x[0].Mul(x[1]) }, x, ch)
		add("channel narrowed"+tag, func(x []*tensor.Tensor) *tensor.Tensor {
			return x[0].Narrow(2, 1, sh[2]-1).Add(x[1])
		}, x, ch)
	}
	return cs
}

func TestElementwiseParity(t *testing.T) {
	dev := tensor.CUDA(0)
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64, tensor.Int64} {
		for _, c := range ewCases(dt) {
			want := c.f(c.in)
			ins := make([]*tensor.Tensor, len(c.in))
			for i, x := range c.in {
				ins[i] = x.To(dev)
			}
			var got *tensor.Tensor
			if err := tensor.Try(func() { got = c.f(ins).To(tensor.CPU) }); err != nil {
				t.Fatalf("%v %s: %v", dt, c.name, err)
			}
			assertClose(t, fmt.Sprintf("%v %s", dt, c.name), got, want)
		}
	}
}

// TestElementwiseExact checks answers known without a reference, NaN
// included.
func TestElementwiseExact(t *testing.T) {
	dev := tensor.CUDA(0)
	nan := float32(math.NaN())
	x := tensor.FromFloat32s([]float32{nan, -1, 2, nan, 5, -6, 7}, 7).To(dev)
	y := tensor.FromFloat32s([]float32{1, nan, 3, 4, -5, 6, -7}, 7).To(dev)
	check := func(what string, got *tensor.Tensor, want []float64) {
		t.Helper()
		g := got.Float64s()
		for i := range want {
			if !(g[i] == want[i] || math.IsNaN(g[i]) && math.IsNaN(want[i])) {
				t.Fatalf("%s = %v, want %v", what, g, want)
			}
		}
	}
	n := math.NaN()
	check("ReLU", x.ReLU(), []float64{n, 0, 2, n, 5, 0, 7})
	check("Maximum", x.Maximum(y), []float64{n, n, 3, n, 5, 6, 7}) // NaN from either side
	check("Add misaligned", x.Narrow(0, 1, 6).Add(y.Narrow(0, 0, 6)), []float64{0, n, n, 9, -11, 13})
	check("Eq", x.Eq(x).AsType(tensor.Float32), []float64{0, 1, 1, 0, 1, 1, 1})
	big := tensor.Ones(4097).To(dev)
	if s := big.Add(big).Sum().Item(); s != 2*4097 {
		t.Errorf("Ones(4097)+Ones(4097) sums to %v", s)
	}
}
