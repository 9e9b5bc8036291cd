//go:build cgo

package cuda

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// TestCopyKernels clones views on the device, through the flat copy, the
// row copy (vectorized or not), the tiled transpose and the per-element copy,
// and compares them element for element with the CPU's copies of the
// same views: sizes that are not multiples of the 32×32 tile or of the
// vector width, offsets, batches, every dtype.
func TestCopyKernels(t *testing.T) {
	dev := tensor.CUDA(0)
	type view struct {
		name  string
		shape []int
		f     func(x *tensor.Tensor) *tensor.Tensor
	}
	views := []view{
		{"transpose 2d", []int{37, 45}, func(x *tensor.Tensor) *tensor.Tensor { return x.T() }},
		{"transpose 2d, multiples of the tile", []int{64, 32}, func(x *tensor.Tensor) *tensor.Tensor { return x.T() }},
		{"transpose last two, batch", []int{3, 33, 70}, func(x *tensor.Tensor) *tensor.Tensor { return x.Transpose(-2, -1) }},
		{"transpose first two", []int{5, 6, 8}, func(x *tensor.Tensor) *tensor.Tensor { return x.Transpose(0, 1) }},
		{"transpose, narrowed (offset)", []int{9, 40}, func(x *tensor.Tensor) *tensor.Tensor { return x.Narrow(1, 3, 35).T() }},
		{"permute 0213 (rows of 8: vectorized)", []int{2, 5, 3, 8}, func(x *tensor.Tensor) *tensor.Tensor { return x.Permute(0, 2, 1, 3) }},
		{"permute 0213 (rows of 6)", []int{2, 5, 3, 6}, func(x *tensor.Tensor) *tensor.Tensor { return x.Permute(0, 2, 1, 3) }},
		{"permute 0213, long rows", []int{2, 3, 2, 300}, func(x *tensor.Tensor) *tensor.Tensor { return x.Permute(0, 2, 1, 3) }},
		{"permute, rows with an odd offset", []int{4, 3, 10}, func(x *tensor.Tensor) *tensor.Tensor { return x.Narrow(2, 1, 8).Permute(1, 0, 2) }},
		{"permute 2013 (tiles and rows)", []int{4, 5, 6, 3}, func(x *tensor.Tensor) *tensor.Tensor { return x.Permute(2, 0, 1, 3) }},
		{"permute 0312 (transpose with batch dims)", []int{2, 7, 5, 40}, func(x *tensor.Tensor) *tensor.Tensor { return x.Permute(0, 3, 1, 2) }},
		{"short rows", []int{6, 5, 2}, func(x *tensor.Tensor) *tensor.Tensor { return x.Permute(1, 0, 2) }},
		{"no unit stride (step)", []int{8, 12}, func(x *tensor.Tensor) *tensor.Tensor { return x.T().Narrow(0, 0, 6).Expand(2, 6, 8) }},
		{"dense, 16-byte aligned (flat)", []int{5, 8}, func(x *tensor.Tensor) *tensor.Tensor { return x.Narrow(0, 1, 3) }},
		{"dense, unaligned (memcpy)", []int{5, 7}, func(x *tensor.Tensor) *tensor.Tensor { return x.Narrow(0, 1, 3) }},
		{"expanded rows", []int{1, 16}, func(x *tensor.Tensor) *tensor.Tensor { return x.Expand(5, 16) }},
	}
	dtypes := []tensor.DType{tensor.Float32, tensor.Float64, tensor.Int64, tensor.Bool}
	for _, v := range views {
		for _, dt := range dtypes {
			t.Run(fmt.Sprintf("%s/%v", v.name, dt), func(t *testing.T) {
				x := tensor.RandInt(-50, 50, v.shape...).AsType(dt)
				want := v.f(x).Contiguous()
				got := v.f(x.To(dev)).Clone()
				if !got.IsContiguous() || !slices.Equal(got.Shape(), want.Shape()) {
					t.Fatalf("shape %v (contiguous %v), want %v", got.Shape(), got.IsContiguous(), want.Shape())
				}
				g, w := got.Float64s(), want.Float64s()
				for i := range w {
					if g[i] != w[i] {
						t.Fatalf("element %d is %v, want %v (got %v, want %v)", i, g[i], w[i], g, w)
					}
				}
			})
		}
	}
}
