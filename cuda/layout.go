package cuda

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gotensor/gotensor/cuda/internal/driver"

	"github.com/gotensor/gotensor/tensorlib/backend"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// maxDims is MAXDIMS of kernels/common.cuh.
const maxDims = 8

// layoutBytes is sizeof(Layout) in kernels/common.cuh: int ndim, int
// contig, long long offset, long long shape[8], long long strides[8].
const layoutBytes = 8 + 8 + 8*maxDims + 8*maxDims

// packLayout appends a kernel Layout to a.
func packLayout(a *driver.Args, shape, strides []int, offset int) {
	if len(shape) > maxDims {
		panic(&tensor.ShapeError{Op: "cuda", Shapes: [][]int{shape},
			Msg: fmt.Sprintf("a view with %d dims that cannot be merged (shape %v, strides %v): CUDA kernels take at most %d", len(shape), shape, strides, maxDims),
			Fix: "call x.Contiguous() first, or Reshape to fewer dims"})
	}
	var b [layoutBytes]byte
	contig := len(shape) == 0 || (len(shape) == 1 && strides[0] == 1)
	binary.LittleEndian.PutUint32(b[0:], uint32(len(shape)))
	if contig {
		binary.LittleEndian.PutUint32(b[4:], 1)
	}
	binary.LittleEndian.PutUint64(b[8:], uint64(offset))
	for i := range shape {
		binary.LittleEndian.PutUint64(b[16+8*i:], uint64(shape[i]))
		binary.LittleEndian.PutUint64(b[16+8*maxDims+8*i:], uint64(strides[i]))
	}
	a.Struct(b[:], 8)
}

// packRaw appends l as is, without merging (kernels that index dims
// themselves, such as im2col, read its strides).
func packRaw(a *driver.Args, l backend.Layout) {
	var b [layoutBytes]byte
	binary.LittleEndian.PutUint32(b[0:], uint32(len(l.Shape)))
	binary.LittleEndian.PutUint64(b[8:], uint64(l.Offset))
	if len(l.Shape) > maxDims {
		panic(&tensor.ShapeError{Op: "cuda", Shapes: [][]int{l.Shape},
			Msg: fmt.Sprintf("%d dims: CUDA kernels take at most %d", len(l.Shape), maxDims),
			Fix: "Reshape to fewer dims"})
	}
	for i := range l.Shape {
		binary.LittleEndian.PutUint64(b[16+8*i:], uint64(l.Shape[i]))
		binary.LittleEndian.PutUint64(b[16+8*maxDims+8*i:], uint64(l.Strides[i]))
	}
	a.Struct(b[:], 8)
}

// packConv appends the Conv struct of kernels/conv.cu.
func packConv(a *driver.Args, g backend.Window) {
	vals := [...]int{g.N, g.C, g.H, g.W, g.KH, g.KW, g.SH, g.SW, g.PH, g.PW, g.DH, g.DW, g.OH, g.OW}
	var b [4 * len(vals)]byte
	for i, v := range vals {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(int32(v)))
	}
	a.Struct(b[:], 4)
}

// structBuilder lays out a C struct of doubles and ints.
type structBuilder struct{ b []byte }

func (s *structBuilder) f64(v float64) {
	s.b = binary.LittleEndian.AppendUint64(s.b, math.Float64bits(v))
}

func (s *structBuilder) i32(v int32) { s.b = binary.LittleEndian.AppendUint32(s.b, uint32(v)) }

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}
