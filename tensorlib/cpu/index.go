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

// The adjoints of Gather and IndexSelect, which only gradients need.

// ScatterAdd implements backend.Backend.
func (Backend) ScatterAdd(dst backend.Storage, dl backend.Layout, dim int, idx backend.Storage, il backend.Layout, src backend.Storage, sl backend.Layout) {
	d, ix, s := store(dst), store(idx), store(src)
	n := il.Numel()
	if n == 0 {
		return
	}
	// Walk idx, src and dst together, dst's stride along dim replaced by
	// the index values (as Gather does).
	if scatterRowsFast(d, dl, dim, ix, il, s, sl) {
		return
	}
	wl := backend.Layout{Shape: il.Shape, Strides: cloneInts(dl.Strides), Offset: dl.Offset}
	wl.Strides[dim] = 0
	size, st := dl.Shape[dim], dl.Strides[dim]
	it := newIterRuns(il.Shape, il, sl, wl)
	is, ss, ds := it.istr[0], it.istr[1], it.istr[2]
	add := func(do, so int) {
		switch d.dtype {
		case Float32:
			d.f32[do] += s.f32[so]
		case Float64:
			d.f64[do] += s.f64[so]
		case Int64:
			d.i64[do] += s.i64[so]
		default:
			panic("tensor: ScatterAdd on " + d.dtype.String())
		}
	}
	// Serial: two positions may hit one element.
	it.each(0, n, func(_ int, offs []int, k int) {
		io, so, do := offs[0], offs[1], offs[2]
		for j := 0; j < k; j++ {
			v := ix.i64[io]
			if v < 0 || v >= int64(size) {
				panic(indexErr("ScatterAdd", int(v), size, dim))
			}
			add(do+int(v)*st, so)
			io += is
			so += ss
			do += ds
		}
	})
}

func (b Backend) IndexAdd(dst backend.Storage, dl backend.Layout, dim int, idx backend.Storage, il backend.Layout, src backend.Storage, sl backend.Layout) {
	ix := b.ToHost(idx, il).([]int64)
	d, s := store(dst), store(src)
	size := dl.Shape[dim]
	for j, v := range ix {
		if v < 0 || v >= int64(size) {
			panic(indexErr("IndexAdd", int(v), size, dim))
		}
		tl, fl := dl.Select(dim, int(v)), sl.Select(dim, j)
		switch d.dtype {
		case Float32:
			addStrided(d.f32, tl, s.f32, fl)
		case Float64:
			addStrided(d.f64, tl, s.f64, fl)
		case Int64:
			addStrided(d.i64, tl, s.i64, fl)
		default:
			panic("tensor: IndexAdd on " + d.dtype.String())
		}
	}
}

// addStrided adds src under sl into dst under dl elementwise; dl does not
// overlap itself.
func addStrided[T number](dst []T, dl backend.Layout, src []T, sl backend.Layout) {
	n := dl.Numel()
	if n == 0 {
		return
	}
	it := newIterRuns(dl.Shape, dl, sl)
	ds, ss := it.istr[0], it.istr[1]
	parallelFor(n, grainElems, func(lo, hi int) {
		it.each(lo, hi, func(_ int, offs []int, k int) {
			do, so := offs[0], offs[1]
			for i := 0; i < k; i++ {
				dst[do] += src[so]
				do += ds
				so += ss
			}
		})
	})
}

// scatterRowsFast is ScatterAdd along the last dim when dst, idx and src
// are contiguous and dst differs from idx only in that dim (MaxPool2d's
// backward, CrossEntropy's): rows in parallel, each a plain loop. It
// reports whether it ran.
func scatterRowsFast(d *Storage, dl backend.Layout, dim int, ix *Storage, il backend.Layout, s *Storage, sl backend.Layout) bool {
	nd := len(il.Shape)
	if dim != nd-1 || !dl.IsContiguous() || !il.IsContiguous() || !sl.IsContiguous() {
		return false
	}
	for i := 0; i < nd-1; i++ {
		if dl.Shape[i] != il.Shape[i] {
			return false
		}
	}
	size, k := dl.Shape[dim], il.Shape[dim]
	idx := ix.i64[il.Offset:]
	switch d.dtype {
	case Float32:
		scatterRows(d.f32[dl.Offset:], dim, size, idx, s.f32[sl.Offset:], il.Numel()/k, k)
	case Float64:
		scatterRows(d.f64[dl.Offset:], dim, size, idx, s.f64[sl.Offset:], il.Numel()/k, k)
	case Int64:
		scatterRows(d.i64[dl.Offset:], dim, size, idx, s.i64[sl.Offset:], il.Numel()/k, k)
	default:
		return false
	}
	return true
}

// scatterRows adds src row r (k elements) into dst row r (size elements)
// at the columns idx row r names.
func scatterRows[T number](dst []T, dim, size int, idx []int64, src []T, rows, k int) {
	parallelFor(rows, max(1, grainElems/(k+1)), func(lo, hi int) {
		for r := lo; r < hi; r++ {
			d, ix, s := dst[r*size:(r+1)*size], idx[r*k:(r+1)*k], src[r*k:(r+1)*k]
			for j, v := range ix {
				if v < 0 || v >= int64(size) {
					panic(indexErr("ScatterAdd", int(v), size, dim))
				}
				d[v] += s[j]
			}
		}
	})
}
