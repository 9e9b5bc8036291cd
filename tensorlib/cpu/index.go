package cpu

import (
	"github.com/gotensor/gotensor/tensorlib/backend"
)

func (b Backend) Gather(s backend.Storage, l backend.Layout, dim int, idx backend.Storage, il backend.Layout) backend.Storage {
	src, ix := store(s), store(idx)
	n := il.Numel()
	out := newStorage(src.dtype, n)
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

func copyElem(dst *Storage, i int, src *Storage, j int) {
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

func (b Backend) IndexSelect(s backend.Storage, l backend.Layout, dim int, idx backend.Storage, il backend.Layout) backend.Storage {
	ix := b.ToHost(idx, il).([]int64)
	shape := cloneInts(l.Shape)
	shape[dim] = len(ix)
	out := newStorage(s.DType(), backend.Numel(shape))
	ol := backend.Contiguous(shape)
	size := l.Shape[dim]
	if l.IsContiguous() {
		indexSelectContig(store(out), store(s), l, dim, ix)
		return out
	}
	for j, v := range ix {
		if v < 0 || v >= int64(size) {
			panic(indexErr("IndexSelect", int(v), size, dim))
		}
		b.Copy(s, l.Select(dim, int(v)), out, ol.Select(dim, j))
	}
	return out
}

// indexSelectContig is IndexSelect of a contiguous source: out is
// [outer, len(ix), inner] and each selected slice a block of inner
// elements copied whole, as a data loader gathers a shuffled batch of
// images.
func indexSelectContig(out, src *Storage, l backend.Layout, dim int, ix []int64) {
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
