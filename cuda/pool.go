package cuda

import (
	"github.com/gotensor/gotensor/kernels"
	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// MaxPool2dBackward returns the gradient of MaxPool2d's input of shape
// [N, C, H, W].
func (b *deviceBackend) MaxPool2dBackward(g backend.Storage, gl backend.Layout, idx backend.Storage, shape []int, kernel, stride, padding [2]int) backend.Storage {
	gs, ix := b.store(g), b.store(idx)
	win := backend.NewWindow(shape, kernel, stride, padding, [2]int{1, 1})
	total := backend.Numel(shape)
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(gs.dt, total)
		a := d.newArgs()
		a.I64(int64(total)).Ptr(out.ptr).Ptr(gs.ptr)
		packRaw(a, gl)
		a.Ptr(ix.ptr)
		packConv(a, win)
		d.elementwise(kernelFor(kernels.Maxpool2dBackward, gs.dt), int64(total), a)
	})
	return out
}

// MaxPool2d returns the window maxima of s [N, C, H, W] and their
// positions.
func (b *deviceBackend) MaxPool2d(s backend.Storage, l backend.Layout, kernel, stride, padding [2]int) (out, idx backend.Storage) {
	src := b.store(s)
	g := backend.NewWindow(l.Shape, kernel, stride, padding, [2]int{1, 1})
	total := g.N * g.C * g.OH * g.OW
	var o, ix *storage
	d := b.dev
	d.do(func() {
		o = d.newStorage(src.dt, total)
		ix = d.newStorage(tensor.Int64, total)
		a := d.newArgs()
		a.I64(int64(total)).Ptr(o.ptr).Ptr(ix.ptr).Ptr(src.ptr)
		packRaw(a, l)
		packConv(a, g)
		d.elementwise(kernelFor(kernels.Maxpool2d, src.dt), int64(total), a)
	})
	return o, ix
}
