package optim

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// Optimizers, schedules and the gradient scaler save and restore what
// they hold between steps as a map of named tensors (StateDict and
// LoadStateDict), as PyTorch's state_dict does, so that nn.SaveCheckpoint
// can write a training run to one file and a restarted notebook continue
// it. Numbers are 0-d tensors (Float64, Int64 for counts); per-parameter
// state is named "state.<i>.<name>" after the parameter's position in the
// optimizer's list, with PyTorch's names (exp_avg, exp_avg_sq, step,
// momentum_buffer).

// StateDict returns Adam's state: "lr", and for each parameter i that has
// taken a step "state.<i>.step", "state.<i>.exp_avg" (the first moment)
// and "state.<i>.exp_avg_sq" (the second). The moments are the
// optimizer's own tensors: copy them before changing them.
func (o *Adam) StateDict() map[string]*tensor.Tensor {
	s := map[string]*tensor.Tensor{"lr": scalar(o.lr)}
	for i := range o.params {
		if o.m[i] == nil {
			continue
		}
		p := "state." + strconv.Itoa(i) + "."
		s[p+"step"] = count(o.steps[i])
		s[p+"exp_avg"], s[p+"exp_avg_sq"] = o.m[i], o.v[i]
	}
	return s
}

// LoadStateDict restores a state StateDict returned (for the same
// parameters: their number and shapes are checked), copying the moments
// to each parameter's device and dtype. It returns an error, changing
// nothing, when the state does not fit.
func (o *Adam) LoadStateDict(state map[string]*tensor.Tensor) error {
	per, lr, err := splitState(o.name(), state, o.params, "step", "exp_avg", "exp_avg_sq")
	if err != nil {
		return err
	}
	m, v, steps := make([]*tensor.Tensor, len(o.params)), make([]*tensor.Tensor, len(o.params)), make([]int, len(o.params))
	for i, st := range per {
		if st == nil {
			continue
		}
		steps[i] = int(st["step"].Item())
		m[i], v[i] = like(st["exp_avg"], o.params[i]), like(st["exp_avg_sq"], o.params[i])
	}
	o.lr, o.m, o.v, o.steps = lr, m, v, steps
	return nil
}

// StateDict returns SGD's state: "lr", and "state.<i>.momentum_buffer"
// for each parameter with a momentum buffer (the optimizer's own tensor).
func (o *SGD) StateDict() map[string]*tensor.Tensor {
	s := map[string]*tensor.Tensor{"lr": scalar(o.lr)}
	for i, b := range o.bufs {
		if b != nil {
			s["state."+strconv.Itoa(i)+".momentum_buffer"] = b
		}
	}
	return s
}

// LoadStateDict restores a state StateDict returned, as Adam's does.
func (o *SGD) LoadStateDict(state map[string]*tensor.Tensor) error {
	per, lr, err := splitState("SGD", state, o.params, "momentum_buffer")
	if err != nil {
		return err
	}
	bufs := make([]*tensor.Tensor, len(o.params))
	for i, st := range per {
		if st != nil {
			bufs[i] = like(st["momentum_buffer"], o.params[i])
		}
	}
	o.lr, o.bufs = lr, bufs
	return nil
}

// StateDict returns the schedule's state: "last_epoch" (the Step calls so
// far) and "lr".
func (s *StepLR) StateDict() map[string]*tensor.Tensor { return scheduleState(s.epoch, s.lr) }

// LoadStateDict restores a state StateDict returned (the optimizer's
// learning rate is the optimizer's to restore).
func (s *StepLR) LoadStateDict(state map[string]*tensor.Tensor) error {
	return loadSchedule("StepLR", state, &s.epoch, &s.lr)
}

// StateDict returns the schedule's state, as StepLR's.
func (s *CosineLR) StateDict() map[string]*tensor.Tensor { return scheduleState(s.epoch, s.lr) }

// LoadStateDict restores a state StateDict returned, as StepLR's.
func (s *CosineLR) LoadStateDict(state map[string]*tensor.Tensor) error {
	return loadSchedule("CosineLR", state, &s.epoch, &s.lr)
}

func scheduleState(epoch int, lr float64) map[string]*tensor.Tensor {
	return map[string]*tensor.Tensor{"last_epoch": count(epoch), "lr": scalar(lr)}
}

func loadSchedule(who string, state map[string]*tensor.Tensor, epoch *int, lr *float64) error {
	v, err := scalars(who, state, "last_epoch", "lr")
	if err != nil {
		return err
	}
	*epoch, *lr = int(v[0]), v[1]
	return nil
}

// count returns n as a 0-d Int64 tensor.
func count(n int) *tensor.Tensor { return tensor.FromInt64s([]int64{int64(n)}).Reshape() }

// like returns a copy of t with p's dtype and device.
func like(t, p *tensor.Tensor) *tensor.Tensor {
	return t.Detach().AsType(p.DType()).To(p.Device()).Clone()
}

// splitState checks an optimizer's state for params: "lr" and, per
// parameter, either none or all of names, shaped as the parameter (the
// numbers one element). It returns each parameter's entries (nil where
// none) and the learning rate.
func splitState(who string, state map[string]*tensor.Tensor, params []*tensor.Tensor, names ...string) ([]map[string]*tensor.Tensor, float64, error) {
	bad := func(format string, args ...any) ([]map[string]*tensor.Tensor, float64, error) {
		return nil, 0, fmt.Errorf("optim: %s.LoadStateDict: "+format, append([]any{who}, args...)...)
	}
	lr, ok := state["lr"]
	if !ok || lr.Numel() != 1 || !(lr.Item() >= 0) {
		return bad("no valid \"lr\"; the state has %v", stateKeys(state))
	}
	per := make([]map[string]*tensor.Tensor, len(params))
	for k, t := range state {
		if k == "lr" {
			continue
		}
		parts := strings.Split(k, ".")
		i, err := -1, error(nil)
		if len(parts) == 3 && parts[0] == "state" {
			i, err = strconv.Atoi(parts[1])
		}
		if err != nil || i < 0 || !slices.Contains(names, parts[len(parts)-1]) {
			return bad("unexpected entry %q (want lr and state.<i>.%s)", k, strings.Join(names, "|"))
		}
		if i >= len(params) {
			return bad("%q is for parameter %d, and the optimizer has %d", k, i, len(params))
		}
		if per[i] == nil {
			per[i] = map[string]*tensor.Tensor{}
		}
		per[i][parts[2]] = t
	}
	for i, st := range per {
		if st == nil {
			continue
		}
		for _, n := range names {
			t, ok := st[n]
			switch {
			case !ok:
				return bad("parameter %d has no %q", i, n)
			case n == "step" && t.Numel() != 1:
				return bad("state.%d.step has %d elements", i, t.Numel())
			case n != "step" && !slices.Equal(t.Shape(), params[i].Shape()):
				return bad("state.%d.%s has shape %v, the parameter %v: the state is of another model", i, n, t.Shape(), params[i].Shape())
			}
		}
	}
	return per, lr.Item(), nil
}

// stateKeys returns state's keys, sorted.
func stateKeys(state map[string]*tensor.Tensor) []string {
	ks := make([]string, 0, len(state))
	for k := range state {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
