package optim_test

import (
	"math"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/optim"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// TestGradScalerSchedule follows torch.amp.GradScaler's documented rules
// (torch/amp/grad_scaler.py, _amp_update_scale_): the scale grows by the
// growth factor after growth_interval steps in a row without Inf or NaN,
// and a step with one is skipped, the scale multiplied by the backoff
// factor and the count of good steps restarted.
func TestGradScalerSchedule(t *testing.T) {
	p := tensor.FromFloat32s([]float32{1, 2}).SetRequiresGrad(true)
	opt := optim.NewSGD([]*tensor.Tensor{p}, 0.5)
	s := optim.NewGradScaler(optim.InitScale(8), optim.GrowthInterval(3))
	if s.ScaleFactor() != 8 {
		t.Fatalf("initial scale %v", s.ScaleFactor())
	}
	// The gradient of Scale(sum(p·c)) is 8·c; after Unscale, c.
	steps := []struct {
		c         float32 // the loss's coefficient, Inf or NaN for a bad step
		stepped   bool
		scale     float64 // after Update
		wantParam []float64
	}{
		{1, true, 8, []float64{0.5, 1.5}},
		{1, true, 8, []float64{0, 1}},
		{1, true, 16, []float64{-0.5, 0.5}}, // third good step: grows
		{float32(math.Inf(1)), false, 8, []float64{-0.5, 0.5}},
		{1, true, 8, []float64{-1, 0}},
		{float32(math.NaN()), false, 4, []float64{-1, 0}},
		{2, true, 4, []float64{-2, -1}},
		{2, true, 4, []float64{-3, -2}},
		{2, true, 8, []float64{-4, -3}},
	}
	for i, st := range steps {
		c := tensor.FromFloat32s([]float32{st.c, st.c})
		loss := p.Mul(c).Sum()
		opt.ZeroGrad()
		scaled := s.Scale(loss)
		if want := loss.Item() * s.ScaleFactor(); !(scaled.Item() == want || math.IsNaN(want) || math.IsInf(want, 0)) {
			t.Errorf("step %d: Scale gives %v, want %v", i, scaled.Item(), want)
		}
		scaled.Backward()
		if got := s.Step(opt); got != st.stepped {
			t.Errorf("step %d: Step reports %v, want %v", i, got, st.stepped)
		}
		s.Update()
		if s.ScaleFactor() != st.scale {
			t.Errorf("step %d: scale %v after Update, want %v", i, s.ScaleFactor(), st.scale)
		}
		if got := p.Float64s(); got[0] != st.wantParam[0] || got[1] != st.wantParam[1] {
			t.Errorf("step %d: parameter %v, want %v", i, got, st.wantParam)
		}
	}
}

// TestGradScalerUnscaleAndState checks Unscale's division (before
// clipping), the misuse panics, a disabled scaler, and StateDict.
func TestGradScalerUnscaleAndState(t *testing.T) {
	p := tensor.FromFloat32s([]float32{3, 4}).SetRequiresGrad(true)
	opt := optim.NewAdam([]*tensor.Tensor{p}, 0.1)
	s := optim.NewGradScaler()
	if s.ScaleFactor() != 65536 || !s.Enabled() {
		t.Fatalf("defaults: scale %v, enabled %v", s.ScaleFactor(), s.Enabled())
	}
	s.Scale(p.Square().Sum()).Backward()
	if g := p.Grad().Float64s(); g[0] != 6*65536 {
		t.Fatalf("scaled gradient %v", g)
	}
	s.Unscale(opt)
	if g := p.Grad().Float64s(); g[0] != 6 || g[1] != 8 {
		t.Errorf("unscaled gradient %v, want [6 8]", g)
	}
	mustPanicWith(t, "called twice", func() { s.Unscale(opt) })
	if !s.Step(opt) {
		t.Error("a finite step was skipped")
	}
	mustPanicWith(t, "called twice", func() { s.Step(opt) })
	s.Update()
	mustPanicWith(t, "no Step", func() { s.Update() })

	st := s.StateDict()
	if st["scale"].Item() != 65536 || st["growth_interval"].Item() != 2000 || st["_growth_tracker"].Item() != 1 {
		t.Errorf("state %v", st)
	}
	r := optim.NewGradScaler(optim.InitScale(2), optim.GrowthInterval(5))
	if err := r.LoadStateDict(st); err != nil {
		t.Fatal(err)
	}
	if r.ScaleFactor() != 65536 || r.String() != s.String() {
		t.Errorf("restored %v, want %v", r, s)
	}
	delete(st, "scale")
	if err := r.LoadStateDict(st); err == nil {
		t.Error("a state without scale loaded")
	}

	off := optim.NewGradScaler(optim.ScalerEnabled(false))
	loss := p.Sum()
	if off.Scale(loss) != loss || off.ScaleFactor() != 1 {
		t.Error("a disabled scaler scales")
	}
	opt.ZeroGrad()
	loss.Backward()
	if !off.Step(opt) {
		t.Error("a disabled scaler skipped a step")
	}
	off.Update()
	mustPanicWith(t, "growth factor", func() { optim.NewGradScaler(optim.GrowthFactor(1)) })
}

// TestGradScalerFloat16 shows what the scaler is for: under float16
// autocast a tiny loss's gradient underflows to zero where it enters the
// float16 activations, unless the loss is scaled; and a scale too large
// for float16 overflows, so that the step is skipped and the scale backs
// off.
func TestGradScalerFloat16(t *testing.T) {
	run := func(s *optim.GradScaler) (grad float64, stepped bool) {
		w := tensor.FromFloat32s([]float32{0.5, -0.25, 1, 2}, 2, 2).SetRequiresGrad(true)
		x := tensor.FromFloat32s([]float32{1, 2, 3, 4}, 2, 2)
		opt := optim.NewSGD([]*tensor.Tensor{w}, 1)
		var loss *tensor.Tensor
		tensor.Autocast(tensor.Float16, func() {
			// The product is float16, its Sum float32; the gradient
			// reaching the product, 1e-8, is below float16's smallest
			// subnormal (6e-8).
			loss = x.MatMul(w).Sum().MulScalar(1e-8)
		})
		s.Scale(loss).Backward()
		stepped = s.Step(opt)
		s.Update()
		return w.Grad().Float64s()[0], stepped
	}
	if g, _ := run(optim.NewGradScaler(optim.ScalerEnabled(false))); g != 0 {
		t.Errorf("without scaling the gradient is %v; float16 should lose it", g)
	}
	// d/dw00 of 1e-8·Σ(x·w) = 1e-8·(1+3), through float16 at 1024 times that.
	if g, ok := run(optim.NewGradScaler(optim.InitScale(1024))); !ok || !(math.Abs(g-4e-8) < 4e-10) {
		t.Errorf("with scaling the gradient is %v (stepped %v), want 4e-8", g, ok)
	}
	// 2⁴⁰·1e-8 fits float16, but not the weight's float16 gradient, up to
	// 6 times that: the step is skipped.
	s := optim.NewGradScaler(optim.InitScale(1 << 40))
	if _, ok := run(s); ok || s.ScaleFactor() != 1<<39 {
		t.Errorf("an overflowing scale: stepped %v, scale %v after Update (want skipped, 2^39)", ok, s.ScaleFactor())
	}
}

func mustPanicWith(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Errorf("no panic, want one mentioning %q", want)
			return
		}
		if msg, _ := r.(string); !strings.Contains(msg, want) {
			t.Errorf("panic %v, want one mentioning %q", r, want)
		}
	}()
	f()
}
