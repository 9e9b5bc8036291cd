package cuda

import (
	"github.com/gotensor/gotensor/kernels"
	"github.com/gotensor/gotensor/tensorlib/backend"
)

// ReLUBackward returns g where y > 0 and 0 elsewhere, over g when
// overwrite allows it.
func (b *deviceBackend) ReLUBackward(g backend.Storage, gl backend.Layout, y backend.Storage, yl backend.Layout, overwrite bool) backend.Storage {
	return b.gradPass(kernels.ReluBackward, g, gl, y, yl, overwrite)
}

// ActivationBackward returns the gradient of GELU's, Tanh's or Sigmoid's
// input in one pass (kernels/activation.cu), over g when overwrite allows.
func (b *deviceBackend) ActivationBackward(op backend.UnaryOp, g backend.Storage, gl backend.Layout, v backend.Storage, vl backend.Layout, overwrite bool) backend.Storage {
	var kernel kernels.Op
	switch op {
	case backend.OpGELU:
		kernel = kernels.GeluBackward
	case backend.OpTanh:
		kernel = kernels.TanhBackward
	case backend.OpSigmoid:
		kernel = kernels.SigmoidBackward
	default:
		panic("cuda: ActivationBackward of " + op.String())
	}
	return b.gradPass(kernel, g, gl, v, vl, overwrite)
}

// gradPass runs an activation's backward kernel (kernel, for g's dtype)
// over g and the saved operand v, each read once, into a new contiguous
// storage or, when overwrite allows, over g's own.
func (b *deviceBackend) gradPass(kernel kernels.Op, g backend.Storage, gl backend.Layout, v backend.Storage, vl backend.Layout, overwrite bool) backend.Storage {
	gs, vs := b.store(g), b.store(v)
	n := gl.Numel()
	var out *storage
	d := b.dev
	d.do(func() {
		if overwrite && gl.IsContiguous() && gl.Offset == 0 && gs.n == n {
			out = gs
		} else {
			out = d.newStorage(gs.dt, n)
		}
		shape, st := backend.Coalesce(gl.Shape, gl, vl)
		a := d.newArgs()
		a.I64(int64(n)).Ptr(out.ptr).Ptr(gs.ptr)
		packLayout(a, shape, st[0], gl.Offset)
		a.Ptr(vs.ptr)
		packLayout(a, shape, st[1], vl.Offset)
		d.elementwise(kernelFor(kernel, gs.dt), int64(n), a)
	})
	return out
}
