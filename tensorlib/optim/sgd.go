package optim

import (
	"fmt"

	"github.com/gotensor/gotensor/tensorlib/tensor"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// SGD is stochastic gradient descent with optional momentum, dampening,
// Nesterov momentum and weight decay, following torch.optim.SGD. For each
// parameter p with gradient g, a step computes
//
//	g = g + weightDecay*p                      (when WeightDecay > 0)
//	b = g on the first step, else momentum*b + (1-dampening)*g
//	g = g + momentum*b (Nesterov) or b         (when Momentum > 0)
//	p = p - lr*g
//
// Make one with NewSGD.
type SGD struct {
	params []*tensor.Tensor
	bufs   []*tensor.Tensor // momentum buffers, nil until a parameter's first step
	lr     float64
	s      settings
}

// NewSGD returns an SGD optimizer of params with learning rate lr. Options:
// Momentum(m), Dampening(d), Nesterov() and WeightDecay(w); the defaults are
// plain gradient descent. It panics when lr or an option value is negative,
// when Nesterov is set without momentum or with dampening, and on a
// parameter list that is empty or holds a non-float or non-leaf tensor.
//
//	opt := optim.NewSGD(model.Parameters(), 0.1, optim.Momentum(0.9), optim.Nesterov())
func NewSGD(params []*tensor.Tensor, lr float64, opts ...Option) *SGD {
	const op = "NewSGD"
	var s settings
	applyOptions(op, &s, opts, "Momentum", "Dampening", "Nesterov", "WeightDecay")
	checkLR(op, lr)
	checkNonNegative(op, "momentum", s.momentum)
	checkNonNegative(op, "weight decay", s.weightDecay)
	if !(s.dampening <= 1) || s.dampening < 0 {
		panic(fmt.Sprintf("optim: %s: dampening %v; it must be in [0, 1]", op, s.dampening))
	}
	if s.nesterov && (s.momentum <= 0 || s.dampening != 0) {
		panic(fmt.Sprintf("optim: %s: Nesterov momentum needs Momentum > 0 and no Dampening (got momentum %v, dampening %v)", op, s.momentum, s.dampening))
	}
	params = checkParams(op, params)
	return &SGD{params: params, bufs: make([]*tensor.Tensor, len(params)), lr: lr, s: s}
}

// ZeroGrad clears the gradient of every parameter (Grad becomes nil).
func (o *SGD) ZeroGrad() { zeroGrad(o.params) }

// Step updates every parameter that has a gradient, in place. Parameters
// whose Grad is nil are skipped.
func (o *SGD) Step() {
	for i, p := range o.params {
		g := p.Grad()
		if g == nil {
			continue
		}
		h := backend.SGDParams{
			LR:          o.lr,
			Momentum:    o.s.momentum,
			Dampening:   o.s.dampening,
			WeightDecay: o.s.weightDecay,
			Nesterov:    o.s.nesterov,
		}
		if o.s.momentum != 0 && o.bufs[i] == nil {
			o.bufs[i] = tensor.ZerosLike(p)
			h.First = true
		}
		step.SGDStep(p, g, o.bufs[i], h)
	}
}

// SetLR sets the learning rate of the following steps. It panics when lr
// is negative.
func (o *SGD) SetLR(lr float64) {
	checkLR("SGD.SetLR", lr)
	o.lr = lr
}

// LR returns the current learning rate.
func (o *SGD) LR() float64 { return o.lr }

// Params returns the parameters the optimizer updates.
func (o *SGD) Params() []*tensor.Tensor { return append([]*tensor.Tensor(nil), o.params...) }

// String describes the optimizer and its settings.
func (o *SGD) String() string {
	return fmt.Sprintf("SGD(lr=%g, momentum=%g, dampening=%g, nesterov=%t, weight_decay=%g, params=%d)",
		o.lr, o.s.momentum, o.s.dampening, o.s.nesterov, o.s.weightDecay, len(o.params))
}
