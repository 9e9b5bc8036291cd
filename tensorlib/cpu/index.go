package tensor

import (
	"fmt"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

func (b cpuBackend) Gather(s backend.Storage, l backend.Layout, dim int, idx backend.Storage, il backend.Layout) backend.Storage {
	src, ix := cpuStore(s), cpuStore(idx)
	n := il.Numel()
	out := newCPUStorage(src.dtype, n)
	if n == 0 {
		return out
	}
	// Walk idx and src together; src's stride along dim is replaced by the
	// index values.
	sl := backend.Layout{Shape: il.Shape, Strides: cloneInts(l.Strides), Offset: l.Offset}
	sl.Strides[dim] = 0
	size, st := l.Shape[dim], l.Strides[dim]
	it := newIterRuns(il.Shape, il, sl)
	is, ss := it.istr[0], it.istr[1]
	parallelFor(n, grainElems, func(lo, hi int) {
		it.each(lo, hi, func(pos int, offs []int, k int) {
			io, so := offs[0], offs[1]
			for j := 0; j < k; j++ {
				v := ix.i64[io]
				if v < 0 || v >= int64(size) {
					panic(indexErr("Gather", int(v), size, dim))
				}
				copyElem(out, pos+j, src, so+int(v)*st)
				io += is
				so += ss
			}
		})
	})
	return out
}

func indexErr(op string, i, size, dim int) *IndexError {
	return &IndexError{Op: op, Index: i, Size: size,
		Msg: fmt.Sprintf("index %d is out of bounds for dim %d with size %d", i, dim, size),
		Fix: fmt.Sprintf("indices must be in [0, %d)", size)}
}

func copyElem(dst *cpuStorage, i int, src *cpuStorage, j int) {
	switch src.dtype {
	case Float32:
		dst.f32[i] = src.f32[j]
	case Float64:
		dst.f64[i] = src.f64[j]
	case Int64:
		dst.i64[i] = src.i64[j]
	case Bool:
		dst.b[i] = src.b[j]
	}
}

func (b cpuBackend) IndexSelect(s backend.Storage, l backend.Layout, dim int, idx backend.Storage, il backend.Layout) backend.Storage {
	ix := b.ToHost(idx, il).([]int64)
	shape := cloneInts(l.Shape)
	shape[dim] = len(ix)
	out := newCPUStorage(s.DType(), backend.Numel(shape))
	ol := backend.Contiguous(shape)
	size := l.Shape[dim]
	if l.IsContiguous() {
		indexSelectContig(cpuStore(out), cpuStore(s), l, dim, ix)
		return out
	}
	for j, v := range ix {
		if v < 0 || v >= int64(size) {
			panic(indexErr("IndexSelect", int(v), size, dim))
		}
		b.Copy(s, selectLayout(l, dim, int(v)), out, selectLayout(ol, dim, j))
	}
	return out
}

// selectLayout returns l with dimension dim removed at index i.
func selectLayout(l backend.Layout, dim, i int) backend.Layout {
	shape := append(cloneInts(l.Shape[:dim]), l.Shape[dim+1:]...)
	strides := append(cloneInts(l.Strides[:dim]), l.Strides[dim+1:]...)
	return backend.Layout{Shape: shape, Strides: strides, Offset: l.Offset + i*l.Strides[dim]}
}

// indexSelectContig is IndexSelect of a contiguous source: out is
// [outer, len(ix), inner] and each selected slice a block of inner
// elements copied whole, as a data loader gathers a shuffled batch of
// images.
func indexSelectContig(out, src *cpuStorage, l backend.Layout, dim int, ix []int64) {
	size := l.Shape[dim]
	for _, v := range ix {
		if v < 0 || v >= int64(size) {
			panic(indexErr("IndexSelect", int(v), size, dim))
		}
	}
	outer, inner := backend.Numel(l.Shape[:dim]), backend.Numel(l.Shape[dim+1:])
	n := outer * len(ix)
	if n == 0 || inner == 0 {
		return
	}
	off := l.Offset
	parallelFor(n, max(1, grainElems/inner), func(lo, hi int) {
		for r := lo; r < hi; r++ {
			o, j := r/len(ix), r%len(ix)
			so := off + (o*size+int(ix[j]))*inner
			do := r * inner
			switch src.dtype {
			case Float32:
				copy(out.f32[do:do+inner], src.f32[so:so+inner])
			case Float64:
				copy(out.f64[do:do+inner], src.f64[so:so+inner])
			case Int64:
				copy(out.i64[do:do+inner], src.i64[so:so+inner])
			case Bool:
				copy(out.b[do:do+inner], src.b[so:so+inner])
			}
		}
	})
}
