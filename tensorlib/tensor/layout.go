package tensor

import (
	"slices"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

func cloneInts(s []int) []int { return append([]int(nil), s...) }

// broadcastShapes returns the NumPy broadcast of shapes a and b, or panics
// with a ShapeError naming op and both shapes.
func broadcastShapes(op string, a, b []int) []int {
	if slices.Equal(a, b) {
		return a
	}
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := 0; i < n; i++ {
		da, db := 1, 1
		if j := len(a) - n + i; j >= 0 {
			da = a[j]
		}
		if j := len(b) - n + i; j >= 0 {
			db = b[j]
		}
		switch {
		case da == db, db == 1:
			out[i] = da
		case da == 1:
			out[i] = db
		default:
			panic(shapeErr(op, "each dimension, aligned from the right, must be equal or 1; use Unsqueeze, Reshape or Expand to line them up",
				[][]int{cloneInts(a), cloneInts(b)},
				"shapes %v and %v cannot be broadcast: sizes %d and %d differ in dim %d (counting from the right: %d)",
				a, b, da, db, i, i-n))
		}
	}
	return out
}

// viewStrides returns the strides that let a tensor with layout l be seen
// with newShape (same number of elements) without copying, and false when
// no such strides exist. It follows PyTorch's computeStride: dimensions of
// newShape must each fall inside a run of old dimensions that is itself
// contiguous.
func viewStrides(l backend.Layout, newShape []int) ([]int, bool) {
	oldShape, oldStrides := l.Shape, l.Strides
	newStrides := make([]int, len(newShape))
	if backend.Numel(oldShape) == 0 {
		return backend.ContiguousStrides(newShape), true
	}
	viewD := len(newShape) - 1
	chunkBase := 0
	if len(oldStrides) > 0 {
		chunkBase = oldStrides[len(oldStrides)-1]
	}
	tensorNumel, viewNumel := 1, 1
	for td := len(oldShape) - 1; td >= 0; td-- {
		tensorNumel *= oldShape[td]
		if td == 0 || (oldShape[td-1] != 1 && oldStrides[td-1] != tensorNumel*chunkBase) {
			for viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] == 1) {
				newStrides[viewD] = viewNumel * chunkBase
				viewNumel *= newShape[viewD]
				viewD--
			}
			if viewNumel != tensorNumel {
				return nil, false
			}
			if td > 0 {
				chunkBase = oldStrides[td-1]
				tensorNumel, viewNumel = 1, 1
			}
		}
	}
	if viewD != -1 {
		// Remaining dims of newShape are all 1 (e.g. a 0-d source).
		for ; viewD >= 0; viewD-- {
			if newShape[viewD] != 1 {
				return nil, false
			}
			newStrides[viewD] = 1
		}
	}
	return newStrides, true
}

// inferShape resolves a single -1 in shape against n elements.
func inferShape(op string, shape []int, n int, from []int) []int {
	out := cloneInts(shape)
	neg := -1
	prod := 1
	for i, s := range out {
		switch {
		case s == -1:
			if neg >= 0 {
				panic(shapeErr(op, "give at most one -1", [][]int{from, shape},
					"shape %v has more than one -1", shape))
			}
			neg = i
		case s < 0:
			panic(shapeErr(op, "sizes must be >= 0, or -1 for one inferred size", [][]int{from, shape},
				"invalid size %d in shape %v", s, shape))
		default:
			prod *= s
		}
	}
	if neg >= 0 {
		if prod == 0 || n%prod != 0 {
			panic(shapeErr(op, "the other sizes must divide the number of elements", [][]int{from, shape},
				"cannot infer -1 in shape %v for %d elements (from shape %v)", shape, n, from))
		}
		out[neg] = n / prod
		prod *= out[neg]
	}
	if prod != n {
		panic(shapeErr(op, "the product of the new sizes must equal the number of elements", [][]int{from, shape},
			"cannot reshape %v (%d elements) into %v (%d elements)", from, n, shape, prod))
	}
	return out
}
