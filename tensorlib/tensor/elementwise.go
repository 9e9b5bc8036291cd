package tensor

import "math"

// binary is the primitive behind every tensor-tensor arithmetic op: it
// checks devices, promotes dtypes as PyTorch does, broadcasts, and calls
// the backend.
func binary(op BinaryOp, x, y *Tensor) *Tensor {
	name := op.String()
	sameDevice(name, x, y)
	dt := PromoteTypes(x.DType(), y.DType())
	if op == OpDiv && !dt.IsFloat() {
		dt = Float32 // true division, as torch.div
	}
	shape := broadcastShapes(name, x.layout.Shape, y.layout.Shape)
	if dt == Bool {
		switch op {
		case OpSub:
			panic(dtypeErr(name, "use x.Ne(y) for exclusive or, or convert with AsType(tensor.Int64)", []DType{Bool, Bool},
				"subtraction of two Bool tensors is not supported"))
		case OpPow:
			panic(dtypeErr(name, "convert first with AsType(tensor.Int64) or AsType(tensor.Float32)", []DType{Bool, Bool},
				"Pow of two Bool tensors is not supported"))
		}
		// Add is logical or, Mul logical and, as in PyTorch.
		return binary(op, x.AsType(Int64), y.AsType(Int64)).AsType(Bool)
	}
	xs, ys := x.AsType(dt), y.AsType(dt)
	s := x.backend.Binary(op, xs.storage, xs.layout.broadcastTo(shape), ys.storage, ys.layout.broadcastTo(shape))
	return record(newTensor(x.backend, s, shape), name, x, y)
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
func (x *Tensor) Add(y *Tensor) *Tensor { return binary(OpAdd, x, y) }

// Sub returns x - y elementwise with broadcasting, as Add.
func (x *Tensor) Sub(y *Tensor) *Tensor { return binary(OpSub, x, y) }

// Mul returns x * y elementwise with broadcasting, as Add.
func (x *Tensor) Mul(y *Tensor) *Tensor { return binary(OpMul, x, y) }

// Div returns x / y elementwise with broadcasting, as Add. Division is true
// division: Int64 operands give Float32, as torch.div.
func (x *Tensor) Div(y *Tensor) *Tensor { return binary(OpDiv, x, y) }

// Pow returns x ** y elementwise with broadcasting, as Add. Int64 ** Int64
// stays Int64.
func (x *Tensor) Pow(y *Tensor) *Tensor { return binary(OpPow, x, y) }

// Maximum returns the elementwise maximum of x and y with broadcasting, as
// Add. NaN wins, as in torch.maximum.
func (x *Tensor) Maximum(y *Tensor) *Tensor { return binary(OpMaximum, x, y) }

// Minimum returns the elementwise minimum of x and y with broadcasting, as
// Add. NaN wins, as in torch.minimum.
func (x *Tensor) Minimum(y *Tensor) *Tensor { return binary(OpMinimum, x, y) }

// binaryScalar is the primitive behind the scalar forms. A float tensor
// keeps its dtype; an Int64 or Bool tensor becomes Int64 with a whole
// number and Float32 with a fractional one (PyTorch's rule for Python int
// and float scalars).
func binaryScalar(op BinaryOp, x *Tensor, s float64, reversed bool) *Tensor {
	name := op.String() + "Scalar"
	dt := scalarResultType(x.DType(), s)
	if op == OpDiv && !dt.IsFloat() {
		dt = Float32
	}
	if op == OpPow && dt == Int64 && s < 0 && !reversed {
		panic(dtypeErr(name, "convert first with x.AsType(tensor.Float32)", []DType{x.DType()},
			"integers to negative integer powers are not allowed (%v ** %v)", x.DType(), s))
	}
	xs := x.AsType(dt)
	out := newTensor(x.backend, x.backend.BinaryScalar(op, xs.storage, xs.layout, s, reversed), x.Shape())
	return record(out, name, x)
}

// AddScalar returns x + s elementwise. A float tensor keeps its dtype; an
// Int64 tensor stays Int64 when s is a whole number and becomes Float32
// otherwise.
//
//	tensor.Ones(2).AddScalar(1) // tensor([2., 2.])
func (x *Tensor) AddScalar(s float64) *Tensor { return binaryScalar(OpAdd, x, s, false) }

// SubScalar returns x - s elementwise; dtypes as AddScalar.
func (x *Tensor) SubScalar(s float64) *Tensor { return binaryScalar(OpSub, x, s, false) }

// MulScalar returns x * s elementwise; dtypes as AddScalar.
func (x *Tensor) MulScalar(s float64) *Tensor { return binaryScalar(OpMul, x, s, false) }

// DivScalar returns x / s elementwise; Int64 tensors give Float32 (true
// division).
func (x *Tensor) DivScalar(s float64) *Tensor { return binaryScalar(OpDiv, x, s, false) }

// PowScalar returns x ** s elementwise; dtypes as AddScalar. It panics
// with a *DTypeError for an Int64 tensor and a negative whole s.
//
//	tensor.Arange(1, 4, 1).PowScalar(2) // tensor([1., 4., 9.])
func (x *Tensor) PowScalar(s float64) *Tensor { return binaryScalar(OpPow, x, s, false) }

// RSubScalar returns s - x elementwise; dtypes as AddScalar.
func (x *Tensor) RSubScalar(s float64) *Tensor { return binaryScalar(OpSub, x, s, true) }

// RDivScalar returns s / x elementwise; dtypes as DivScalar.
func (x *Tensor) RDivScalar(s float64) *Tensor { return binaryScalar(OpDiv, x, s, true) }

// unary is the primitive behind the elementwise functions. Float-only ops
// turn Int64 and Bool inputs into Float32 first, as PyTorch does.
func unary(op UnaryOp, x *Tensor) *Tensor {
	dt := x.DType()
	switch {
	case dt == Bool && op <= OpReLU:
		panic(dtypeErr(op.String(), "convert first with x.AsType(tensor.Int64) or x.AsType(tensor.Float32)", []DType{Bool},
			"%s is not supported on Bool tensors", op))
	case op >= OpSqrt && !dt.IsFloat():
		x = x.AsType(Float32)
	}
	out := newTensor(x.backend, x.backend.Unary(op, x.storage, x.layout), x.Shape())
	return record(out, op.String(), x)
}

// Neg returns -x elementwise. It panics with a *DTypeError on Bool.
func (x *Tensor) Neg() *Tensor { return unary(OpNeg, x) }

// Abs returns |x| elementwise. It panics with a *DTypeError on Bool.
func (x *Tensor) Abs() *Tensor { return unary(OpAbs, x) }

// Sqrt returns the square root of x elementwise (NaN for negative values).
// Int64 and Bool inputs give Float32.
func (x *Tensor) Sqrt() *Tensor { return unary(OpSqrt, x) }

// Exp returns e**x elementwise. Int64 and Bool inputs give Float32.
func (x *Tensor) Exp() *Tensor { return unary(OpExp, x) }

// Log returns the natural logarithm of x elementwise (-Inf at 0, NaN below).
// Int64 and Bool inputs give Float32.
func (x *Tensor) Log() *Tensor { return unary(OpLog, x) }

// Sin returns sin(x) elementwise. Int64 and Bool inputs give Float32.
func (x *Tensor) Sin() *Tensor { return unary(OpSin, x) }

// Cos returns cos(x) elementwise. Int64 and Bool inputs give Float32.
func (x *Tensor) Cos() *Tensor { return unary(OpCos, x) }

// Tanh returns tanh(x) elementwise. Int64 and Bool inputs give Float32.
func (x *Tensor) Tanh() *Tensor { return unary(OpTanh, x) }

// Sigmoid returns 1 / (1 + e**-x) elementwise. Int64 and Bool inputs give
// Float32.
func (x *Tensor) Sigmoid() *Tensor { return unary(OpSigmoid, x) }

// ReLU returns max(x, 0) elementwise. It panics with a *DTypeError on Bool.
func (x *Tensor) ReLU() *Tensor { return unary(OpReLU, x) }

// GELU returns x * Φ(x) elementwise, where Φ is the standard normal CDF
// (the exact form, PyTorch's default). Int64 and Bool inputs give Float32.
func (x *Tensor) GELU() *Tensor { return unary(OpGELU, x) }

// Square returns x * x elementwise.
func (x *Tensor) Square() *Tensor { return x.Mul(x) }

// Clamp returns x limited to [lo, hi] elementwise. An infinite bound (or
// NaN) is no bound: Clamp(0, math.Inf(1)) only raises negatives to 0. It
// panics with a *ShapeError when lo > hi.
func (x *Tensor) Clamp(lo, hi float64) *Tensor {
	if lo > hi {
		panic(shapeErr("Clamp", "pass lo <= hi", [][]int{x.Shape()}, "empty range [%v, %v]", lo, hi))
	}
	y := x
	if !math.IsInf(lo, 0) && !math.IsNaN(lo) {
		y = binaryScalar(OpMaximum, y, lo, false)
	}
	if !math.IsInf(hi, 0) && !math.IsNaN(hi) {
		y = binaryScalar(OpMinimum, y, hi, false)
	}
	if y == x {
		return x.Clone()
	}
	return y
}
