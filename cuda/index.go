package cuda

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/gotensor/gotensor/kernels"
	"github.com/gotensor/gotensor/tensorlib/tensor"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// errWords is the size of the index-error record of report_index
// (kernels/common.cuh): flag, index, size.
const errWords = 3

// errorRecord returns the device's zeroed index-error record. Device
// goroutine only.
func (d *device) errorRecord() *storage {
	if d.errRec == nil {
		d.errRec = d.newStorage(tensor.Int64, errWords)
	}
	if err := d.drv.Memset(d.errRec.ptr, 0, errWords*8); err != nil {
		d.fail(err, "clearing the index-check record")
	}
	return d.errRec
}

// checkIndex reads the error record after a kernel and panics with an
// *IndexError like the CPU backend's when an index was out of range.
func (d *device) checkIndex(op string, dim int) {
	var rec [errWords * 8]byte
	d.sync()
	if err := d.drv.MemcpyDtoH(unsafe.Pointer(&rec[0]), d.errRec.ptr, len(rec)); err != nil {
		d.fail(err, "reading the index-check record")
	}
	if binary.LittleEndian.Uint64(rec[0:]) == 0 {
		return
	}
	i := int(int64(binary.LittleEndian.Uint64(rec[8:])))
	size := int(int64(binary.LittleEndian.Uint64(rec[16:])))
	panic(&tensor.IndexError{Op: op, Index: i, Size: size,
		Msg: fmt.Sprintf("index %d is out of bounds for dim %d with size %d", i, dim, size),
		Fix: fmt.Sprintf("indices must be in [0, %d)", size)})
}

// gather runs gather_<dt>: out (shaped as il) = src[... idx ...] along dim,
// where sl is src's layout in il's shape with stride 0 along dim.
func (d *device) gather(op string, src *storage, sl backend.Layout, dim, size, stride int, idx *storage, il backend.Layout) *storage {
	n := il.Numel()
	out := d.newStorage(src.dt, n)
	if n == 0 {
		return out
	}
	rec := d.errorRecord()
	shape, st := backend.Coalesce(il.Shape, sl, il)
	a := d.newArgs()
	a.I64(int64(n)).Ptr(out.ptr).Ptr(src.ptr)
	packLayout(a, shape, st[0], sl.Offset)
	a.Ptr(idx.ptr)
	packLayout(a, shape, st[1], il.Offset)
	a.I64(int64(size)).I64(int64(stride)).Ptr(rec.ptr)
	d.elementwise(kernelFor(kernels.Gather, src.dt), int64(n), a)
	d.checkIndex(op, dim)
	return out
}

// Gather returns out[..., i, ...] = s[..., idx[..., i, ...], ...] along dim.
func (b *deviceBackend) Gather(s backend.Storage, l backend.Layout, dim int, idx backend.Storage, il backend.Layout) backend.Storage {
	src, ix := b.store(s), b.store(idx)
	sl := backend.Layout{Shape: il.Shape, Strides: append([]int(nil), l.Strides...), Offset: l.Offset}
	sl.Strides[dim] = 0
	var out *storage
	b.dev.do(func() { out = b.dev.gather("Gather", src, sl, dim, l.Shape[dim], l.Strides[dim], ix, il) })
	return out
}

// IndexSelect returns the slices of s along dim listed in the 1-D idx: a
// gather whose index is broadcast across the other dims.
func (b *deviceBackend) IndexSelect(s backend.Storage, l backend.Layout, dim int, idx backend.Storage, il backend.Layout) backend.Storage {
	src, ix := b.store(s), b.store(idx)
	shape := append([]int(nil), l.Shape...)
	shape[dim] = il.Shape[0]
	sl := backend.Layout{Shape: shape, Strides: append([]int(nil), l.Strides...), Offset: l.Offset}
	sl.Strides[dim] = 0
	bl := backend.Layout{Shape: shape, Strides: make([]int, len(shape)), Offset: il.Offset}
	bl.Strides[dim] = il.Strides[0]
	var out *storage
	b.dev.do(func() { out = b.dev.gather("IndexSelect", src, sl, dim, l.Shape[dim], l.Strides[dim], ix, bl) })
	return out
}

// scatterAdd runs scatter_add_<dt>: dst[dl + idx*stride] += src over sl's
// shape, where dl is dst's layout in that shape with stride 0 along dim.
func (d *device) scatterAdd(op string, dst *storage, dl backend.Layout, dim, size, stride int, idx *storage, il backend.Layout, src *storage, sl backend.Layout) {
	n := sl.Numel()
	if n == 0 {
		return
	}
	rec := d.errorRecord()
	shape, st := backend.Coalesce(sl.Shape, dl, il, sl)
	a := d.newArgs()
	a.I64(int64(n)).Ptr(dst.ptr)
	packLayout(a, shape, st[0], dl.Offset)
	a.I64(int64(stride)).Ptr(idx.ptr)
	packLayout(a, shape, st[1], il.Offset)
	a.Ptr(src.ptr)
	packLayout(a, shape, st[2], sl.Offset)
	a.I64(int64(size)).Ptr(rec.ptr)
	d.elementwise(kernelFor(kernels.ScatterAdd, src.dt), int64(n), a)
	d.checkIndex(op, dim)
}

// ScatterAdd adds src into dst along dim at the positions idx holds.
func (b *deviceBackend) ScatterAdd(dst backend.Storage, dl backend.Layout, dim int, idx backend.Storage, il backend.Layout, src backend.Storage, sl backend.Layout) {
	ds, ix, ss := b.store(dst), b.store(idx), b.store(src)
	tl := backend.Layout{Shape: sl.Shape, Strides: append([]int(nil), dl.Strides...), Offset: dl.Offset}
	tl.Strides[dim] = 0
	b.dev.do(func() { b.dev.scatterAdd("ScatterAdd", ds, tl, dim, dl.Shape[dim], dl.Strides[dim], ix, il, ss, sl) })
}

// IndexAdd adds slice j of src into slice idx[j] of dst along dim.
func (b *deviceBackend) IndexAdd(dst backend.Storage, dl backend.Layout, dim int, idx backend.Storage, il backend.Layout, src backend.Storage, sl backend.Layout) {
	ds, ix, ss := b.store(dst), b.store(idx), b.store(src)
	tl := backend.Layout{Shape: sl.Shape, Strides: append([]int(nil), dl.Strides...), Offset: dl.Offset}
	tl.Strides[dim] = 0
	bl := backend.Layout{Shape: sl.Shape, Strides: make([]int, len(sl.Shape)), Offset: il.Offset}
	bl.Strides[dim] = il.Strides[0]
	b.dev.do(func() { b.dev.scatterAdd("IndexAdd", ds, tl, dim, dl.Shape[dim], dl.Strides[dim], ix, bl, ss, sl) })
}
