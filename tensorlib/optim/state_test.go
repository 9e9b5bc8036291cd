package optim_test

import (
	"strings"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/optim"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// TestOptimizerStateDict checks that an optimizer restored from another's
// StateDict continues exactly as the original does: Adam's moments and
// step counts (a parameter that never had a gradient keeps no state),
// SGD's momentum buffers, the learning rate and a schedule's epoch.
func TestOptimizerStateDict(t *testing.T) {
	makers := map[string]func(ps []*tensor.Tensor) optim.Optimizer{
		"Adam":  func(ps []*tensor.Tensor) optim.Optimizer { return optim.NewAdamW(ps, 0.05) },
		"SGD":   func(ps []*tensor.Tensor) optim.Optimizer { return optim.NewSGD(ps, 0.1, optim.Momentum(0.9)) },
		"plain": func(ps []*tensor.Tensor) optim.Optimizer { return optim.NewSGD(ps, 0.1) },
	}
	type stateful interface {
		StateDict() map[string]*tensor.Tensor
		LoadStateDict(map[string]*tensor.Tensor) error
	}
	for name, mk := range makers {
		params := func() []*tensor.Tensor {
			return []*tensor.Tensor{
				tensor.FromFloat32s([]float32{1, -2, 3}).SetRequiresGrad(true),
				tensor.FromFloat32s([]float32{0.5}).SetRequiresGrad(true), // never used
			}
		}
		step := func(o optim.Optimizer, ps []*tensor.Tensor) {
			o.ZeroGrad()
			ps[0].Square().Sum().Backward()
			o.Step()
		}
		a := params()
		oa := mk(a)
		sa := optim.NewCosineLR(oa, 10, 0)
		for i := 0; i < 3; i++ {
			step(oa, a)
			sa.Step()
		}
		b := []*tensor.Tensor{a[0].Detach().Clone().SetRequiresGrad(true), a[1].Detach().Clone().SetRequiresGrad(true)}
		ob := mk(b)
		sb := optim.NewCosineLR(ob, 10, 0)
		if err := ob.(stateful).LoadStateDict(oa.(stateful).StateDict()); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := sb.LoadStateDict(sa.StateDict()); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if ob.LR() != oa.LR() || sb.Epoch() != 3 {
			t.Fatalf("%s: restored lr %v (want %v), epoch %d", name, ob.LR(), oa.LR(), sb.Epoch())
		}
		for i := 0; i < 3; i++ {
			step(oa, a)
			sa.Step()
			step(ob, b)
			sb.Step()
		}
		ga, gb := a[0].Float32s(), b[0].Float32s()
		for i := range ga {
			if ga[i] != gb[i] {
				t.Errorf("%s: the restored run's parameter %v, the original's %v", name, gb, ga)
				break
			}
		}
		if _, ok := oa.(stateful).StateDict()["state.1.exp_avg"]; ok {
			t.Errorf("%s: state for a parameter that never had a gradient", name)
		}
	}

	p := tensor.Zeros(3).SetRequiresGrad(true)
	o := optim.NewAdam([]*tensor.Tensor{p}, 0.1)
	for _, c := range []struct {
		state map[string]*tensor.Tensor
		want  string
	}{
		{map[string]*tensor.Tensor{}, `no valid "lr"`},
		{map[string]*tensor.Tensor{"lr": tensor.Scalar(0.1), "momentum": tensor.Zeros(3)}, "unexpected entry"},
		{map[string]*tensor.Tensor{"lr": tensor.Scalar(0.1), "state.4.step": tensor.Scalar(1)}, "parameter 4"},
		{map[string]*tensor.Tensor{"lr": tensor.Scalar(0.1), "state.0.step": tensor.Scalar(1), "state.0.exp_avg": tensor.Zeros(2), "state.0.exp_avg_sq": tensor.Zeros(2)}, "another model"},
		{map[string]*tensor.Tensor{"lr": tensor.Scalar(0.1), "state.0.step": tensor.Scalar(1)}, `no "exp_avg"`},
	} {
		if err := o.LoadStateDict(c.state); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("LoadStateDict(%v): error %v, want one mentioning %q", c.state, err, c.want)
		}
	}
}
