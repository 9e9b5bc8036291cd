//go:build cgo

package cuda

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// The reduction paths of reduce.go against the CPU backend: rows
// (a warp's lanes, a block, split into chunks), segmented rows
// (BatchNorm's layout), columns (split or not), and strided layouts none
// of these fit, over sizes that are not multiples of the warp, the block
// or the vector width, misaligned views, NaN and infinities, and each
// dtype.

// reduceData returns n values of dt from seed: quarters in [-4, 4) for
// floats, so that ties are common (argmax must pick the first), integers
// in [-50, 50) for Int64. With special, some floats are NaN, +Inf and
// -Inf.
func reduceData(dt tensor.DType, n int, seed uint64, special bool) *tensor.Tensor {
	r := rand.New(rand.NewPCG(seed, 7))
	switch dt {
	case tensor.Int64:
		v := make([]int64, n)
		for i := range v {
			v[i] = r.Int64N(100) - 50
		}
		return tensor.FromInt64s(v, n)
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(r.IntN(32)-16) / 4
		if special {
			switch r.IntN(40) {
			case 0:
				v[i] = math.NaN()
			case 1:
				v[i] = math.Inf(1)
			case 2:
				v[i] = math.Inf(-1)
			}
		}
	}
	return tensor.FromFloat64s(v, n).AsType(dt)
}

type reduceView struct {
	name  string
	shape []int
	f     func(x *tensor.Tensor, op func(x *tensor.Tensor, dims ...int) *tensor.Tensor) *tensor.Tensor
}

// reduceViews are the layouts reduced: each takes x of shape and reduces
// a view of it with op over some dims.
func reduceViews() []reduceView {
	var vs []reduceView
	for _, sh := range [][2]int{{1, 1}, {3, 31}, {5, 33}, {2, 1023}, {1, 4097}, {300, 7}, {3, 2500}} {
		r, c := sh[0], sh[1]
		vs = append(vs,
			reduceView{fmt.Sprintf("rows[%d %d]", r, c), []int{r, c},
				func(x *tensor.Tensor, op func(*tensor.Tensor, ...int) *tensor.Tensor) *tensor.Tensor { return op(x, 1) }},
			reduceView{fmt.Sprintf("cols[%d %d]", c, r), []int{c, r},
				func(x *tensor.Tensor, op func(*tensor.Tensor, ...int) *tensor.Tensor) *tensor.Tensor { return op(x, 0) }},
		)
	}
	vs = append(vs,
		reduceView{"all[4097]", []int{4097}, func(x *tensor.Tensor, op func(*tensor.Tensor, ...int) *tensor.Tensor) *tensor.Tensor {
			return op(x, 0)
		}},
		// The columns of a long reduction split across blocks.
		reduceView{"cols[4500 3]", []int{4500, 3}, func(x *tensor.Tensor, op func(*tensor.Tensor, ...int) *tensor.Tensor) *tensor.Tensor {
			return op(x, 0)
		}},
		reduceView{"cols[1100 70]", []int{1100, 70}, func(x *tensor.Tensor, op func(*tensor.Tensor, ...int) *tensor.Tensor) *tensor.Tensor {
			return op(x, 0)
		}},
		// Rows that start at every alignment.
		reduceView{"narrowed rows[5 1030]", []int{5, 1030}, func(x *tensor.Tensor, op func(*tensor.Tensor, ...int) *tensor.Tensor) *tensor.Tensor {
			return op(x.Narrow(1, 1, 1027), 1)
		}},
		reduceView{"narrowed all[4099]", []int{4099}, func(x *tensor.Tensor, op func(*tensor.Tensor, ...int) *tensor.Tensor) *tensor.Tensor {
			return op(x.Narrow(0, 3, 4093), 0)
		}},
		// A transposed matrix: reduced dim contiguous, kept strided.
		reduceView{"transposed[33 40]", []int{33, 40}, func(x *tensor.Tensor, op func(*tensor.Tensor, ...int) *tensor.Tensor) *tensor.Tensor {
			return op(x.T(), 0)
		}},
		// BatchNorm's statistics: [N, C, H*W] over N and H*W, long and
		// short segments.
		reduceView{"segments[6 3 700]", []int{6, 3, 700}, func(x *tensor.Tensor, op func(*tensor.Tensor, ...int) *tensor.Tensor) *tensor.Tensor {
			return op(x, 0, 2)
		}},
		reduceView{"segments[40 5 3]", []int{40, 5, 3}, func(x *tensor.Tensor, op func(*tensor.Tensor, ...int) *tensor.Tensor) *tensor.Tensor {
			return op(x, 0, 2)
		}},
		// Neither the last kept nor the last reduced dim is contiguous.
		reduceView{"strided[70 6 5]", []int{70, 6, 5}, func(x *tensor.Tensor, op func(*tensor.Tensor, ...int) *tensor.Tensor) *tensor.Tensor {
			return op(x.Permute(0, 2, 1), 0)
		}},
		reduceView{"strided long[3 1500 2]", []int{3, 1500, 2}, func(x *tensor.Tensor, op func(*tensor.Tensor, ...int) *tensor.Tensor) *tensor.Tensor {
			return op(x.Permute(2, 0, 1), 2)
		}},
		reduceView{"permuted[4 5 6 7]", []int{4, 5, 6, 7}, func(x *tensor.Tensor, op func(*tensor.Tensor, ...int) *tensor.Tensor) *tensor.Tensor {
			return op(x.Permute(3, 1, 0, 2), 1, 3)
		}},
	)
	return vs
}

type reduceOp struct {
	name  string
	exact bool // max, min, arg: the CPU's answer to the bit
	f     func(x *tensor.Tensor, dims ...int) *tensor.Tensor
}

func reduceOps(dt tensor.DType) []reduceOp {
	one := func(f func(x *tensor.Tensor, dim int) *tensor.Tensor) func(x *tensor.Tensor, dims ...int) *tensor.Tensor {
		return func(x *tensor.Tensor, dims ...int) *tensor.Tensor {
			if len(dims) > 1 {
				return nil // these ops take one dim
			}
			return f(x, dims[0])
		}
	}
	ops := []reduceOp{
		{"Sum", dt == tensor.Int64, (*tensor.Tensor).Sum},
		{"Max", true, one((*tensor.Tensor).Max)},
		{"Min", true, one((*tensor.Tensor).Min)},
		{"Argmax", true, one((*tensor.Tensor).Argmax)},
		{"Argmin", true, one((*tensor.Tensor).Argmin)},
	}
	if dt.IsFloat() {
		ops = append(ops, reduceOp{"Mean", false, (*tensor.Tensor).Mean})
	}
	return ops
}

// compareReduce checks got (from the device) against want (from the CPU):
// NaN where want is NaN, equal values where exact or infinite, and within
// tol·scale otherwise, scale being the op over |x| (the rounding a sum of
// those terms may carry).
func compareReduce(t *testing.T, what string, got, want, scale *tensor.Tensor, exact bool, tol float64) {
	t.Helper()
	if fmt.Sprint(got.Shape()) != fmt.Sprint(want.Shape()) || got.DType() != want.DType() {
		t.Fatalf("%s: got %v %v, want %v %v", what, got.DType(), got.Shape(), want.DType(), want.Shape())
	}
	if want.DType() == tensor.Int64 {
		g, w := got.Int64s(), want.Int64s()
		for i := range w {
			if g[i] != w[i] {
				t.Fatalf("%s: element %d = %d, want %d", what, i, g[i], w[i])
			}
		}
		return
	}
	g, w := got.Float64s(), want.Float64s()
	var s []float64
	if scale != nil {
		s = scale.Float64s()
	}
	for i := range w {
		switch {
		case math.IsNaN(w[i]):
			if !math.IsNaN(g[i]) {
				t.Fatalf("%s: element %d = %v, want NaN", what, i, g[i])
			}
		case exact || math.IsInf(w[i], 0) || s == nil:
			if g[i] != w[i] {
				t.Fatalf("%s: element %d = %v, want %v", what, i, g[i], w[i])
			}
		default:
			if math.Abs(g[i]-w[i]) > tol*s[i]+1e-300 {
				t.Fatalf("%s: element %d = %.10g, want %.10g (scale %.3g)", what, i, g[i], w[i], s[i])
			}
		}
	}
}

func TestReduceParity(t *testing.T) {
	dev := tensor.CUDA(0)
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64, tensor.Int64} {
		tol := 1e-5
		if dt == tensor.Float64 {
			tol = 1e-12
		}
		for vi, v := range reduceViews() {
			for _, special := range []bool{false, true} {
				if special && (!dt.IsFloat() || dt == tensor.Float64 && vi%2 == 1) {
					continue // NaN and Inf: float32 everywhere, float64 on half the views
				}
				x := reduceData(dt, numel(v.shape), uint64(vi), special).Reshape(v.shape...)
				xd := x.To(dev)
				for _, op := range reduceOps(dt) {
					what := fmt.Sprintf("%v %s %s", dt, v.name, op.name)
					if special {
						what += " with NaN and Inf"
					}
					var want, got, scale *tensor.Tensor
					err := tensor.Try(func() {
						want = v.f(x, op.f)
						got = v.f(xd, op.f)
						if !op.exact && dt.IsFloat() {
							scale = v.f(x.Abs().AsType(tensor.Float64), op.f).AsType(dt)
						}
					})
					if err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					if want == nil {
						continue // a one-dim op over several dims
					}
					got = got.To(tensor.CPU)
					compareReduce(t, what, got, want, scale, op.exact, tol)
					// The same bits on a second run.
					again := v.f(xd, op.f).To(tensor.CPU)
					compareReduce(t, what+" (second run)", again, got, nil, true, 0)
				}
			}
		}
	}
}

func numel(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}

// TestReduceExact checks answers known without a reference: sums of ones
// and of integers, the position of a maximum, over sizes around the block
// and the vector width.
func TestReduceExact(t *testing.T) {
	dev := tensor.CUDA(0)
	for _, n := range []int{1, 31, 32, 33, 1023, 1024, 4097, 20000} {
		ones := tensor.Ones(n).To(dev)
		if got := ones.Sum().Item(); got != float64(n) {
			t.Errorf("Ones(%d).Sum() = %v", n, got)
		}
		if got := ones.Narrow(0, n/3, n-n/3).Mean().Item(); got != 1 {
			t.Errorf("Ones(%d) narrowed Mean() = %v", n, got)
		}
		ar := tensor.Arange(0, float64(n), 1).AsType(tensor.Int64).To(dev)
		if got, want := ar.Sum().Item(), float64(n)*float64(n-1)/2; got != want {
			t.Errorf("Arange(%d).Sum() = %v, want %v", n, got, want)
		}
		f := ar.AsType(tensor.Float64)
		if got := f.Argmax(0).Item(); got != float64(n-1) {
			t.Errorf("Arange(%d).Argmax(0) = %v", n, got)
		}
		if got := f.Neg().Argmax(0).Item(); got != 0 {
			t.Errorf("-Arange(%d).Argmax(0) = %v", n, got)
		}
		if got := f.Reshape(1, n).Max(1).Item(); got != float64(n-1) {
			t.Errorf("Arange(%d).Max(1) = %v", n, got)
		}
		// A column of n rows: Sum(0) of [n, 2].
		m := tensor.Ones(n, 2).To(dev).Sum(0).Float64s()
		if m[0] != float64(n) || m[1] != float64(n) {
			t.Errorf("Ones(%d, 2).Sum(0) = %v", n, m)
		}
	}
	// NaN wins argmax and argmin at its first position, and max and min.
	x := tensor.FromFloat32s([]float32{1, 5, float32(math.NaN()), 7, float32(math.NaN()), -3}, 6).To(dev)
	if a, b := x.Argmax(0).Item(), x.Argmin(0).Item(); a != 2 || b != 2 {
		t.Errorf("Argmax, Argmin with NaN = %v, %v, want 2, 2", a, b)
	}
	if m := x.MaxAll().Item(); !math.IsNaN(m) {
		t.Errorf("MaxAll with NaN = %v", m)
	}
	inf := tensor.FromFloat64s([]float64{math.Inf(-1), math.Inf(-1), -1e308}, 3).To(dev)
	if a, b := inf.Argmax(0).Item(), inf.Argmin(0).Item(); a != 2 || b != 0 {
		t.Errorf("Argmax, Argmin of [-Inf -Inf -1e308] = %v, %v, want 2, 0", a, b)
	}
}

// TestReduceEmpty covers empty outputs, empty rows (the identity) and the
// error for max over an empty dim.
func TestReduceEmpty(t *testing.T) {
	dev := tensor.CUDA(0)
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64, tensor.Int64} {
		x := tensor.Zeros(0, 5).AsType(dt).To(dev)
		if s := x.Sum(1); fmt.Sprint(s.Shape()) != "[0]" {
			t.Errorf("%v: Sum(1) of [0 5] has shape %v", dt, s.Shape())
		}
		s := x.Sum(0).To(tensor.CPU).Float64s()
		if len(s) != 5 || s[0] != 0 || s[4] != 0 {
			t.Errorf("%v: Sum(0) of [0 5] = %v, want five zeros", dt, s)
		}
		if err := tensor.Try(func() { x.Max(0) }); err == nil {
			t.Errorf("%v: Max(0) over an empty dim succeeded", dt)
		}
		if a := x.Argmax(1); fmt.Sprint(a.Shape()) != "[0]" {
			t.Errorf("%v: Argmax(1) of [0 5] has shape %v", dt, a.Shape())
		}
	}
}

// TestReduceComposed runs Var and LogSumExp, which compose the
// reductions, on the long and split paths.
func TestReduceComposed(t *testing.T) {
	dev := tensor.CUDA(0)
	tensor.ManualSeed(5)
	for _, sh := range [][]int{{3, 4097}, {2500, 3}} {
		x := tensor.Randn(sh...)
		for _, dim := range []int{0, 1} {
			for name, f := range map[string]func(*tensor.Tensor) *tensor.Tensor{
				"Var":       func(x *tensor.Tensor) *tensor.Tensor { return x.Var(dim) },
				"LogSumExp": func(x *tensor.Tensor) *tensor.Tensor { return x.LogSumExp(dim) },
			} {
				want := f(x)
				got := f(x.To(dev)).To(tensor.CPU)
				assertClose(t, fmt.Sprintf("%s(%d) of %v", name, dim, sh), got, want)
			}
		}
	}
}
