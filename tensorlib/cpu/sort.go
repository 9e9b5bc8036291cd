package cpu

import (
	"math"
	"slices"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// lastDim returns l with dim moved to the end, and the permutation that
// moves it back.
func lastDim(l backend.Layout, dim int) (backend.Layout, []int) {
	n := len(l.Shape)
	perm := make([]int, 0, n)
	for i := 0; i < n; i++ {
		if i != dim {
			perm = append(perm, i)
		}
	}
	perm = append(perm, dim)
	p := backend.Layout{Shape: make([]int, n), Strides: make([]int, n), Offset: l.Offset}
	inv := make([]int, n)
	for i, d := range perm {
		p.Shape[i], p.Strides[i] = l.Shape[d], l.Strides[d]
		inv[d] = i
	}
	return p, inv
}

// byRows copies s under l into a contiguous buffer with dim last, calls fn
// for each row (of length l.Shape[dim]) with the buffer and an output
// storage of dtype dt laid out the same way, and returns the output with
// the rows moved back to dim.
func (b Backend) byRows(s backend.Storage, l backend.Layout, dim int, dt DType, fn func(in, out *Storage, lo, hi int)) backend.Storage {
	pl, inv := lastDim(l, dim)
	n := pl.Numel()
	in := newStorage(s.DType(), n)
	b.Copy(s, pl, in, backend.Contiguous(pl.Shape))
	tmp := newStorage(dt, n)
	size := l.Shape[dim]
	if n > 0 && size > 0 {
		rows := n / size
		parallelFor(rows, max(1, grainElems/size), func(lo, hi int) { fn(in, tmp, lo*size, hi*size) })
	}
	// tmp is contiguous in the permuted order; view it in the original one.
	tl := backend.Contiguous(pl.Shape)
	back := backend.Layout{Shape: cloneInts(l.Shape), Strides: make([]int, len(l.Shape))}
	for d := range l.Shape {
		back.Strides[d] = tl.Strides[inv[d]]
	}
	out := newStorage(dt, n)
	b.Copy(tmp, back, out, backend.Contiguous(l.Shape))
	return out
}

// Argsort implements backend.Sort.
func (b Backend) Argsort(s backend.Storage, l backend.Layout, dim int, descending bool) backend.Storage {
	size := l.Shape[dim]
	return b.byRows(s, l, dim, Int64, func(in, out *Storage, lo, hi int) {
		idx := make([]int, size)
		for r := lo; r < hi; r += size {
			for i := range idx {
				idx[i] = i
			}
			var cmp func(i, j int) int
			switch in.dtype {
			case Int64:
				v := in.i64[r : r+size]
				cmp = func(i, j int) int { return compareInt(v[i], v[j]) }
			case Float32:
				v := in.f32[r : r+size]
				cmp = func(i, j int) int { return compareNaNLast(float64(v[i]), float64(v[j])) }
			default:
				v := in.f64[r : r+size]
				cmp = func(i, j int) int { return compareNaNLast(v[i], v[j]) }
			}
			if descending {
				slices.SortStableFunc(idx, func(i, j int) int { return cmp(j, i) })
			} else {
				slices.SortStableFunc(idx, cmp)
			}
			for i, v := range idx {
				out.i64[r+i] = int64(v)
			}
		}
	})
}

func compareInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compareNaNLast orders floats with NaN above +Inf, as torch.sort does.
func compareNaNLast(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// CumSum implements backend.Sort.
func (b Backend) CumSum(s backend.Storage, l backend.Layout, dim int) backend.Storage {
	dt := s.DType()
	if dt == Bool {
		dt = Int64
	}
	size := l.Shape[dim]
	return b.byRows(s, l, dim, dt, func(in, out *Storage, lo, hi int) {
		for r := lo; r < hi; r += size {
			switch in.dtype {
			case Float32:
				acc := 0.0
				for i := r; i < r+size; i++ {
					acc += float64(in.f32[i])
					out.f32[i] = float32(acc)
				}
			case Float64:
				acc := 0.0
				for i := r; i < r+size; i++ {
					acc += in.f64[i]
					out.f64[i] = acc
				}
			case Int64:
				var acc int64
				for i := r; i < r+size; i++ {
					acc += in.i64[i]
					out.i64[i] = acc
				}
			case Bool:
				var acc int64
				for i := r; i < r+size; i++ {
					if in.b[i] {
						acc++
					}
					out.i64[i] = acc
				}
			}
		}
	})
}
