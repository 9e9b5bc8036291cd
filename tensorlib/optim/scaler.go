package optim

import (
	"fmt"
	"math"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// GradScaler scales the loss for float16 training, as torch.amp.GradScaler
// does (dynamic loss scaling): float16 gradients below 6e-8 round to zero,
// so the loss is multiplied by a large factor before Backward and the
// gradients divided by it before the optimizer's step. When a step's
// gradients hold an Inf or NaN the factor was too large: the step is
// skipped and the factor halved; after GrowthInterval steps without one it
// doubles. BFloat16 has float32's range and needs no scaler.
//
//	scaler := optim.NewGradScaler()
//	for loader.Next() {
//		x, y := loader.Batch()
//		var loss *tensor.Tensor
//		tensor.Autocast(tensor.Float16, func() { loss = nn.CrossEntropy(model.Forward(x), y) })
//		opt.ZeroGrad()
//		scaler.Scale(loss).Backward()
//		scaler.Unscale(opt)                              // optional: before clipping
//		optim.ClipGradNorm(model.Parameters(), 1)
//		scaler.Step(opt)                                 // skipped on Inf or NaN
//		scaler.Update()
//	}
//
// The defaults are PyTorch's: an initial scale of 2¹⁶, growth factor 2,
// backoff factor 0.5, growth interval 2000. Make one with NewGradScaler.
type GradScaler struct {
	scale          float64
	growthFactor   float64
	backoffFactor  float64
	growthInterval int
	growthTracker  int // steps since the last Inf or NaN, or growth
	enabled        bool
	// This step's optimizers (by their first parameter), in the order
	// Unscale met them, and whether their gradients held an Inf or NaN.
	stepped []scalerEntry
}

type scalerEntry struct {
	first    *tensor.Tensor
	foundInf bool
	stepped  bool
}

// A ScalerOption configures NewGradScaler.
type ScalerOption func(*GradScaler)

// InitScale sets the scale factor the scaler starts with (default 2¹⁶).
func InitScale(s float64) ScalerOption { return func(g *GradScaler) { g.scale = s } }

// GrowthFactor sets the factor the scale grows by after GrowthInterval
// steps without Inf or NaN (default 2).
func GrowthFactor(f float64) ScalerOption { return func(g *GradScaler) { g.growthFactor = f } }

// BackoffFactor sets the factor the scale shrinks by after a step with an
// Inf or NaN gradient (default 0.5).
func BackoffFactor(f float64) ScalerOption { return func(g *GradScaler) { g.backoffFactor = f } }

// GrowthInterval sets how many steps without Inf or NaN make the scale
// grow (default 2000).
func GrowthInterval(n int) ScalerOption { return func(g *GradScaler) { g.growthInterval = n } }

// ScalerEnabled turns the scaler on (the default) or off: a disabled
// scaler's Scale returns the loss as it is, Step just steps and Update
// does nothing, so one training loop serves float16 and bfloat16 or
// float32 (PyTorch's enabled=False).
func ScalerEnabled(on bool) ScalerOption { return func(g *GradScaler) { g.enabled = on } }

// NewGradScaler returns a gradient scaler with PyTorch's defaults, changed
// by opts. It panics when the scale is not a positive finite number, the
// growth factor not above 1, the backoff factor not in (0, 1) or the
// interval below 1.
//
//	scaler := optim.NewGradScaler(optim.InitScale(1024))
func NewGradScaler(opts ...ScalerOption) *GradScaler {
	g := &GradScaler{scale: 65536, growthFactor: 2, backoffFactor: 0.5, growthInterval: 2000, enabled: true}
	for _, o := range opts {
		if o == nil {
			panic("optim: NewGradScaler: nil option; make options with optim.InitScale, GrowthFactor, BackoffFactor, GrowthInterval or ScalerEnabled")
		}
		o(g)
	}
	switch {
	case !(g.scale > 0) || math.IsInf(g.scale, 1):
		panic(fmt.Sprintf("optim: NewGradScaler: scale %v; it must be a positive finite number", g.scale))
	case !(g.growthFactor > 1):
		panic(fmt.Sprintf("optim: NewGradScaler: growth factor %v; it must be above 1", g.growthFactor))
	case !(g.backoffFactor > 0 && g.backoffFactor < 1):
		panic(fmt.Sprintf("optim: NewGradScaler: backoff factor %v; it must be in (0, 1)", g.backoffFactor))
	case g.growthInterval < 1:
		panic(fmt.Sprintf("optim: NewGradScaler: growth interval %d; it must be at least 1", g.growthInterval))
	}
	return g
}

// Enabled reports whether the scaler scales (see ScalerEnabled).
func (g *GradScaler) Enabled() bool { return g.enabled }

// ScaleFactor returns the current scale (PyTorch's get_scale), 1 when the
// scaler is disabled.
func (g *GradScaler) ScaleFactor() float64 {
	if !g.enabled {
		return 1
	}
	return g.scale
}

// Scale returns loss multiplied by the scale factor, in Float32 (a 16-bit
// loss is converted first), to call Backward on: every gradient then comes
// out multiplied by the factor. A disabled scaler returns loss itself.
func (g *GradScaler) Scale(loss *tensor.Tensor) *tensor.Tensor {
	if !g.enabled {
		return loss
	}
	if loss.DType().IsHalf() {
		loss = loss.AsType(tensor.Float32)
	}
	return loss.MulScalar(g.scale)
}

// Unscale divides the gradients of opt's parameters by the scale factor,
// in place, and records whether any holds an Inf or NaN, for Step. Call
// it before anything that reads the gradients' true values (gradient
// clipping); Step calls it when it was not called. It panics when called
// twice for the same optimizer before Update.
func (g *GradScaler) Unscale(opt Optimizer) {
	if !g.enabled {
		return
	}
	params := opt.Params()
	if len(params) == 0 {
		return
	}
	if e := g.entry(params[0]); e != nil {
		panic("optim: GradScaler.Unscale: called twice for one optimizer in a step; call Update after Step before the next Unscale")
	}
	inv := 1 / g.scale
	var worst *tensor.Tensor // the largest magnitude, NaN winning: one read for all
	tensor.NoGrad(func() {
		for _, p := range params {
			gr := p.Grad()
			if gr == nil {
				continue
			}
			gr = gr.MulScalar(inv)
			p.SetGrad(gr)
			m := gr.Abs().MaxAll().AsType(tensor.Float32)
			if worst == nil {
				worst = m
			} else {
				worst = worst.Maximum(m.To(worst.Device()))
			}
		}
	})
	found := false
	if worst != nil {
		w := worst.Item()
		found = math.IsInf(w, 0) || math.IsNaN(w)
	}
	g.stepped = append(g.stepped, scalerEntry{first: params[0], foundInf: found})
}

// entry returns this step's record of the optimizer whose first parameter
// is first, or nil.
func (g *GradScaler) entry(first *tensor.Tensor) *scalerEntry {
	for i := range g.stepped {
		if g.stepped[i].first == first {
			return &g.stepped[i]
		}
	}
	return nil
}

// Step unscales opt's gradients (unless Unscale did) and calls opt.Step,
// unless a gradient holds an Inf or NaN: then the step is skipped, leaving
// the parameters and the optimizer's state as they were. It reports
// whether the step was taken. It panics when called twice for one
// optimizer before Update.
func (g *GradScaler) Step(opt Optimizer) bool {
	if !g.enabled {
		opt.Step()
		return true
	}
	params := opt.Params()
	if len(params) == 0 {
		opt.Step()
		return true
	}
	e := g.entry(params[0])
	if e == nil {
		g.Unscale(opt)
		e = g.entry(params[0])
	}
	if e.stepped {
		panic("optim: GradScaler.Step: called twice for one optimizer in a step; call Update after Step")
	}
	e.stepped = true
	if e.foundInf {
		return false
	}
	opt.Step()
	return true
}

// Update adjusts the scale factor for the next step, once per step after
// Step: it multiplies it by the backoff factor when this step's gradients
// held an Inf or NaN (and restarts the count of good steps), or by the
// growth factor when this makes GrowthInterval good steps in a row. It
// panics when no Unscale or Step ran since the last Update.
func (g *GradScaler) Update() {
	if !g.enabled {
		return
	}
	if len(g.stepped) == 0 {
		panic("optim: GradScaler.Update: no Step (or Unscale) since the last Update; call Step(opt) first")
	}
	found := false
	for _, e := range g.stepped {
		found = found || e.foundInf
	}
	g.stepped = g.stepped[:0]
	if found {
		g.scale *= g.backoffFactor
		g.growthTracker = 0
		return
	}
	if g.growthTracker++; g.growthTracker == g.growthInterval {
		g.scale *= g.growthFactor
		g.growthTracker = 0
	}
}

// String describes the scaler: "GradScaler(scale 65536, growth 2 every
// 2000 steps, backoff 0.5)".
func (g *GradScaler) String() string {
	if !g.enabled {
		return "GradScaler(disabled)"
	}
	return fmt.Sprintf("GradScaler(scale %g, growth %g every %d steps, backoff %g)", g.scale, g.growthFactor, g.growthInterval, g.backoffFactor)
}

// StateDict returns the scaler's state as PyTorch's GradScaler.state_dict
// names it ("scale", "growth_factor", "backoff_factor", "growth_interval",
// "_growth_tracker"), as 0-d Float64 tensors, for a checkpoint.
func (g *GradScaler) StateDict() map[string]*tensor.Tensor {
	return map[string]*tensor.Tensor{
		"scale":           scalar(g.scale),
		"growth_factor":   scalar(g.growthFactor),
		"backoff_factor":  scalar(g.backoffFactor),
		"growth_interval": scalar(float64(g.growthInterval)),
		"_growth_tracker": scalar(float64(g.growthTracker)),
	}
}

// LoadStateDict restores a state StateDict returned. It returns an error,
// changing nothing, when a key is missing or unknown or a value invalid.
func (g *GradScaler) LoadStateDict(state map[string]*tensor.Tensor) error {
	v, err := scalars("GradScaler", state, "scale", "growth_factor", "backoff_factor", "growth_interval", "_growth_tracker")
	if err != nil {
		return err
	}
	if !(v[0] > 0) || math.IsInf(v[0], 1) || !(v[1] > 1) || !(v[2] > 0 && v[2] < 1) || v[3] < 1 || v[4] < 0 {
		return fmt.Errorf("optim: GradScaler.LoadStateDict: invalid state %v", v)
	}
	g.scale, g.growthFactor, g.backoffFactor = v[0], v[1], v[2]
	g.growthInterval, g.growthTracker = int(v[3]), int(v[4])
	g.stepped = g.stepped[:0]
	return nil
}

// scalar returns v as a 0-d Float64 tensor.
func scalar(v float64) *tensor.Tensor { return tensor.FromFloat64s([]float64{v}).Reshape() }

// scalars returns the one-element tensors of state named keys, which must
// be all its keys, as numbers.
func scalars(who string, state map[string]*tensor.Tensor, keys ...string) ([]float64, error) {
	if len(state) != len(keys) {
		return nil, fmt.Errorf("optim: %s.LoadStateDict: %d entries, want %v", who, len(state), keys)
	}
	out := make([]float64, len(keys))
	for i, k := range keys {
		t, ok := state[k]
		if !ok || t == nil || t.Numel() != 1 {
			return nil, fmt.Errorf("optim: %s.LoadStateDict: no one-element %q; the state has %v", who, k, stateKeys(state))
		}
		out[i] = t.Item()
	}
	return out, nil
}
