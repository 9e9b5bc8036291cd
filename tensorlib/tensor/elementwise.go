package tensor

import (
	"math"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// binary is the primitive behind every tensor-tensor arithmetic op: it
// checks devices, promotes dtypes as PyTorch does, broadcasts, and calls
// the backend.
func binary(op backend.BinaryOp, x, y *Tensor) *Tensor {
	name := op.String()
	sameDevice(name, x, y)
	dt := PromoteTypes(x.DType(), y.DType())
	if op == backend.OpDiv && !dt.IsFloat() {
		dt = Float32 // true division, as torch.div
	}
	shape := broadcastShapes(name, x.layout.Shape, y.layout.Shape)
	if dt == Bool {
		switch op {
		case backend.OpSub:
			panic(dtypeErr(name, "use x.Ne(y) for exclusive or, or convert with AsType(tensor.Int64)", []DType{Bool, Bool},
				"subtraction of two Bool tensors is not supported"))
		case backend.OpPow:
			panic(dtypeErr(name, "convert first with AsType(tensor.Int64) or AsType(tensor.Float32)", []DType{Bool, Bool},
				"Pow of two Bool tensors is not supported"))
		}
		// Add is logical or, Mul logical and, as in PyTorch.
		return binary(op, x.AsType(Int64), y.AsType(Int64)).AsType(Bool)
	}
	xs, ys := x.AsType(dt), y.AsType(dt)
	s := x.backend.Binary(op, xs.storage, xs.layout.BroadcastTo(shape), ys.storage, ys.layout.BroadcastTo(shape))
	out := newTensor(x.backend, s, shape)
	if !tracked(x, y) {
		return out
	}
	return record(out, name, func(g *Tensor) []*Tensor { return binaryBackward(op, g, xs, ys, out) }, x, y)
}

// binaryBackward returns the gradients of op(x, y) = out for x and y, of
// the broadcast shape (the engine sums them back to the operands' shapes).
func binaryBackward(op backend.BinaryOp, g, x, y, out *Tensor) []*Tensor {
	var gx, gy *Tensor
	switch op {
	case backend.OpAdd:
		gx, gy = g, g
	case backend.OpSub:
		gx = g
		if needGrad(y) {
			gy = g.Neg()
		}
	case backend.OpMul:
		if needGrad(x) {
			gx = g.Mul(y)
		}
		if needGrad(y) {
			gy = g.Mul(x)
		}
	case backend.OpDiv:
		if needGrad(x) {
			gx = g.Div(y)
		}
		if needGrad(y) {
			gy = g.Mul(out).Div(y).Neg()
		}
	case backend.OpPow:
		if needGrad(x) {
			gx = g.Mul(y).Mul(x.Pow(y.SubScalar(1)))
		}
		if needGrad(y) {
			// d/dy x**y = x**y log x, taken as 0 where x == 0 and y >= 0 (as torch).
			d := g.Mul(out).Mul(x.Log())
			zero := x.EqScalar(0).Mul(y.GeScalar(0)) // logical and
			gy = Where(zero, scalarLike(d, 0), d)
		}
	case backend.OpMaximum, backend.OpMinimum:
		// The larger (smaller) operand gets the gradient; ties split it.
		win := x.Gt(y)
		if op == backend.OpMinimum {
			win = x.Lt(y)
		}
		tie := x.Eq(y)
		half := g.MulScalar(0.5)
		zero := scalarLike(g, 0)
		if needGrad(x) {
			gx = Where(win, g, Where(tie, half, zero))
		}
		if needGrad(y) {
			lose := x.Lt(y)
			if op == backend.OpMinimum {
				lose = x.Gt(y)
			}
			gy = Where(lose, g, Where(tie, half, zero))
		}
	}
	return []*Tensor{gx, gy}
}

// Add returns x + y elementwise, broadcasting as NumPy does: shapes are
// aligned from the right and each pair of sizes must be equal or 1.
// Mixed dtypes promote as in PyTorch (Int64 + Float32 is Float32). It
// panics with a *ShapeError when the shapes do not broadcast and a
// *DeviceError when x and y are on different devices.
//
//	a := tensor.Ones(2, 3)
//	b := tensor.FromFloat32s([]float32{1, 2, 3})
//	a.Add(b) // tensor([[2., 3., 4.], [2., 3., 4.]])
func (x *Tensor) Add(y *Tensor) *Tensor { return binary(backend.OpAdd, x, y) }

// Sub returns x - y elementwise with broadcasting, as Add.
func (x *Tensor) Sub(y *Tensor) *Tensor { return binary(backend.OpSub, x, y) }

// Mul returns x * y elementwise with broadcasting, as Add.
func (x *Tensor) Mul(y *Tensor) *Tensor { return binary(backend.OpMul, x, y) }

// Div returns x / y elementwise with broadcasting, as Add. Division is true
// division: Int64 operands give Float32, as torch.div.
func (x *Tensor) Div(y *Tensor) *Tensor { return binary(backend.OpDiv, x, y) }

// Pow returns x ** y elementwise with broadcasting, as Add. Int64 ** Int64
// stays Int64.
func (x *Tensor) Pow(y *Tensor) *Tensor {
	return binary(backend.OpPow, AutocastFloat32(x), AutocastFloat32(y))
}

// Maximum returns the elementwise maximum of x and y with broadcasting, as
// Add. NaN wins, as in torch.maximum.
func (x *Tensor) Maximum(y *Tensor) *Tensor { return binary(backend.OpMaximum, x, y) }

// Minimum returns the elementwise minimum of x and y with broadcasting, as
// Add. NaN wins, as in torch.minimum.
func (x *Tensor) Minimum(y *Tensor) *Tensor { return binary(backend.OpMinimum, x, y) }

// binaryScalar is the primitive behind the scalar forms. A float tensor
// keeps its dtype; an Int64 or Bool tensor becomes Int64 with a whole
// number and Float32 with a fractional one (PyTorch's rule for Python int
// and float scalars).
func binaryScalar(op backend.BinaryOp, x *Tensor, s float64, reversed bool) *Tensor {
	name := op.String() + "Scalar"
	dt := scalarResultType(x.DType(), s)
	if op == backend.OpDiv && !dt.IsFloat() {
		dt = Float32
	}
	if op == backend.OpPow && dt == Int64 && s < 0 && !reversed {
		panic(dtypeErr(name, "convert first with x.AsType(tensor.Float32)", []DType{x.DType()},
			"integers to negative integer powers are not allowed (%v ** %v)", x.DType(), s))
	}
	if dt.IsHalf() && op != backend.OpPow {
		// PyTorch's type promotion converts the scalar to the tensor's
		// dtype first: x + 0.1 adds bfloat16's 0.1, 0.10009765625.
		s = roundScalar(s, dt)
	}
	xs := x.AsType(dt)
	out := newTensor(x.backend, x.backend.BinaryScalar(op, xs.storage, xs.layout, s, reversed), x.Shape())
	if !tracked(x) {
		return out
	}
	return record(out, name, func(g *Tensor) []*Tensor { return []*Tensor{scalarBackward(op, g, xs, s, reversed, out)} }, x)
}

// scalarBackward returns the gradient of op(x, s) (op(s, x) when reversed)
// = out for x.
func scalarBackward(op backend.BinaryOp, g, x *Tensor, s float64, reversed bool, out *Tensor) *Tensor {
	switch op {
	case backend.OpAdd:
		return g
	case backend.OpSub:
		if reversed {
			return g.Neg()
		}
		return g
	case backend.OpMul:
		return g.MulScalar(s)
	case backend.OpDiv:
		if reversed { // d(s/x) = -s/x² = -out/x
			return g.Mul(out).Div(x).Neg()
		}
		return g.DivScalar(s)
	case backend.OpPow:
		if reversed { // d(s**x) = s**x log s
			return g.Mul(out).MulScalar(math.Log(s))
		}
		if s == 0 {
			return g.MulScalar(0)
		}
		return g.Mul(x.PowScalar(s - 1)).MulScalar(s)
	case backend.OpMaximum: // clamp_min: the gradient passes where x >= s, as torch.clamp
		return Where(x.GeScalar(s), g, scalarLike(g, 0))
	case backend.OpMinimum:
		return Where(x.LeScalar(s), g, scalarLike(g, 0))
	}
	panic("tensor: no backward for scalar op " + op.String())
}

// AddScalar returns x + s elementwise. A float tensor keeps its dtype; an
// Int64 tensor stays Int64 when s is a whole number and becomes Float32
// otherwise.
//
//	tensor.Ones(2).AddScalar(1) // tensor([2., 2.])
func (x *Tensor) AddScalar(s float64) *Tensor { return binaryScalar(backend.OpAdd, x, s, false) }

// SubScalar returns x - s elementwise; dtypes as AddScalar.
func (x *Tensor) SubScalar(s float64) *Tensor { return binaryScalar(backend.OpSub, x, s, false) }

// MulScalar returns x * s elementwise; dtypes as AddScalar.
func (x *Tensor) MulScalar(s float64) *Tensor { return binaryScalar(backend.OpMul, x, s, false) }

// DivScalar returns x / s elementwise; Int64 tensors give Float32 (true
// division).
func (x *Tensor) DivScalar(s float64) *Tensor { return binaryScalar(backend.OpDiv, x, s, false) }

// PowScalar returns x ** s elementwise; dtypes as AddScalar. It panics
// with a *DTypeError for an Int64 tensor and a negative whole s.
//
//	tensor.Arange(1, 4, 1).PowScalar(2) // tensor([1., 4., 9.])
func (x *Tensor) PowScalar(s float64) *Tensor {
	return binaryScalar(backend.OpPow, AutocastFloat32(x), s, false)
}

// RSubScalar returns s - x elementwise; dtypes as AddScalar.
func (x *Tensor) RSubScalar(s float64) *Tensor { return binaryScalar(backend.OpSub, x, s, true) }

// RDivScalar returns s / x elementwise; dtypes as DivScalar.
func (x *Tensor) RDivScalar(s float64) *Tensor { return binaryScalar(backend.OpDiv, x, s, true) }

// unary is the primitive behind the elementwise functions. Float-only ops
// turn Int64 and Bool inputs into Float32 first, as PyTorch does.
func unary(op backend.UnaryOp, in *Tensor) *Tensor {
	dt := in.DType()
	x := in
	switch {
	case dt == Bool && op <= backend.OpReLU:
		panic(dtypeErr(op.String(), "convert first with x.AsType(tensor.Int64) or x.AsType(tensor.Float32)", []DType{Bool},
			"%s is not supported on Bool tensors", op))
	case op >= backend.OpSqrt && !dt.IsFloat():
		return unary(op, in.AsType(Float32))
	}
	out := newTensor(x.backend, x.backend.Unary(op, x.storage, x.layout), x.Shape())
	if !tracked(x) {
		return out
	}
	if ab, ok := x.backend.Backend.(backend.ActivationGrad); ok && fused("ActivationGrad", x) {
		if op == backend.OpReLU {
			return recordOwned(out, "ReLU", func(g *Tensor, owned bool) []*Tensor {
				if g.DType() != out.DType() {
					return []*Tensor{unaryBackward(op, g, x, out)}
				}
				s := ab.ReLUBackward(g.storage, g.layout, out.storage, out.layout, owned)
				return []*Tensor{newTensor(g.backend, s, g.Shape())}
			}, x)
		}
		if fused, fromInput := backend.ActivationBackwardOp(op); fused {
			v := out
			if fromInput {
				v = x
			}
			return recordOwned(out, op.String(), func(g *Tensor, owned bool) []*Tensor {
				if g.DType() != v.DType() || g.backend != v.backend {
					return []*Tensor{unaryBackward(op, g, x, out)}
				}
				s := ab.ActivationBackward(op, g.storage, g.layout, v.storage, v.layout, owned)
				return []*Tensor{newTensor(g.backend, s, g.Shape())}
			}, x)
		}
	}
	return record(out, op.String(), func(g *Tensor) []*Tensor { return []*Tensor{unaryBackward(op, g, x, out)} }, x)
}

// unaryBackward returns the gradient of op(x) = out for x.
func unaryBackward(op backend.UnaryOp, g, x, out *Tensor) *Tensor {
	zero := scalarLike(g, 0)
	switch op {
	case backend.OpNeg:
		return g.Neg()
	case backend.OpAbs: // sign(x), 0 at 0
		return Where(x.GtScalar(0), g, Where(x.LtScalar(0), g.Neg(), zero))
	case backend.OpReLU:
		return Where(out.GtScalar(0), g, zero)
	case backend.OpSqrt:
		return g.Div(out).MulScalar(0.5)
	case backend.OpExp:
		return g.Mul(out)
	case backend.OpLog:
		return g.Div(x)
	case backend.OpSin:
		return g.Mul(x.Cos())
	case backend.OpCos:
		return g.Mul(x.Sin()).Neg()
	case backend.OpTanh:
		return g.Mul(out.Mul(out).RSubScalar(1))
	case backend.OpSigmoid:
		return g.Mul(out.Mul(out.RSubScalar(1)))
	case backend.OpGELU: // Φ(x) + x φ(x)
		cdf := x.MulScalar(1 / math.Sqrt2).Erf().AddScalar(1).MulScalar(0.5)
		pdf := x.Mul(x).MulScalar(-0.5).Exp().MulScalar(1 / math.Sqrt(2*math.Pi))
		return g.Mul(cdf.Add(x.Mul(pdf)))
	case backend.OpErf: // 2/√π e^(-x²)
		return g.Mul(x.Mul(x).Neg().Exp().MulScalar(2 / math.Sqrt(math.Pi)))
	}
	panic("tensor: no backward for unary op " + op.String())
}

// Neg returns -x elementwise. It panics with a *DTypeError on Bool.
func (x *Tensor) Neg() *Tensor { return unary(backend.OpNeg, x) }

// Abs returns |x| elementwise. It panics with a *DTypeError on Bool.
func (x *Tensor) Abs() *Tensor { return unary(backend.OpAbs, x) }

// Sqrt returns the square root of x elementwise (NaN for negative values).
// Int64 and Bool inputs give Float32.
func (x *Tensor) Sqrt() *Tensor { return unary(backend.OpSqrt, x) }

// Exp returns e**x elementwise. Int64 and Bool inputs give Float32.
func (x *Tensor) Exp() *Tensor { return unary(backend.OpExp, AutocastFloat32(x)) }

// Log returns the natural logarithm of x elementwise (-Inf at 0, NaN below).
// Int64 and Bool inputs give Float32.
func (x *Tensor) Log() *Tensor { return unary(backend.OpLog, AutocastFloat32(x)) }

// Sin returns sin(x) elementwise. Int64 and Bool inputs give Float32.
func (x *Tensor) Sin() *Tensor { return unary(backend.OpSin, x) }

// Cos returns cos(x) elementwise. Int64 and Bool inputs give Float32.
func (x *Tensor) Cos() *Tensor { return unary(backend.OpCos, x) }

// Tanh returns tanh(x) elementwise. Int64 and Bool inputs give Float32.
func (x *Tensor) Tanh() *Tensor { return unary(backend.OpTanh, x) }

// Sigmoid returns 1 / (1 + e**-x) elementwise. Int64 and Bool inputs give
// Float32.
func (x *Tensor) Sigmoid() *Tensor { return unary(backend.OpSigmoid, x) }

// ReLU returns max(x, 0) elementwise. It panics with a *DTypeError on Bool.
func (x *Tensor) ReLU() *Tensor { return unary(backend.OpReLU, x) }

// GELU returns x * Φ(x) elementwise, where Φ is the standard normal CDF
// (the exact form, PyTorch's default). Int64 and Bool inputs give Float32.
func (x *Tensor) GELU() *Tensor { return unary(backend.OpGELU, x) }

// Erf returns the error function of x elementwise. Int64 and Bool inputs
// give Float32.
func (x *Tensor) Erf() *Tensor { return unary(backend.OpErf, x) }

// Square returns x * x elementwise.
func (x *Tensor) Square() *Tensor { return x.Mul(x) }

// Clamp returns x limited to [lo, hi] elementwise. An infinite bound (or
// NaN) is no bound: Clamp(0, math.Inf(1)) only raises negatives to 0. It
// panics with a *ShapeError when lo > hi.
func (x *Tensor) Clamp(lo, hi float64) *Tensor {
	if lo > hi {
		panic(valueErr("Clamp", "pass lo <= hi", "empty range [%v, %v]", lo, hi))
	}
	y := x
	if !math.IsInf(lo, 0) && !math.IsNaN(lo) {
		y = binaryScalar(backend.OpMaximum, y, lo, false)
	}
	if !math.IsInf(hi, 0) && !math.IsNaN(hi) {
		y = binaryScalar(backend.OpMinimum, y, hi, false)
	}
	if y == x {
		return x.Clone()
	}
	return y
}
