package optim

import (
	"fmt"

	"github.com/gotensor/gotensor/tensorlib/tensor"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// Adam is the Adam optimizer (Kingma and Ba), following torch.optim.Adam,
// or with decoupled weight decay AdamW (Loshchilov and Hutter), following
// torch.optim.AdamW. For each parameter p with gradient g, step t computes
//
//	g = g + weightDecay*p         (Adam, when WeightDecay > 0)
//	p = p * (1 - lr*weightDecay)  (AdamW)
//	m = b1*m + (1-b1)*g
//	v = b2*v + (1-b2)*g*g
//	p = p - lr * (m/(1-b1^t)) / (sqrt(v/(1-b2^t)) + eps)
//
// Each parameter counts its own steps t: one without a gradient in a step
// does not advance. Make one with NewAdam or NewAdamW.
type Adam struct {
	params    []*tensor.Tensor
	m, v      []*tensor.Tensor // running averages, nil until a parameter's first step
	steps     []int
	lr        float64
	s         settings
	decoupled bool
}

// NewAdam returns an Adam optimizer of params with learning rate lr (1e-3
// is the usual choice). Options: Betas(b1, b2) (default 0.9, 0.999),
// Eps(e) (default 1e-8), WeightDecay(w) (default 0; an L2 penalty added to
// the gradient). It panics on an invalid value (lr, eps or w negative, a
// beta outside [0, 1)), on an option Adam does not take, and on a
// parameter list that is empty or holds a non-float or non-leaf tensor.
//
//	opt := optim.NewAdam(model.Parameters(), 1e-3)
func NewAdam(params []*tensor.Tensor, lr float64, opts ...Option) *Adam {
	return newAdam("NewAdam", params, lr, 0, false, opts)
}

// NewAdamW returns an AdamW optimizer of params with learning rate lr:
// Adam with decoupled weight decay, which shrinks the parameters directly
// (p *= 1 - lr*w) instead of adding w*p to the gradient. Options as
// NewAdam; the weight decay defaults to 0.01 as in PyTorch.
//
//	opt := optim.NewAdamW(model.Parameters(), 1e-3, optim.WeightDecay(0.1))
func NewAdamW(params []*tensor.Tensor, lr float64, opts ...Option) *Adam {
	return newAdam("NewAdamW", params, lr, 0.01, true, opts)
}

func newAdam(op string, params []*tensor.Tensor, lr, wd float64, decoupled bool, opts []Option) *Adam {
	s := settings{beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: wd}
	applyOptions(op, &s, opts, "Betas", "Eps", "WeightDecay")
	checkLR(op, lr)
	checkNonNegative(op, "eps", s.eps)
	checkNonNegative(op, "weight decay", s.weightDecay)
	for i, b := range []float64{s.beta1, s.beta2} {
		if !(b >= 0 && b < 1) {
			panic(fmt.Sprintf("optim: %s: beta%d %v; betas must be in [0, 1)", op, i+1, b))
		}
	}
	params = checkParams(op, params)
	n := len(params)
	return &Adam{
		params: params, m: make([]*tensor.Tensor, n), v: make([]*tensor.Tensor, n), steps: make([]int, n),
		lr: lr, s: s, decoupled: decoupled,
	}
}

// ZeroGrad clears the gradient of every parameter (Grad becomes nil).
func (o *Adam) ZeroGrad() { zeroGrad(o.params) }

// Step updates every parameter that has a gradient, in place. Parameters
// whose Grad is nil are skipped and their step count does not advance.
func (o *Adam) Step() {
	for i, p := range o.params {
		g := p.Grad()
		if g == nil {
			continue
		}
		if o.m[i] == nil {
			o.m[i], o.v[i] = tensor.ZerosLike(p), tensor.ZerosLike(p)
		}
		o.steps[i]++
		step.AdamStep(p, g, o.m[i], o.v[i], backend.AdamParams{
			LR:          o.lr,
			Beta1:       o.s.beta1,
			Beta2:       o.s.beta2,
			Eps:         o.s.eps,
			WeightDecay: o.s.weightDecay,
			Step:        o.steps[i],
			Decoupled:   o.decoupled,
		})
	}
}

// SetLR sets the learning rate of the following steps. It panics when lr
// is negative.
func (o *Adam) SetLR(lr float64) {
	checkLR(o.name()+".SetLR", lr)
	o.lr = lr
}

// LR returns the current learning rate.
func (o *Adam) LR() float64 { return o.lr }

// Params returns the parameters the optimizer updates.
func (o *Adam) Params() []*tensor.Tensor { return append([]*tensor.Tensor(nil), o.params...) }

// String describes the optimizer and its settings.
func (o *Adam) String() string {
	return fmt.Sprintf("%s(lr=%g, betas=(%g, %g), eps=%g, weight_decay=%g, params=%d)",
		o.name(), o.lr, o.s.beta1, o.s.beta2, o.s.eps, o.s.weightDecay, len(o.params))
}

func (o *Adam) name() string {
	if o.decoupled {
		return "AdamW"
	}
	return "Adam"
}
