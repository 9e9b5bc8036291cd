package optim

import (
	"fmt"
	"math"

	"github.com/gotensor/gotensor/tensorlib/tensor"

	"github.com/gotensor/gotensor/tensorlib/internal/access"
)

// An Optimizer updates a list of parameters from their gradients. SGD,
// Adam and AdamW implement it, and the schedules (StepLR, CosineLR) drive
// any Optimizer.
type Optimizer interface {
	// ZeroGrad clears the gradient of every parameter (Grad becomes nil).
	ZeroGrad()
	// Step updates every parameter that has a gradient, in place.
	Step()
	// SetLR sets the learning rate used by the following steps.
	SetLR(lr float64)
	// LR returns the current learning rate.
	LR() float64
	// Params returns the parameters it updates (GradScaler unscales
	// their gradients).
	Params() []*tensor.Tensor
}

// An Option configures an optimizer when it is created. SGD takes
// Momentum, Dampening, Nesterov and WeightDecay; Adam and AdamW take Betas,
// Eps and WeightDecay. Passing an option to an optimizer that does not
// take it panics.
type Option struct {
	name  string
	apply func(*settings)
}

// settings collects the options of one constructor call.
type settings struct {
	momentum, dampening float64
	nesterov            bool
	weightDecay         float64
	beta1, beta2, eps   float64
}

// Momentum sets SGD's momentum factor m (PyTorch's momentum; default 0,
// no momentum). With momentum the update direction is the buffer
// b = m*b + (1-dampening)*g.
func Momentum(m float64) Option {
	return Option{"Momentum", func(s *settings) { s.momentum = m }}
}

// Nesterov makes SGD use Nesterov momentum (PyTorch's nesterov=True): the
// update direction is g + m*b. It needs Momentum > 0 and no Dampening.
func Nesterov() Option {
	return Option{"Nesterov", func(s *settings) { s.nesterov = true }}
}

// Dampening sets SGD's dampening d for momentum (default 0): the gradient
// enters the momentum buffer scaled by 1-d.
func Dampening(d float64) Option {
	return Option{"Dampening", func(s *settings) { s.dampening = d }}
}

// WeightDecay sets the L2 penalty w (default 0 for SGD and Adam, 0.01 for
// AdamW). SGD and Adam add w*p to the gradient; AdamW decays the
// parameter directly, p *= 1 - lr*w (decoupled weight decay).
func WeightDecay(w float64) Option {
	return Option{"WeightDecay", func(s *settings) { s.weightDecay = w }}
}

// Betas sets Adam's and AdamW's decay rates of the running averages of the
// gradient (b1) and of its square (b2); the defaults are 0.9 and 0.999.
func Betas(b1, b2 float64) Option {
	return Option{"Betas", func(s *settings) { s.beta1, s.beta2 = b1, b2 }}
}

// Eps sets the term Adam and AdamW add to the denominator for numerical
// stability (default 1e-8).
func Eps(e float64) Option {
	return Option{"Eps", func(s *settings) { s.eps = e }}
}

// applyOptions applies opts to s, panicking on an option that optimizer
// op does not take (allowed lists the ones it does).
func applyOptions(op string, s *settings, opts []Option, allowed ...string) {
	for _, o := range opts {
		if o.apply == nil {
			panic(fmt.Sprintf("optim: %s: empty Option; make options with optim.Momentum, optim.Betas and the other option functions", op))
		}
		ok := false
		for _, a := range allowed {
			ok = ok || a == o.name
		}
		if !ok {
			panic(fmt.Sprintf("optim: %s does not take the %s option; its options are %v", op, o.name, allowed))
		}
		o.apply(s)
	}
}

// checkParams validates an optimizer's parameter list and returns it
// without duplicates (a tensor listed twice is updated once).
func checkParams(op string, params []*tensor.Tensor) []*tensor.Tensor {
	if len(params) == 0 {
		panic(fmt.Sprintf("optim: %s: empty parameter list; pass model.Parameters() or tensors made with SetRequiresGrad(true)", op))
	}
	seen := make(map[*tensor.Tensor]bool, len(params))
	out := make([]*tensor.Tensor, 0, len(params))
	for i, p := range params {
		switch {
		case p == nil:
			panic(fmt.Sprintf("optim: %s: parameter %d is nil", op, i))
		case !p.DType().IsFloat():
			panic(fmt.Sprintf("optim: %s: parameter %d has dtype %v; parameters must be floating point (Float32 usually)", op, i, p.DType()))
		case !p.IsLeaf():
			panic(fmt.Sprintf("optim: %s: parameter %d is not a leaf of the autograd graph (it is computed from other tensors); optimize the tensors it is computed from, or make it a leaf with Detach().SetRequiresGrad(true)", op, i))
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// checkLR panics unless lr is a valid learning rate.
func checkLR(op string, lr float64) {
	if !(lr >= 0) || math.IsInf(lr, 1) {
		panic(fmt.Sprintf("optim: %s: learning rate %v; it must be a finite number >= 0", op, lr))
	}
}

// checkNonNegative panics unless v >= 0.
func checkNonNegative(op, name string, v float64) {
	if !(v >= 0) || math.IsInf(v, 1) {
		panic(fmt.Sprintf("optim: %s: %s %v; it must be a finite number >= 0", op, name, v))
	}
}

// zeroGrad clears the gradients of params.
func zeroGrad(params []*tensor.Tensor) {
	for _, p := range params {
		p.ZeroGrad()
	}
}

// step holds the fused in-place updates of package tensor (one backend
// pass per parameter), which are not part of tensor's public API.
var step = access.Get[*tensor.Tensor]()
