package cuda

import "github.com/gotensor/gotensor/tensorlib/tensor"

// Im2Col returns the sliding windows of s [N, C, H, W] as columns
// [N, C*KH*KW, OH*OW].
func (b *backend) Im2Col(s tensor.Storage, l tensor.Layout, kernel, stride, padding, dilation [2]int) tensor.Storage {
	src := b.store(s)
	g := newWindow(l.Shape, kernel, stride, padding, dilation)
	total := g.n * g.c * g.kh * g.kw * g.oh * g.ow
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(src.dt, total)
		a := d.newArgs()
		a.I64(int64(total)).Ptr(out.ptr).Ptr(src.ptr)
		packRaw(a, l)
		packConv(a, g)
		d.elementwise("im2col_"+suffix(src.dt), int64(total), a)
	})
	return out
}

// Col2Im sums the columns c [N, C*KH*KW, OH*OW] back into [N, C, H, W].
func (b *backend) Col2Im(c tensor.Storage, cl tensor.Layout, shape []int, kernel, stride, padding, dilation [2]int) tensor.Storage {
	src := b.store(c)
	g := newWindow(shape, kernel, stride, padding, dilation)
	total := numel(shape)
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(src.dt, total)
		a := d.newArgs()
		a.I64(int64(total)).Ptr(out.ptr).Ptr(src.ptr)
		packRaw(a, cl)
		packConv(a, g)
		d.elementwise("col2im_"+suffix(src.dt), int64(total), a)
	})
	return out
}

// MaxPool2d returns the window maxima of s [N, C, H, W] and their
// positions.
func (b *backend) MaxPool2d(s tensor.Storage, l tensor.Layout, kernel, stride, padding [2]int) (out, idx tensor.Storage) {
	src := b.store(s)
	g := newWindow(l.Shape, kernel, stride, padding, [2]int{1, 1})
	total := g.n * g.c * g.oh * g.ow
	var o, ix *storage
	d := b.dev
	d.do(func() {
		o = d.newStorage(src.dt, total)
		ix = d.newStorage(tensor.Int64, total)
		a := d.newArgs()
		a.I64(int64(total)).Ptr(o.ptr).Ptr(ix.ptr).Ptr(src.ptr)
		packRaw(a, l)
		packConv(a, g)
		d.elementwise("maxpool2d_"+suffix(src.dt), int64(total), a)
	})
	return o, ix
}
