package cuda

import (
	"github.com/gotensor/gotensor/kernels"
	"github.com/gotensor/gotensor/tensorlib/backend"
)

// Im2Col returns the sliding windows of s [N, C, H, W] as columns
// [N, C*KH*KW, OH*OW].
func (b *deviceBackend) Im2Col(s backend.Storage, l backend.Layout, kernel, stride, padding, dilation [2]int) backend.Storage {
	src := b.store(s)
	g := backend.NewWindow(l.Shape, kernel, stride, padding, dilation)
	total := g.N * g.C * g.KH * g.KW * g.OH * g.OW
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(src.dt, total)
		a := d.newArgs()
		a.I64(int64(total)).Ptr(out.ptr).Ptr(src.ptr)
		packRaw(a, l)
		packConv(a, g)
		d.elementwise(kernelFor(kernels.Im2col, src.dt), int64(total), a)
	})
	return out
}

// Col2Im sums the columns c [N, C*KH*KW, OH*OW] back into [N, C, H, W].
func (b *deviceBackend) Col2Im(c backend.Storage, cl backend.Layout, shape []int, kernel, stride, padding, dilation [2]int) backend.Storage {
	src := b.store(c)
	g := backend.NewWindow(shape, kernel, stride, padding, dilation)
	total := backend.Numel(shape)
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(src.dt, total)
		a := d.newArgs()
		a.I64(int64(total)).Ptr(out.ptr).Ptr(src.ptr)
		packRaw(a, cl)
		packConv(a, g)
		d.elementwise(kernelFor(kernels.Col2im, src.dt), int64(total), a)
	})
	return out
}
