package optim_test

import (
	"math"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/optim"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

var (
	_ optim.Optimizer = (*optim.SGD)(nil)
	_ optim.Optimizer = (*optim.Adam)(nil)
)

// mustPanic runs f and checks that it panics with a message containing
// every one of wants.
func mustPanic(t *testing.T, name string, f func(), wants ...string) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Errorf("%s: no panic", name)
			return
		}
		msg, _ := r.(string)
		if err, ok := r.(error); ok {
			msg = err.Error()
		}
		for _, w := range wants {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: panic %q does not mention %q", name, msg, w)
			}
		}
	}()
	f()
}

func param(vals ...float64) *tensor.Tensor {
	return tensor.FromFloat64s(vals, len(vals)).SetRequiresGrad(true)
}

func TestMisusePanics(t *testing.T) {
	p := []*tensor.Tensor{param(1, 2)}
	cases := []struct {
		name  string
		f     func()
		wants []string
	}{
		{"Nesterov on Adam", func() { optim.NewAdam(p, 1e-3, optim.Nesterov()) }, []string{"optim: NewAdam does not take the Nesterov option"}},
		{"Momentum on AdamW", func() { optim.NewAdamW(p, 1e-3, optim.Momentum(0.9)) }, []string{"NewAdamW", "Momentum"}},
		{"Betas on SGD", func() { optim.NewSGD(p, 0.1, optim.Betas(0.9, 0.99)) }, []string{"NewSGD does not take the Betas option"}},
		{"Eps on SGD", func() { optim.NewSGD(p, 0.1, optim.Eps(1e-6)) }, []string{"Eps"}},
		{"zero Option", func() { optim.NewSGD(p, 0.1, optim.Option{}) }, []string{"empty Option"}},
		{"negative lr", func() { optim.NewSGD(p, -0.1) }, []string{"learning rate -0.1"}},
		{"NaN lr", func() { optim.NewAdam(p, math.NaN()) }, []string{"learning rate NaN"}},
		{"negative momentum", func() { optim.NewSGD(p, 0.1, optim.Momentum(-1)) }, []string{"momentum -1"}},
		{"negative weight decay", func() { optim.NewAdam(p, 0.1, optim.WeightDecay(-1)) }, []string{"weight decay -1"}},
		{"dampening > 1", func() { optim.NewSGD(p, 0.1, optim.Momentum(0.9), optim.Dampening(2)) }, []string{"dampening 2"}},
		{"nesterov without momentum", func() { optim.NewSGD(p, 0.1, optim.Nesterov()) }, []string{"Nesterov momentum needs Momentum > 0"}},
		{"nesterov with dampening", func() {
			optim.NewSGD(p, 0.1, optim.Momentum(0.9), optim.Dampening(0.1), optim.Nesterov())
		}, []string{"no Dampening"}},
		{"beta1 = 1", func() { optim.NewAdam(p, 0.1, optim.Betas(1, 0.999)) }, []string{"beta1 1"}},
		{"beta2 < 0", func() { optim.NewAdam(p, 0.1, optim.Betas(0.9, -0.1)) }, []string{"beta2 -0.1"}},
		{"negative eps", func() { optim.NewAdam(p, 0.1, optim.Eps(-1)) }, []string{"eps -1"}},
		{"empty params", func() { optim.NewAdam(nil, 0.1) }, []string{"empty parameter list"}},
		{"nil param", func() { optim.NewSGD([]*tensor.Tensor{nil}, 0.1) }, []string{"parameter 0 is nil"}},
		{"int param", func() { optim.NewSGD([]*tensor.Tensor{tensor.FromInt64s([]int64{1}, 1)}, 0.1) }, []string{"dtype int64", "floating point"}},
		{"non-leaf param", func() {
			optim.NewSGD([]*tensor.Tensor{param(1).MulScalar(2)}, 0.1)
		}, []string{"parameter 0 is not a leaf"}},
		{"SetLR negative", func() { optim.NewSGD(p, 0.1).SetLR(-1) }, []string{"SGD.SetLR", "learning rate -1"}},
		{"StepLR step size 0", func() { optim.NewStepLR(optim.NewSGD(p, 0.1), 0, 0.1) }, []string{"step size 0"}},
		{"CosineLR tMax 0", func() { optim.NewCosineLR(optim.NewSGD(p, 0.1), 0, 0) }, []string{"tMax 0"}},
		{"ClipGradNorm negative", func() { optim.ClipGradNorm(p, -1) }, []string{"max norm -1"}},
	}
	for _, c := range cases {
		mustPanic(t, c.name, c.f, c.wants...)
	}
}

// TestSGDStepByHand checks one step of each SGD variant against values
// worked out by hand from torch.optim.SGD's rules.
func TestSGDStepByHand(t *testing.T) {
	// p = [1, -2], g = [0.5, 1] on every step.
	steps := func(o optim.Optimizer, p *tensor.Tensor, n int) []float64 {
		for i := 0; i < n; i++ {
			o.ZeroGrad()
			p.SetGrad(tensor.FromFloat64s([]float64{0.5, 1}, 2))
			o.Step()
		}
		return p.Float64s()
	}
	cases := []struct {
		name string
		opts []optim.Option
		n    int
		want []float64
	}{
		// p - 0.1*g
		{"plain", nil, 1, []float64{0.95, -2.1}},
		// g' = g + 0.1*p = [0.6, 0.8]
		{"weight decay", []optim.Option{optim.WeightDecay(0.1)}, 1, []float64{0.94, -2.08}},
		// step 1: b = g, p -= 0.1*g; step 2: b = 0.9*g + g = 1.9g, p -= 0.19*g
		{"momentum 2 steps", []optim.Option{optim.Momentum(0.9)}, 2, []float64{1 - 0.29*0.5, -2 - 0.29}},
		// step 2: b = 0.9*g + 0.5*g = 1.4g: total 2.4g*0.1
		{"dampening 2 steps", []optim.Option{optim.Momentum(0.9), optim.Dampening(0.5)}, 2, []float64{1 - 0.24*0.5, -2 - 0.24}},
		// step 1: b = g, d = g + 0.9g = 1.9g; step 2: b = 1.9g, d = g + 1.71g = 2.71g
		{"nesterov 2 steps", []optim.Option{optim.Momentum(0.9), optim.Nesterov()}, 2, []float64{1 - 0.461*0.5, -2 - 0.461}},
	}
	for _, c := range cases {
		p := param(1, -2)
		got := steps(optim.NewSGD([]*tensor.Tensor{p}, 0.1, c.opts...), p, c.n)
		checkClose(t, c.name, got, c.want, 1e-12)
	}
}

// TestAdamFirstStep checks Adam's first step by hand: with bias
// correction m̂ = g and v̂ = g², so p moves by lr*g/(|g|+eps), about lr.
func TestAdamFirstStep(t *testing.T) {
	p := param(1, -2, 3)
	o := optim.NewAdam([]*tensor.Tensor{p}, 0.01)
	p.SetGrad(tensor.FromFloat64s([]float64{0.5, -4, 0}, 3))
	o.Step()
	want := []float64{1 - 0.01*0.5/(0.5+1e-8), -2 + 0.01*4/(4+1e-8), 3}
	checkClose(t, "Adam", p.Float64s(), want, 1e-12)

	// AdamW decays first: p*(1 - lr*wd), then the same Adam move.
	p = param(1, -2, 3)
	o = optim.NewAdamW([]*tensor.Tensor{p}, 0.01)
	p.SetGrad(tensor.FromFloat64s([]float64{0.5, -4, 0}, 3))
	o.Step()
	d := 1 - 0.01*0.01
	want = []float64{d - 0.01*0.5/(0.5+1e-8), -2*d + 0.01*4/(4+1e-8), 3 * d}
	checkClose(t, "AdamW", p.Float64s(), want, 1e-12)
}

// TestNilGradSkipped checks that a parameter without a gradient is left
// alone (weight decay does not touch it either), as in PyTorch.
func TestNilGradSkipped(t *testing.T) {
	for _, name := range []string{"SGD", "Adam", "AdamW"} {
		used, unused := param(1, 2), param(3, 4)
		ps := []*tensor.Tensor{used, unused}
		var o optim.Optimizer
		switch name {
		case "SGD":
			o = optim.NewSGD(ps, 0.1, optim.Momentum(0.9), optim.WeightDecay(0.1))
		case "Adam":
			o = optim.NewAdam(ps, 0.1, optim.WeightDecay(0.1))
		case "AdamW":
			o = optim.NewAdamW(ps, 0.1, optim.WeightDecay(0.1))
		}
		for i := 0; i < 3; i++ {
			o.ZeroGrad()
			used.Mul(used).Sum().Backward()
			if unused.Grad() != nil {
				t.Fatalf("%s: unused parameter got a gradient", name)
			}
			o.Step()
		}
		checkClose(t, name+" unused", unused.Float64s(), []float64{3, 4}, 0)
		if g := used.Float64s(); g[0] >= 1 || g[1] >= 2 {
			t.Errorf("%s: used parameter %v did not move toward 0", name, g)
		}
	}
}

func TestZeroGrad(t *testing.T) {
	p := param(1, 2)
	o := optim.NewAdam([]*tensor.Tensor{p}, 0.1)
	p.Mul(p).Sum().Backward()
	if p.Grad() == nil {
		t.Fatal("no gradient after Backward")
	}
	o.ZeroGrad()
	if p.Grad() != nil {
		t.Errorf("Grad after ZeroGrad = %v, want nil", p.Grad())
	}
}

// TestDuplicateParams checks that a tensor listed twice is stepped once.
func TestDuplicateParams(t *testing.T) {
	p := param(1)
	o := optim.NewSGD([]*tensor.Tensor{p, p}, 0.5)
	if n := len(o.Params()); n != 1 {
		t.Errorf("Params() has %d tensors, want 1", n)
	}
	p.SetGrad(tensor.FromFloat64s([]float64{1}, 1))
	o.Step()
	checkClose(t, "p", p.Float64s(), []float64{0.5}, 0)
}

func TestSetLR(t *testing.T) {
	p := param(1)
	for _, o := range []optim.Optimizer{optim.NewSGD([]*tensor.Tensor{p}, 0.1), optim.NewAdam([]*tensor.Tensor{p}, 0.1)} {
		if o.LR() != 0.1 {
			t.Errorf("LR() = %v, want 0.1", o.LR())
		}
		o.SetLR(0.25)
		if o.LR() != 0.25 {
			t.Errorf("LR() after SetLR(0.25) = %v", o.LR())
		}
	}
}

// TestSchedulesByHand checks the learning rates of both schedules against
// their closed forms, worked out by hand.
func TestSchedulesByHand(t *testing.T) {
	o := optim.NewSGD([]*tensor.Tensor{param(1)}, 1)
	s := optim.NewStepLR(o, 2, 0.1)
	var got []float64
	for i := 0; i < 5; i++ {
		s.Step()
		got = append(got, o.LR())
	}
	checkClose(t, "StepLR", got, []float64{1, 0.1, 0.1, 0.01, 0.01}, 1e-12)
	if s.LR() != o.LR() || s.Epoch() != 5 {
		t.Errorf("StepLR LR() = %v, Epoch() = %d; want %v, 5", s.LR(), s.Epoch(), o.LR())
	}

	o = optim.NewSGD([]*tensor.Tensor{param(1)}, 1)
	c := optim.NewCosineLR(o, 4, 0.2)
	got = got[:0]
	for i := 0; i < 8; i++ {
		c.Step()
		got = append(got, o.LR())
	}
	// 0.2 + 0.8*(1+cos(pi*e/4))/2 for e = 1..8
	h := math.Sqrt2 / 2
	want := []float64{0.2 + 0.4*(1+h), 0.6, 0.2 + 0.4*(1-h), 0.2, 0.2 + 0.4*(1-h), 0.6, 0.2 + 0.4*(1+h), 1}
	checkClose(t, "CosineLR", got, want, 1e-12)
}

// TestClipGradNormByHand: gradients [3] and [0, 4] have total norm 5.
func TestClipGradNormByHand(t *testing.T) {
	a, b, c := param(0), param(0, 0), param(7)
	a.SetGrad(tensor.FromFloat64s([]float64{3}, 1))
	b.SetGrad(tensor.FromFloat64s([]float64{0, 4}, 2))
	ps := []*tensor.Tensor{a, b, c} // c has no gradient: skipped
	if n := optim.ClipGradNorm(ps, 10); n != 5 {
		t.Errorf("norm = %v, want 5", n)
	}
	checkClose(t, "unclipped", append(a.Grad().Float64s(), b.Grad().Float64s()...), []float64{3, 0, 4}, 0)
	if n := optim.ClipGradNorm(ps, 1); n != 5 {
		t.Errorf("norm = %v, want 5", n)
	}
	k := 1 / (5 + 1e-6)
	checkClose(t, "clipped", append(a.Grad().Float64s(), b.Grad().Float64s()...), []float64{3 * k, 0, 4 * k}, 1e-12)
	if c.Grad() != nil {
		t.Errorf("parameter without gradient got %v", c.Grad())
	}
	optim.ClipGradValue(ps, 0.5)
	checkClose(t, "clip value", append(a.Grad().Float64s(), b.Grad().Float64s()...), []float64{0.5, 0, 0.5}, 0)
}

func TestString(t *testing.T) {
	p := []*tensor.Tensor{param(1)}
	for _, c := range []struct{ got, want string }{
		{optim.NewSGD(p, 0.1, optim.Momentum(0.9)).String(), "SGD(lr=0.1, momentum=0.9, dampening=0, nesterov=false, weight_decay=0, params=1)"},
		{optim.NewAdam(p, 1e-3).String(), "Adam(lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, params=1)"},
		{optim.NewAdamW(p, 1e-3).String(), "AdamW(lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01, params=1)"},
	} {
		if c.got != c.want {
			t.Errorf("String() = %q, want %q", c.got, c.want)
		}
	}
}
