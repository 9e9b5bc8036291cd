package cuda

import (
	"github.com/gotensor/gotensor/kernels"
	"github.com/gotensor/gotensor/tensorlib/backend"
)

// Softmax returns the softmax (log-softmax with log set) of x along dim.
func (b *deviceBackend) Softmax(x backend.Storage, xl backend.Layout, dim int, log bool) backend.Storage {
	return b.softmaxRows(softmaxKernels, dim, log, operand{b.store(x), xl})
}

// SoftmaxBackward returns the gradient of Softmax's input.
func (b *deviceBackend) SoftmaxBackward(g backend.Storage, gl backend.Layout, y backend.Storage, yl backend.Layout, dim int, log bool) backend.Storage {
	return b.softmaxRows(softmaxBackwardKernels, dim, log, operand{b.store(g), gl}, operand{b.store(y), yl})
}

// softmaxRows launches kernel (softmax_ or softmax_backward_) over the rows
// along dim of its operands (x; or g and y) into a new contiguous storage
// of the first operand's shape and dtype.
func (b *deviceBackend) softmaxRows(ks rowKernels, dim int, log bool, ops ...operand) backend.Storage {
	dt, shape := ops[0].s.dt, ops[0].l.Shape
	ls := []backend.Layout{backend.Contiguous(shape)}
	for _, o := range ops {
		ls = append(ls, o.l)
	}
	n := backend.Numel(shape)
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(dt, n)
		if n == 0 {
			return
		}
		v, _ := rowLayouts(shape, dim, dim+1, ls...)
		if per, ok := v.warpRows(); ok {
			a := d.newArgs()
			a.I64(int64(v.rows)).I32(int32(v.n))
			v.packWarp(a, 0, out)
			for j, o := range ops {
				v.packWarp(a, j+1, o.s)
			}
			a.I32(b2i(log))
			d.launchWarpRows(kernelFor(ks.warp[per], dt), v.rows, a)
			return
		}
		G := v.group(d, len(ops))
		a := d.newArgs()
		a.I64(int64(v.rows)).I64(int64(v.n)).Ptr(out.ptr)
		v.pack(a, 0)
		for j, o := range ops {
			a.Ptr(o.s.ptr)
			v.pack(a, j+1)
		}
		a.I32(int32(G)).I32(b2i(log))
		d.launchRows(kernelFor(ks.rows, dt), v.rows, G, a)
	})
	return out
}

// rowKernels are a row op's kernels: by groups of threads a row, and a
// warp a row by elements a lane (rowView.warpRows).
type rowKernels struct {
	rows kernels.Op
	warp map[int]kernels.Op
}

var (
	softmaxKernels = rowKernels{kernels.Softmax, map[int]kernels.Op{1: kernels.SoftmaxWarp1, 2: kernels.SoftmaxWarp2,
		4: kernels.SoftmaxWarp4, 8: kernels.SoftmaxWarp8, 16: kernels.SoftmaxWarp16, 32: kernels.SoftmaxWarp32}}
	softmaxBackwardKernels = rowKernels{kernels.SoftmaxBackward, map[int]kernels.Op{1: kernels.SoftmaxBackwardWarp1,
		2: kernels.SoftmaxBackwardWarp2, 4: kernels.SoftmaxBackwardWarp4, 8: kernels.SoftmaxBackwardWarp8,
		16: kernels.SoftmaxBackwardWarp16, 32: kernels.SoftmaxBackwardWarp32}}
)
