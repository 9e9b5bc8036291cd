package cuda

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// maxDims is MAXDIMS of kernels/common.cuh.
const maxDims = 8

// layoutBytes is sizeof(Layout) in kernels/common.cuh: int ndim, int
// contig, long long offset, long long shape[8], long long strides[8].
const layoutBytes = 8 + 8 + 8*maxDims + 8*maxDims

// coalesce merges the dims of shape that are contiguous in every layout
// (each of shape) and drops dims of size 1, so kernels index fewer dims;
// it returns the merged shape and each layout's strides. A 0-d result
// means one element.
func coalesce(shape []int, ls ...tensor.Layout) ([]int, [][]int) {
	var ms []int
	mst := make([][]int, len(ls))
	for d, s := range shape {
		if s == 1 {
			continue
		}
		if n := len(ms); n > 0 {
			merge := true
			for j, l := range ls {
				if mst[j][n-1] != l.Strides[d]*s {
					merge = false
					break
				}
			}
			if merge {
				ms[n-1] *= s
				for j, l := range ls {
					mst[j][n-1] = l.Strides[d]
				}
				continue
			}
		}
		ms = append(ms, s)
		for j, l := range ls {
			mst[j] = append(mst[j], l.Strides[d])
		}
	}
	return ms, mst
}

// packLayout appends a kernel Layout to a.
func packLayout(a *driver.Args, shape, strides []int, offset int) {
	if len(shape) > maxDims {
		panic(fmt.Sprintf("cuda: a view with %d dims that cannot be merged (shape %v, strides %v): kernels take at most %d; call Contiguous() first",
			len(shape), shape, strides, maxDims))
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
func packRaw(a *driver.Args, l tensor.Layout) {
	var b [layoutBytes]byte
	binary.LittleEndian.PutUint32(b[0:], uint32(len(l.Shape)))
	binary.LittleEndian.PutUint64(b[8:], uint64(l.Offset))
	if len(l.Shape) > maxDims {
		panic(fmt.Sprintf("cuda: %d dims (at most %d)", len(l.Shape), maxDims))
	}
	for i := range l.Shape {
		binary.LittleEndian.PutUint64(b[16+8*i:], uint64(l.Shape[i]))
		binary.LittleEndian.PutUint64(b[16+8*maxDims+8*i:], uint64(l.Strides[i]))
	}
	a.Struct(b[:], 8)
}

// packConv appends the Conv struct of kernels/conv.cu.
func packConv(a *driver.Args, g window) {
	vals := [...]int{g.n, g.c, g.h, g.w, g.kh, g.kw, g.sh, g.sw, g.ph, g.pw, g.dh, g.dw, g.oh, g.ow}
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

// window is the geometry of Im2Col, Col2Im and MaxPool2d.
type window struct {
	n, c, h, w     int
	kh, kw, sh, sw int
	ph, pw, dh, dw int
	oh, ow         int
}

func newWindow(shape []int, kernel, stride, padding, dilation [2]int) window {
	g := window{n: shape[0], c: shape[1], h: shape[2], w: shape[3],
		kh: kernel[0], kw: kernel[1], sh: stride[0], sw: stride[1],
		ph: padding[0], pw: padding[1], dh: dilation[0], dw: dilation[1]}
	g.oh = (g.h+2*g.ph-g.dh*(g.kh-1)-1)/g.sh + 1
	g.ow = (g.w+2*g.pw-g.dw*(g.kw-1)-1)/g.sw + 1
	return g
}

func contiguousLayout(shape []int) tensor.Layout {
	st := make([]int, len(shape))
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = s
		s *= shape[i]
	}
	return tensor.Layout{Shape: shape, Strides: st}
}

func numel(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}
