package nn

import (
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
	"github.com/gotensor/gotensor/tensorlib/tensorio"
)

var fixtures = sync.OnceValues(func() (map[string]*tensor.Tensor, error) {
	ts, _, err := tensorio.LoadSafetensors("testdata/layers.safetensors")
	return ts, err
})

// fx returns a fresh copy of the fixture tensor name (see
// testdata/gen_fixtures.py).
func fx(t *testing.T, name string) *tensor.Tensor {
	t.Helper()
	ts, err := fixtures()
	if err != nil {
		t.Fatal(err)
	}
	v, ok := ts[name]
	if !ok {
		t.Fatalf("fixture %q missing; run /usr/bin/python3 testdata/gen_fixtures.py", name)
	}
	return v.Clone()
}

// fxParam returns the fixture tensor name as a leaf requiring grad.
func fxParam(t *testing.T, name string) *tensor.Tensor {
	return fx(t, name).SetRequiresGrad(true)
}

// assertClose checks |got - want| <= atol + rtol·|want| elementwise, and
// that the shapes agree.
func assertClose(t *testing.T, what string, got, want *tensor.Tensor, rtol, atol float64) {
	t.Helper()
	if got == nil {
		t.Errorf("%s: got nil, want %v", what, want.Shape())
		return
	}
	if !slices.Equal(got.Shape(), want.Shape()) {
		t.Errorf("%s: shape %v, want %v", what, got.Shape(), want.Shape())
		return
	}
	g, w := got.AsType(tensor.Float64).Float64s(), want.AsType(tensor.Float64).Float64s()
	bad := 0
	for i := range g {
		if !(math.Abs(g[i]-w[i]) <= atol+rtol*math.Abs(w[i])) {
			if bad < 5 {
				t.Errorf("%s: element %d is %.9g, want %.9g", what, i, g[i], w[i])
			}
			bad++
		}
	}
	if bad > 5 {
		t.Errorf("%s: %d of %d elements differ", what, bad, len(g))
	}
}

// Tolerances against float32 PyTorch fixtures.
const (
	fxRtol = 1e-5
	fxAtol = 1e-5
)

// gradcheck compares the gradients Backward gives f with central finite
// differences, with PyTorch's gradcheck tolerances (eps 1e-6, atol 1e-5,
// rtol 1e-3). The inputs must be Float64 leaves requiring grad; f must
// rebuild its result from them on each call. The output is reduced to a
// scalar with fixed random weights, so one backward gives every input's
// gradient. The generator is reseeded before each call of f.
func gradcheck(t *testing.T, name string, f func() *tensor.Tensor, inputs ...*tensor.Tensor) {
	t.Helper()
	const eps, atol, rtol = 1e-6, 1e-5, 1e-3
	eval := func() *tensor.Tensor {
		tensor.ManualSeed(99)
		return f()
	}
	var out *tensor.Tensor
	tensor.NoGrad(func() { out = eval() })
	tensor.ManualSeed(5)
	r := tensor.Randn(out.Shape()...).AsType(tensor.Float64)
	for _, x := range inputs {
		if x.DType() != tensor.Float64 || !x.RequiresGrad() {
			t.Fatalf("%s: gradcheck inputs must be Float64 leaves requiring grad", name)
		}
		x.ZeroGrad()
	}
	eval().Mul(r).Sum().Backward()
	for k, x := range inputs {
		var ana []float64
		if g := x.Grad(); g != nil {
			ana = g.Float64s()
		} else {
			ana = make([]float64, x.Numel())
		}
		vals := x.Float64s()
		bad := 0
		for i := range vals {
			var lp, lm float64
			tensor.NoGrad(func() {
				orig := vals[i]
				vals[i] = orig + eps
				tensor.CopyInto(x, tensor.FromFloat64s(vals, x.Shape()...))
				lp = eval().Mul(r).Sum().Item()
				vals[i] = orig - eps
				tensor.CopyInto(x, tensor.FromFloat64s(vals, x.Shape()...))
				lm = eval().Mul(r).Sum().Item()
				vals[i] = orig
				tensor.CopyInto(x, tensor.FromFloat64s(vals, x.Shape()...))
			})
			num := (lp - lm) / (2 * eps)
			if !(math.Abs(ana[i]-num) <= atol+rtol*math.Abs(num)) {
				if bad < 5 {
					t.Errorf("%s: input %d element %d: analytic %.8g, numeric %.8g", name, k, i, ana[i], num)
				}
				bad++
			}
		}
	}
}

// f64 returns x as a Float64 leaf requiring grad.
func f64(x *tensor.Tensor) *tensor.Tensor {
	return x.Detach().AsType(tensor.Float64).Contiguous().Clone().SetRequiresGrad(true)
}
