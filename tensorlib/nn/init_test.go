package nn

import (
	"math"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// stats returns the min, max, mean and (population) standard deviation of t.
func stats(t *tensor.Tensor) (lo, hi, mean, std float64) {
	v := t.AsType(tensor.Float64).Float64s()
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range v {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		std += (x - mean) * (x - mean)
	}
	return lo, hi, mean, math.Sqrt(std / float64(len(v)))
}

// checkUniform checks that t looks like U(-b, b): inside the bounds,
// reaching close to them, with mean 0 and std b/√3 within sampling error.
func checkUniform(t *testing.T, name string, x *tensor.Tensor, b float64) {
	t.Helper()
	lo, hi, mean, std := stats(x)
	n := float64(x.Numel())
	if lo < -b || hi > b || (n >= 1000 && (lo > -0.99*b || hi < 0.99*b)) {
		t.Errorf("%s: range [%g, %g], want within and near ±%g", name, lo, hi, b)
	}
	// 5 standard errors: the sample std of n uniforms has relative error √(0.2/n).
	if math.Abs(mean) > 5*b/math.Sqrt(3*n) || math.Abs(std-b/math.Sqrt(3)) > 5*math.Sqrt(0.2/n)*b/math.Sqrt(3) {
		t.Errorf("%s: mean %g, std %g; want 0 and %g", name, mean, std, b/math.Sqrt(3))
	}
}

func checkNormal(t *testing.T, name string, x *tensor.Tensor, sd float64) {
	t.Helper()
	_, _, mean, std := stats(x)
	n := float64(x.Numel())
	if math.Abs(mean) > 5*sd/math.Sqrt(n) || math.Abs(std-sd) > 5*sd/math.Sqrt(2*n) {
		t.Errorf("%s: mean %g, std %g; want 0 and %g", name, mean, std, sd)
	}
}

func TestDefaultInit(t *testing.T) {
	tensor.ManualSeed(0)
	l := NewLinear(400, 300)
	checkUniform(t, "Linear weight", l.Weight, 1/math.Sqrt(400))
	checkUniform(t, "Linear bias", l.Bias, 1/math.Sqrt(400))
	c := NewConv2d(16, 64, 5)
	checkUniform(t, "Conv2d weight", c.Weight, 1/math.Sqrt(16*25))
	checkUniform(t, "Conv2d bias", c.Bias, 1/math.Sqrt(16*25))
	checkNormal(t, "Embedding weight", NewEmbedding(1000, 50).Weight, 1)
	for _, p := range append(l.Parameters(), c.Parameters()...) {
		if !p.RequiresGrad() || !p.IsLeaf() || p.DType() != tensor.Float32 {
			t.Errorf("parameter %v: requires grad %v, leaf %v, %v; want a Float32 leaf requiring grad",
				p.Shape(), p.RequiresGrad(), p.IsLeaf(), p.DType())
		}
	}
	tensor.ManualSeed(0)
	again := NewLinear(400, 300)
	assertClose(t, "Linear weight after the same seed", again.Weight, l.Weight, 0, 0)
}

func TestInitialisers(t *testing.T) {
	tensor.ManualSeed(1)
	w := NewLinear(500, 200).Weight // fan_in 500, fan_out 200
	if got := XavierUniform(w, 2); got != w {
		t.Fatal("XavierUniform does not return its argument")
	}
	checkUniform(t, "XavierUniform", w, 2*math.Sqrt(6.0/700))
	XavierNormal(w, 1)
	checkNormal(t, "XavierNormal", w, math.Sqrt(2.0/700))
	KaimingUniform(w, 0, "fan_in", "relu")
	checkUniform(t, "KaimingUniform relu fan_in", w, math.Sqrt2*math.Sqrt(3.0/500))
	KaimingUniform(w, math.Sqrt(5), "fan_in", "leaky_relu")
	checkUniform(t, "KaimingUniform a=√5", w, 1/math.Sqrt(500))
	KaimingNormal(w, 0, "fan_out", "relu")
	checkNormal(t, "KaimingNormal relu fan_out", w, math.Sqrt2/math.Sqrt(200))
	conv := NewConv2d(8, 4, 3).Weight // fan_in 72, fan_out 36
	KaimingNormal(conv, 0, "fan_out", "tanh")
	if _, _, _, std := stats(conv); math.Abs(std-5.0/3/6) > 0.15*5/3/6 {
		t.Errorf("KaimingNormal conv tanh fan_out: std %g, want about %g", std, 5.0/3/6)
	}
	if w.Grad() != nil || !w.IsLeaf() || !w.RequiresGrad() {
		t.Error("an initialiser changed the parameter's autograd state")
	}
	Constant(w, 0.5)
	if lo, hi, _, _ := stats(w); lo != 0.5 || hi != 0.5 {
		t.Errorf("Constant(0.5): range [%g, %g]", lo, hi)
	}
	x64 := tensor.Zeros(30, 40).AsType(tensor.Float64)
	Uniform(x64, -2, 3)
	if lo, hi, _, _ := stats(x64); lo < -2 || hi > 3 || x64.DType() != tensor.Float64 {
		t.Errorf("Uniform(-2, 3) on Float64: range [%g, %g], %v", lo, hi, x64.DType())
	}
	for _, tc := range []struct {
		nl   string
		a    float64
		want float64
	}{{"linear", 0, 1}, {"sigmoid", 0, 1}, {"tanh", 0, 5.0 / 3}, {"relu", 0, math.Sqrt2},
		{"leaky_relu", 0.2, math.Sqrt(2 / 1.04)}, {"selu", 0, 0.75}} {
		if got := CalculateGain(tc.nl, tc.a); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("CalculateGain(%s, %g) = %g, want %g", tc.nl, tc.a, got, tc.want)
		}
	}
	if err := tensor.Try(func() { XavierUniform(tensor.Zeros(3), 1) }); err == nil {
		t.Error("XavierUniform of a vector did not panic with a shape error")
	}
}
