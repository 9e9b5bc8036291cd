package tensor

import "github.com/gotensor/gotensor/tensorlib/backend"

func compare(op backend.CompareOp, x, y *Tensor) *Tensor {
	name := op.String()
	sameDevice(name, x, y)
	dt := PromoteTypes(x.DType(), y.DType())
	if dt == Bool {
		dt = Int64
	}
	shape := broadcastShapes(name, x.layout.Shape, y.layout.Shape)
	xs, ys := x.AsType(dt), y.AsType(dt)
	s := x.backend.Compare(op, xs.storage, xs.layout.BroadcastTo(shape), ys.storage, ys.layout.BroadcastTo(shape))
	return newTensor(x.backend, s, shape)
}

// Eq returns the Bool tensor x == y elementwise, broadcasting as Add.
// Operands of different dtypes are compared after promotion.
//
//	tensor.FromInt64s([]int64{1, 2, 3}).Eq(tensor.FromInt64s([]int64{1, 0, 3})) // tensor([ True, False,  True])
func (x *Tensor) Eq(y *Tensor) *Tensor { return compare(backend.OpEq, x, y) }

// Ne returns the Bool tensor x != y elementwise, broadcasting as Add.
func (x *Tensor) Ne(y *Tensor) *Tensor { return compare(backend.OpNe, x, y) }

// Lt returns the Bool tensor x < y elementwise, broadcasting as Add.
func (x *Tensor) Lt(y *Tensor) *Tensor { return compare(backend.OpLt, x, y) }

// Le returns the Bool tensor x <= y elementwise, broadcasting as Add.
func (x *Tensor) Le(y *Tensor) *Tensor { return compare(backend.OpLe, x, y) }

// Gt returns the Bool tensor x > y elementwise, broadcasting as Add.
func (x *Tensor) Gt(y *Tensor) *Tensor { return compare(backend.OpGt, x, y) }

// Ge returns the Bool tensor x >= y elementwise, broadcasting as Add.
func (x *Tensor) Ge(y *Tensor) *Tensor { return compare(backend.OpGe, x, y) }

// scalarLike returns the 0-d tensor s on x's device, with the dtype a
// scalar op on x would use.
func scalarLike(x *Tensor, s float64) *Tensor {
	dt := scalarResultType(x.DType(), s)
	st := x.backend.Alloc(dt, 1)
	x.backend.Fill(st, backend.Layout{}, s)
	return newTensor(x.backend, st, nil)
}

// EqScalar returns the Bool tensor x == s elementwise.
func (x *Tensor) EqScalar(s float64) *Tensor { return x.Eq(scalarLike(x, s)) }

// GtScalar returns the Bool tensor x > s elementwise.
func (x *Tensor) GtScalar(s float64) *Tensor { return x.Gt(scalarLike(x, s)) }

// LtScalar returns the Bool tensor x < s elementwise.
func (x *Tensor) LtScalar(s float64) *Tensor { return x.Lt(scalarLike(x, s)) }

// GeScalar returns the Bool tensor x >= s elementwise.
func (x *Tensor) GeScalar(s float64) *Tensor { return x.Ge(scalarLike(x, s)) }

// LeScalar returns the Bool tensor x <= s elementwise.
func (x *Tensor) LeScalar(s float64) *Tensor { return x.Le(scalarLike(x, s)) }

// NeScalar returns the Bool tensor x != s elementwise.
func (x *Tensor) NeScalar(s float64) *Tensor { return x.Ne(scalarLike(x, s)) }

// Where returns a tensor with a's elements where cond is true and b's
// elsewhere; cond, a and b broadcast together as in Add, and a and b
// promote to a common dtype. It panics with a *DTypeError when cond is not
// Bool.
//
//	tensor.Where(x.GtScalar(0), x, tensor.Zeros()) // ReLU
func Where(cond, a, b *Tensor) *Tensor {
	sameDevice("Where", cond, a, b)
	if cond.DType() != Bool {
		panic(dtypeErr("Where", "build the condition with a comparison (x.Gt(y)) or cond.AsType(tensor.Bool)",
			[]DType{cond.DType()}, "condition must be Bool, got %v", cond.DType()))
	}
	dt := PromoteTypes(a.DType(), b.DType())
	shape := broadcastShapes("Where", broadcastShapes("Where", cond.layout.Shape, a.layout.Shape), b.layout.Shape)
	as, bs := a.AsType(dt), b.AsType(dt)
	s := a.backend.Where(cond.storage, cond.layout.BroadcastTo(shape), as.storage, as.layout.BroadcastTo(shape), bs.storage, bs.layout.BroadcastTo(shape))
	out := newTensor(a.backend, s, shape)
	if !tracked(a, b) {
		return out
	}
	return record(out, "Where", func(g *Tensor) []*Tensor {
		zero := scalarLike(g, 0)
		var ga, gb *Tensor
		if needGrad(a) {
			ga = Where(cond, g, zero)
		}
		if needGrad(b) {
			gb = Where(cond, zero, g)
		}
		return []*Tensor{ga, gb}
	}, a, b)
}
