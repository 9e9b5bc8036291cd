// Package inplace gives the tensor library's own packages (optim, nn) the
// few operations that change a tensor in place and that notebook users do
// not call themselves: an optimizer's fused update, and re-pointing a
// parameter at new storage (another device) while it keeps its identity,
// so that optimizers holding it stay valid. They stay out of package
// tensor's API, where every exported name shows in a notebook's completion.
//
// Package tensor implements the operations and hands them over with Set
// when it is initialized; callers fetch them with Get:
//
//	inplace.Get[*tensor.Tensor]().AdamStep(p, g, m, v, h)
//
// The type parameter is *tensor.Tensor, which this package (below tensor)
// cannot name; Get panics for any other.
package inplace

import "github.com/gotensor/gotensor/tensorlib/backend"

// Ops are the in-place operations on tensors of type T (*tensor.Tensor).
type Ops[T any] struct {
	// AdamStep performs one Adam (or AdamW, h.Decoupled) step in place:
	// it updates the parameter p and its moment buffers m and v from the
	// gradient g in one fused backend pass, recording no graph. It panics
	// with a *tensor.ShapeError, *tensor.DTypeError or *tensor.DeviceError
	// when the operands do not fit together.
	AdamStep func(p, g, m, v T, h backend.AdamParams)
	// SGDStep performs one SGD step in place on p, and on the momentum
	// buffer buf when h.Momentum != 0 (buf is ignored otherwise). Panics
	// as AdamStep.
	SGDStep func(p, g, buf T, h backend.SGDParams)
	// SetData makes dst view src's storage, layout and device from now
	// on, as PyTorch's `dst.data = src` does: dst keeps its identity,
	// whether it requires grad, and its gradient, which moves to src's
	// device. It panics with a *tensor.ShapeError or *tensor.DTypeError
	// when src's shape or dtype differs from dst's.
	SetData func(dst, src T)
}

var ops any // *Ops[T] for package tensor's T

// Set installs package tensor's operations. Package tensor calls it once,
// when it is initialized.
func Set[T any](o *Ops[T]) { ops = o }

// Get returns the operations that package tensor installed for T.
func Get[T any]() *Ops[T] { return ops.(*Ops[T]) }
