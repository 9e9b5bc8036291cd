//go:build cgo

package cuda

import (
	"math"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// TestMatMulWithoutCopies checks that MatMul on views that cuBLAS's
// strided batched GEMM expresses allocates only its result (no
// contiguous copies of the operands), and that the results match the
// CPU's. Batch dims that merge into no one stride are looped over only
// when each call has products enough for the device (fillsDevice: 8 on
// the emulator's 2 multiprocessors), so the looped cases have a batch dim
// of 8 or more; on a GPU, whose calls would need hundreds, those cases
// copy, and only their results are checked.
func TestMatMulWithoutCopies(t *testing.T) {
	dev := tensor.CUDA(0)
	cases := []struct {
		name   string
		a, b   []int
		f      func(a, b *tensor.Tensor) *tensor.Tensor
		looped bool // batch dims that merge in no operand: GEMM calls looped over the longest
	}{
		{"q @ kᵀ", []int{2, 3, 8, 4}, []int{2, 3, 8, 4}, func(a, b *tensor.Tensor) *tensor.Tensor { return a.MatMul(b.Transpose(-2, -1)) }, false},
		{"aᵀ @ b", []int{4, 6, 5}, []int{4, 6, 7}, func(a, b *tensor.Tensor) *tensor.Tensor { return a.Transpose(-2, -1).MatMul(b) }, false},
		{"broadcast batch", []int{5, 3, 4}, []int{1, 4, 6}, func(a, b *tensor.Tensor) *tensor.Tensor { return a.MatMul(b.Expand(5, 4, 6)) }, false},
		{"split heads", []int{2, 7, 8, 4}, []int{2, 7, 8, 4}, func(a, b *tensor.Tensor) *tensor.Tensor {
			return a.Permute(0, 2, 1, 3).MatMul(b.Permute(0, 2, 1, 3).Transpose(-2, -1))
		}, true},
		{"split heads, the batch longer than the heads", []int{9, 6, 2, 4}, []int{9, 6, 2, 4}, func(a, b *tensor.Tensor) *tensor.Tensor {
			return a.Permute(0, 2, 1, 3).MatMul(b.Permute(0, 2, 1, 3).Transpose(-2, -1))
		}, true},
		{"three batch dims", []int{2, 3, 8, 4, 5}, []int{3, 1, 5, 2}, func(a, b *tensor.Tensor) *tensor.Tensor {
			return a.MatMul(b)
		}, true},
	}
	quiesce(t)
	d, err := getDevice(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		a, b := tensor.Randn(c.a...), tensor.Randn(c.b...)
		want := c.f(a, b)
		da, db := a.To(dev), b.To(dev)
		before, _ := allocated(t)
		ResetPeak()
		got := c.f(da, db)
		_, peak := allocated(t)
		if c.looped && !d.fillsDevice(8, 1, 1) {
			// A GPU: these small products are copied, not looped over.
		} else if extra, out := peak-before, int64(roundSize(4*got.Numel())); extra != out {
			t.Errorf("%s: MatMul raised the memory in use by %d bytes, want %d (its result alone)", c.name, extra, out)
		}
		g, w := got.Float32s(), want.Float32s()
		for i := range w {
			if math.Abs(float64(g[i]-w[i])) > 1e-5*(1+math.Abs(float64(w[i]))) {
				t.Fatalf("%s: element %d is %v, want %v", c.name, i, g[i], w[i])
			}
		}
	}
}
