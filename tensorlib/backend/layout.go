package backend

import (
	"fmt"
	"slices"
)

// A Layout says where a tensor's elements sit in its storage: element
// (i0, i1, ...) is at Offset + i0*Strides[0] + i1*Strides[1] + ...
// Strides count elements, not bytes. A stride of 0 repeats one element
// along a dimension; that is how broadcasting and Expand cost no memory.
//
// Views (Transpose, Narrow, Expand, ...) change only the layout; backends
// receive the layout with the storage so they can read any view in place.
type Layout struct {
	Shape   []int
	Strides []int
	Offset  int
}

// Contiguous returns the row-major layout of shape at offset 0.
func Contiguous(shape []int) Layout {
	return Layout{Shape: shape, Strides: ContiguousStrides(shape)}
}

// ContiguousStrides returns the strides of a row-major array of shape.
func ContiguousStrides(shape []int) []int {
	st := make([]int, len(shape))
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = s
		s *= shape[i]
	}
	return st
}

// Numel returns the number of elements of an array of shape: the product
// of the sizes, 1 for the empty shape of a scalar.
func Numel(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}

// Numel returns the number of elements the layout addresses.
func (l Layout) Numel() int { return Numel(l.Shape) }

// Dim returns the number of dimensions.
func (l Layout) Dim() int { return len(l.Shape) }

// IsContiguous reports whether the elements sit in row-major order with no
// gaps, starting at Offset. Strides of size-1 dimensions do not matter.
func (l Layout) IsContiguous() bool {
	s := 1
	for i := len(l.Shape) - 1; i >= 0; i-- {
		if l.Shape[i] == 1 {
			continue
		}
		if l.Strides[i] != s {
			return false
		}
		s *= l.Shape[i]
	}
	return true
}

// String formats the layout for debugging.
func (l Layout) String() string {
	return fmt.Sprintf("shape=%v strides=%v offset=%d", l.Shape, l.Strides, l.Offset)
}

// BroadcastTo returns a layout of shape that reads l, repeating it with
// stride 0 along new leading dimensions and along dimensions of size 1.
// The caller has checked that l's shape broadcasts to shape.
func (l Layout) BroadcastTo(shape []int) Layout {
	if slices.Equal(l.Shape, shape) {
		return l
	}
	n := len(shape)
	st := make([]int, n)
	for i := range st {
		j := len(l.Shape) - n + i
		if j >= 0 && l.Shape[j] == shape[i] {
			st[i] = l.Strides[j]
		}
	}
	return Layout{Shape: shape, Strides: st, Offset: l.Offset}
}

// Select returns l with dimension dim removed at index i: the layout of
// the slice x.Select(dim, i) of a tensor x under l.
func (l Layout) Select(dim, i int) Layout {
	shape := append(slices.Clone(l.Shape[:dim]), l.Shape[dim+1:]...)
	strides := append(slices.Clone(l.Strides[:dim]), l.Strides[dim+1:]...)
	return Layout{Shape: shape, Strides: strides, Offset: l.Offset + i*l.Strides[dim]}
}

// Coalesce describes the joint traversal, in row-major order, of layouts
// that share shape with fewer dimensions: it drops the dimensions of size
// 1 and merges each dimension into the one before it when it is contiguous
// with it in every layout. It returns the merged shape and, per layout,
// the merged strides (offsets are unchanged). An empty result means one
// element; a merged shape with a 0 means none.
//
// An elementwise kernel then loops over len(merged) dimensions, one for
// any contiguous operand: Coalesce([2 3 4], a contiguous layout) is [24]
// with strides [1].
func Coalesce(shape []int, ls ...Layout) (merged []int, strides [][]int) {
	strides = make([][]int, len(ls))
	for d, s := range shape {
		if s == 1 {
			continue
		}
		n := len(merged)
		merge := n > 0
		for j, l := range ls {
			merge = merge && continues(strides[j][n-1], s, l.Strides[d])
		}
		if merge {
			merged[n-1] *= s
			for j, l := range ls {
				strides[j][n-1] = l.Strides[d]
			}
			continue
		}
		merged = append(merged, s)
		for j, l := range ls {
			strides[j] = append(strides[j], l.Strides[d])
		}
	}
	return merged, strides
}

// continues reports whether a dim of the given size and stride continues
// the dim before it, of stride prev: stepping once in the outer dim is
// stepping size times in the inner one, so the two merge into one.
func continues(prev, size, stride int) bool { return prev == stride*size }

// appendDim adds a dim of size and stride to a coalesced shape (see
// Coalesce): dropped when of size 1, merged into the last dim when it
// continues it.
func appendDim(shape, strides []int, size, stride int) ([]int, []int) {
	switch n := len(shape); {
	case size == 1:
	case n > 0 && continues(strides[n-1], size, stride):
		shape[n-1] *= size
		strides[n-1] = stride
	default:
		shape, strides = append(shape, size), append(strides, stride)
	}
	return shape, strides
}

// A Reduction is a layout split for reducing over some of its dims: the
// kept dims, in order, give the row-major output; the reduced dims are
// traversed for each output element. Each group is coalesced (size-1 dims
// dropped, neighbours that are contiguous with each other merged).
type Reduction struct {
	KeptShape, KeptStrides       []int
	ReducedShape, ReducedStrides []int
	Offset                       int
	NumOut                       int // output elements (0 when a kept dim is empty)
	NumReduced                   int // elements reduced into each (0 when a reduced dim is empty)
}

// SplitReduce splits l for a reduction over dims (distinct, non-negative).
func SplitReduce(l Layout, dims []int) Reduction {
	r := Reduction{Offset: l.Offset}
	for d, s := range l.Shape {
		if slices.Contains(dims, d) {
			r.ReducedShape, r.ReducedStrides = appendDim(r.ReducedShape, r.ReducedStrides, s, l.Strides[d])
		} else {
			r.KeptShape, r.KeptStrides = appendDim(r.KeptShape, r.KeptStrides, s, l.Strides[d])
		}
	}
	// Coalescing keeps a dim of size 0, so these products count right.
	r.NumOut, r.NumReduced = Numel(r.KeptShape), Numel(r.ReducedShape)
	return r
}
