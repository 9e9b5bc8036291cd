package optim_test

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/optim"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// fixtures is testdata/fixtures.json, written by testdata/gen_fixtures.py
// with PyTorch: each case trains loss = mean((X @ W.T + b - Y)^2) for
// Steps steps from W0, b0 and records the final W, b.
type fixtures struct {
	TorchVersion string      `json:"torch_version"`
	Steps        int         `json:"steps"`
	X, Y, W0     [][]float64 `json:"-"`
	RawX         [][]float64 `json:"X"`
	RawY         [][]float64 `json:"Y"`
	RawW0        [][]float64 `json:"W0"`
	B0           []float64   `json:"b0"`
	Cases        []fixture   `json:"cases"`
}

type fixture struct {
	Name        string    `json:"name"`
	Opt         string    `json:"opt"`
	LR          float64   `json:"lr"`
	Momentum    *float64  `json:"momentum"`
	Dampening   *float64  `json:"dampening"`
	Nesterov    bool      `json:"nesterov"`
	WeightDecay *float64  `json:"weight_decay"`
	Betas       []float64 `json:"betas"`
	Eps         *float64  `json:"eps"`
	SkipBOdd    bool      `json:"skip_b_odd"`
	SetLR       []float64 `json:"set_lr"` // [step, lr]
	Clip        *float64  `json:"clip"`
	Schedule    *struct {
		Kind     string  `json:"kind"`
		StepSize int     `json:"step_size"`
		Gamma    float64 `json:"gamma"`
		TMax     int     `json:"t_max"`
		EtaMin   float64 `json:"eta_min"`
	} `json:"schedule"`

	W     [][]float64 `json:"W"`
	B     []float64   `json:"b"`
	LRs   []float64   `json:"lrs"`
	Norms []float64   `json:"norms"`
}

func loadFixtures(t *testing.T) *fixtures {
	t.Helper()
	b, err := os.ReadFile("testdata/fixtures.json")
	if err != nil {
		t.Fatalf("%v (regenerate with /usr/bin/python3 testdata/gen_fixtures.py)", err)
	}
	var f fixtures
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	f.X, f.Y, f.W0 = f.RawX, f.RawY, f.RawW0
	return &f
}

func matrix(rows [][]float64, dt tensor.DType) *tensor.Tensor {
	var flat []float64
	for _, r := range rows {
		flat = append(flat, r...)
	}
	return tensor.FromFloat64s(flat, len(rows), len(rows[0])).AsType(dt)
}

// options turns a fixture's settings into optim options.
func (c *fixture) options() []optim.Option {
	var o []optim.Option
	if c.Momentum != nil {
		o = append(o, optim.Momentum(*c.Momentum))
	}
	if c.Dampening != nil {
		o = append(o, optim.Dampening(*c.Dampening))
	}
	if c.Nesterov {
		o = append(o, optim.Nesterov())
	}
	if c.WeightDecay != nil {
		o = append(o, optim.WeightDecay(*c.WeightDecay))
	}
	if c.Betas != nil {
		o = append(o, optim.Betas(c.Betas[0], c.Betas[1]))
	}
	if c.Eps != nil {
		o = append(o, optim.Eps(*c.Eps))
	}
	return o
}

// replay runs fixture c with parameters of dtype dt and returns the final
// W and b, the learning rate after each step and the clipped norms.
func replay(t *testing.T, f *fixtures, c *fixture, dt tensor.DType) (w, b []float64, lrs, norms []float64) {
	x, y := matrix(f.X, dt), matrix(f.Y, dt)
	W := matrix(f.W0, dt).SetRequiresGrad(true)
	B := tensor.FromFloat64s(f.B0, len(f.B0)).AsType(dt).SetRequiresGrad(true)
	params := []*tensor.Tensor{W, B}
	var opt optim.Optimizer
	switch c.Opt {
	case "sgd":
		opt = optim.NewSGD(params, c.LR, c.options()...)
	case "adam":
		opt = optim.NewAdam(params, c.LR, c.options()...)
	case "adamw":
		opt = optim.NewAdamW(params, c.LR, c.options()...)
	default:
		t.Fatalf("unknown optimizer %q", c.Opt)
	}
	var sched interface{ Step() }
	if s := c.Schedule; s != nil {
		switch s.Kind {
		case "step":
			sched = optim.NewStepLR(opt, s.StepSize, s.Gamma)
		case "cosine":
			sched = optim.NewCosineLR(opt, s.TMax, s.EtaMin)
		default:
			t.Fatalf("unknown schedule %q", s.Kind)
		}
	}
	for step := 0; step < f.Steps; step++ {
		if c.SetLR != nil && step == int(c.SetLR[0]) {
			opt.SetLR(c.SetLR[1])
		}
		opt.ZeroGrad()
		out := x.MatMul(W.T())
		if !(c.SkipBOdd && step%2 == 1) {
			out = out.Add(B)
		}
		d := out.Sub(y)
		d.Mul(d).Mean().Backward()
		if c.Clip != nil {
			norms = append(norms, optim.ClipGradNorm(params, *c.Clip))
		}
		opt.Step()
		if sched != nil {
			sched.Step()
		}
		lrs = append(lrs, opt.LR())
	}
	return W.Float64s(), B.Float64s(), lrs, norms
}

// closeTo reports whether got is within rtol of want, relative to
// max(|want|, 1e-3), so that values near zero are not held to nothing.
func closeTo(got, want, rtol float64) bool {
	return math.Abs(got-want) <= rtol*math.Max(math.Abs(want), 1e-3)
}

func checkClose(t *testing.T, what string, got, want []float64, rtol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d values, want %d", what, len(got), len(want))
		return
	}
	for i := range got {
		if !closeTo(got[i], want[i], rtol) {
			t.Errorf("%s[%d] = %.12g, want %.12g (PyTorch)", what, i, got[i], want[i])
		}
	}
}

func flatten(rows [][]float64) []float64 {
	var out []float64
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

// TestAgainstPyTorch replays every fixture case in Float64 and compares
// the parameters after 10 steps with PyTorch's to 1e-5 relative.
func TestAgainstPyTorch(t *testing.T) {
	f := loadFixtures(t)
	if len(f.Cases) == 0 {
		t.Fatal("no fixture cases")
	}
	for i := range f.Cases {
		c := &f.Cases[i]
		t.Run(c.Name, func(t *testing.T) {
			w, b, lrs, norms := replay(t, f, c, tensor.Float64)
			checkClose(t, "W", w, flatten(c.W), 1e-5)
			checkClose(t, "b", b, c.B, 1e-5)
			checkClose(t, "lr", lrs, c.LRs, 1e-9)
			checkClose(t, "norm", norms, c.Norms, 1e-9)
		})
	}
}

// TestAgainstPyTorchFloat32 replays the cases with Float32 parameters; the
// Float32 rounding of 10 steps allows a looser tolerance.
func TestAgainstPyTorchFloat32(t *testing.T) {
	f := loadFixtures(t)
	for i := range f.Cases {
		c := &f.Cases[i]
		t.Run(c.Name, func(t *testing.T) {
			w, b, _, norms := replay(t, f, c, tensor.Float32)
			checkClose(t, "W", w, flatten(c.W), 1e-3)
			checkClose(t, "b", b, c.B, 1e-3)
			checkClose(t, "norm", norms, c.Norms, 1e-5)
		})
	}
}
