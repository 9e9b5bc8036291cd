package cuda

import (
	"strings"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// Unary applies op to each element.
func (b *backend) Unary(op tensor.UnaryOp, s tensor.Storage, l tensor.Layout) tensor.Storage {
	src := b.store(s)
	n := l.Numel()
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(src.dt, n)
		shape, st := coalesce(l.Shape, l)
		a := d.newArgs()
		a.I64(int64(n)).Ptr(out.ptr).Ptr(src.ptr)
		packLayout(a, shape, st[0], l.Offset)
		d.elementwise(strings.ToLower(op.String())+"_"+suffix(src.dt), int64(n), a)
	})
	return out
}

// Binary returns op(a, b) elementwise over la's (broadcast) shape.
func (b *backend) Binary(op tensor.BinaryOp, x tensor.Storage, la tensor.Layout, y tensor.Storage, lb tensor.Layout) tensor.Storage {
	return b.binary(b.store(x).dt, op.String(), x, la, y, lb)
}

// binary launches the kernel "<name>_<dtype of x>" on x and y with la's
// (broadcast) shape and returns its output, of dtype out.
func (b *backend) binary(out tensor.DType, name string, x tensor.Storage, la tensor.Layout, y tensor.Storage, lb tensor.Layout) tensor.Storage {
	xs, ys := b.store(x), b.store(y)
	n := la.Numel()
	var res *storage
	d := b.dev
	d.do(func() {
		res = d.newStorage(out, n)
		shape, st := coalesce(la.Shape, la, lb)
		a := d.newArgs()
		a.I64(int64(n)).Ptr(res.ptr).Ptr(xs.ptr)
		packLayout(a, shape, st[0], la.Offset)
		a.Ptr(ys.ptr)
		packLayout(a, shape, st[1], lb.Offset)
		d.elementwise(strings.ToLower(name)+"_"+suffix(xs.dt), int64(n), a)
	})
	return res
}

// BinaryScalar returns op(a, s), or op(s, a) when reversed.
func (b *backend) BinaryScalar(op tensor.BinaryOp, x tensor.Storage, la tensor.Layout, s float64, reversed bool) tensor.Storage {
	xs := b.store(x)
	n := la.Numel()
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(xs.dt, n)
		shape, st := coalesce(la.Shape, la)
		a := d.newArgs()
		a.I64(int64(n)).Ptr(out.ptr).Ptr(xs.ptr)
		packLayout(a, shape, st[0], la.Offset)
		switch xs.dt {
		case tensor.Float32:
			a.F32(float32(s))
		case tensor.Float64:
			a.F64(s)
		default:
			a.I64(int64(s))
		}
		a.I32(b2i(reversed))
		d.elementwise(strings.ToLower(op.String())+"_scalar_"+suffix(xs.dt), int64(n), a)
	})
	return out
}

// Compare returns op(a, b) elementwise as Bool.
func (b *backend) Compare(op tensor.CompareOp, x tensor.Storage, la tensor.Layout, y tensor.Storage, lb tensor.Layout) tensor.Storage {
	return b.binary(tensor.Bool, op.String(), x, la, y, lb)
}

// Where returns a where cond is true and b elsewhere.
func (b *backend) Where(cond tensor.Storage, lc tensor.Layout, x tensor.Storage, la tensor.Layout, y tensor.Storage, lb tensor.Layout) tensor.Storage {
	cs, xs, ys := b.store(cond), b.store(x), b.store(y)
	n := la.Numel()
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(xs.dt, n)
		shape, st := coalesce(la.Shape, lc, la, lb)
		a := d.newArgs()
		a.I64(int64(n)).Ptr(out.ptr).Ptr(cs.ptr)
		packLayout(a, shape, st[0], lc.Offset)
		a.Ptr(xs.ptr)
		packLayout(a, shape, st[1], la.Offset)
		a.Ptr(ys.ptr)
		packLayout(a, shape, st[2], lb.Offset)
		d.elementwise("where_"+suffix(xs.dt), int64(n), a)
	})
	return out
}
