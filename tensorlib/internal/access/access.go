// Package access gives the tensor library's own packages (nn, optim) the
// few operations on a tensor's insides that notebook users do not call
// themselves, without putting them in package tensor's API, where every
// exported name shows in a notebook's completion:
//
//   - an optimizer's fused update of a parameter in place (AdamStep,
//     SGDStep);
//   - re-pointing a parameter at new storage, on another device, while it
//     keeps its identity, so that optimizers holding it stay valid
//     (SetData, what nn.To does);
//   - the owner tag by which package nn finds, from a tensor a module's
//     Parameters method returns, the layer it belongs to (Owner,
//     SetOwner).
//
// Package tensor implements the operations and hands them over with Set
// when it is initialized; callers fetch them with Get:
//
//	access.Get[*tensor.Tensor]().AdamStep(p, g, m, v, h)
//
// The type parameter is *tensor.Tensor, which this package (below tensor)
// cannot name; Get panics for any other.
package access

import "github.com/gotensor/gotensor/tensorlib/backend"

// Ops are the operations on tensors of type T (*tensor.Tensor).
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
	// whether it requires grad, its owner tag and its gradient, which
	// moves to src's device. It panics with a *tensor.ShapeError or
	// *tensor.DTypeError when src's shape or dtype differs from dst's.
	SetData func(dst, src T)
	// Owner returns the value SetOwner gave t, or nil. Views and copies
	// of t have no owner.
	Owner func(t T) any
	// SetOwner tags t with owner.
	SetOwner func(t T, owner any)
}

var ops any // *Ops[T] for package tensor's T

// Set installs package tensor's operations. Package tensor calls it once,
// when it is initialized.
func Set[T any](o *Ops[T]) { ops = o }

// Get returns the operations that package tensor installed for T.
func Get[T any]() *Ops[T] { return ops.(*Ops[T]) }
