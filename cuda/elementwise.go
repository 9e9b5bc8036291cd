package cuda

import (
	"github.com/gotensor/gotensor/kernels"
	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// The kernels of each op (kernels/*.cu's "<op>_<dtype>"); an op missing
// here has no kernel.
var (
	unaryKernels = [...]kernels.Op{backend.OpNeg: kernels.Neg, backend.OpAbs: kernels.Abs, backend.OpReLU: kernels.Relu,
		backend.OpSqrt: kernels.Sqrt, backend.OpExp: kernels.Exp, backend.OpLog: kernels.Log, backend.OpSin: kernels.Sin,
		backend.OpCos: kernels.Cos, backend.OpTanh: kernels.Tanh, backend.OpSigmoid: kernels.Sigmoid,
		backend.OpGELU: kernels.Gelu, backend.OpErf: kernels.Erf}
	binaryKernels = [...]kernels.Op{backend.OpAdd: kernels.Add, backend.OpSub: kernels.Sub, backend.OpMul: kernels.Mul,
		backend.OpDiv: kernels.Div, backend.OpPow: kernels.Pow, backend.OpMaximum: kernels.Maximum, backend.OpMinimum: kernels.Minimum}
	binaryScalarKernels = [...]kernels.Op{backend.OpAdd: kernels.AddScalar, backend.OpSub: kernels.SubScalar, backend.OpMul: kernels.MulScalar,
		backend.OpDiv: kernels.DivScalar, backend.OpPow: kernels.PowScalar, backend.OpMaximum: kernels.MaximumScalar, backend.OpMinimum: kernels.MinimumScalar}
	compareKernels = [...]kernels.Op{backend.OpEq: kernels.Eq, backend.OpNe: kernels.Ne, backend.OpLt: kernels.Lt,
		backend.OpLe: kernels.Le, backend.OpGt: kernels.Gt, backend.OpGe: kernels.Ge}
)

// Unary applies op to each element.
func (b *deviceBackend) Unary(op backend.UnaryOp, s backend.Storage, l backend.Layout) backend.Storage {
	src := b.store(s)
	n := l.Numel()
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(src.dt, n)
		shape, st := backend.Coalesce(l.Shape, l)
		a := d.newArgs()
		a.I64(int64(n)).Ptr(out.ptr).Ptr(src.ptr)
		packLayout(a, shape, st[0], l.Offset)
		d.elementwiseVec(kernelFor(unaryKernels[op], src.dt), int64(n), a)
	})
	return out
}

// Binary returns op(a, b) elementwise over la's (broadcast) shape.
func (b *deviceBackend) Binary(op backend.BinaryOp, x backend.Storage, la backend.Layout, y backend.Storage, lb backend.Layout) backend.Storage {
	return b.binary(b.store(x).dt, binaryKernels[op], x, la, y, lb)
}

// binary launches op's kernel for x's dtype on x and y with la's
// (broadcast) shape and returns its output, of dtype out.
func (b *deviceBackend) binary(out tensor.DType, op kernels.Op, x backend.Storage, la backend.Layout, y backend.Storage, lb backend.Layout) backend.Storage {
	xs, ys := b.store(x), b.store(y)
	n := la.Numel()
	var res *storage
	d := b.dev
	d.do(func() {
		res = d.newStorage(out, n)
		shape, st := backend.Coalesce(la.Shape, la, lb)
		a := d.newArgs()
		a.I64(int64(n)).Ptr(res.ptr).Ptr(xs.ptr)
		packLayout(a, shape, st[0], la.Offset)
		a.Ptr(ys.ptr)
		packLayout(a, shape, st[1], lb.Offset)
		d.elementwiseVec(kernelFor(op, xs.dt), int64(n), a)
	})
	return res
}

// BinaryScalar returns op(a, s), or op(s, a) when reversed.
func (b *deviceBackend) BinaryScalar(op backend.BinaryOp, x backend.Storage, la backend.Layout, s float64, reversed bool) backend.Storage {
	xs := b.store(x)
	n := la.Numel()
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(xs.dt, n)
		shape, st := backend.Coalesce(la.Shape, la)
		a := d.newArgs()
		a.I64(int64(n)).Ptr(out.ptr).Ptr(xs.ptr)
		packLayout(a, shape, st[0], la.Offset)
		switch xs.dt {
		case tensor.Float32, tensor.BFloat16, tensor.Float16: // the 16-bit kernels take a float
			a.F32(float32(s))
		case tensor.Float64:
			a.F64(s)
		default:
			a.I64(int64(s))
		}
		a.I32(b2i(reversed))
		d.elementwiseVec(kernelFor(binaryScalarKernels[op], xs.dt), int64(n), a)
	})
	return out
}

// Compare returns op(a, b) elementwise as Bool.
func (b *deviceBackend) Compare(op backend.CompareOp, x backend.Storage, la backend.Layout, y backend.Storage, lb backend.Layout) backend.Storage {
	return b.binary(tensor.Bool, compareKernels[op], x, la, y, lb)
}

// Where returns a where cond is true and b elsewhere.
func (b *deviceBackend) Where(cond backend.Storage, lc backend.Layout, x backend.Storage, la backend.Layout, y backend.Storage, lb backend.Layout) backend.Storage {
	cs, xs, ys := b.store(cond), b.store(x), b.store(y)
	n := la.Numel()
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(xs.dt, n)
		shape, st := backend.Coalesce(la.Shape, lc, la, lb)
		a := d.newArgs()
		a.I64(int64(n)).Ptr(out.ptr).Ptr(cs.ptr)
		packLayout(a, shape, st[0], lc.Offset)
		a.Ptr(xs.ptr)
		packLayout(a, shape, st[1], la.Offset)
		a.Ptr(ys.ptr)
		packLayout(a, shape, st[2], lb.Offset)
		d.elementwiseVec(kernelFor(kernels.Where, xs.dt), int64(n), a)
	})
	return out
}
