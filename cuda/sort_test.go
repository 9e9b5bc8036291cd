//go:build cgo

package cuda

import (
	"slices"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// TestSortKernels runs the device backend's Argsort and CumSum (kernels/
// sort.cu) directly on hand-checked inputs: a strided view, ties, NaN.
func TestSortKernels(t *testing.T) {
	b := cudaBackend(t)
	// [[3, 1, 3, NaN], [0, -1, 2, 0]] stored transposed: strides [1, 2].
	host := []float32{3, 0, 1, -1, 3, 2, float32NaN(), 0}
	s := b.FromHost(host)
	l := backend.Layout{Shape: []int{2, 4}, Strides: []int{1, 2}}
	asc := b.ToHost(b.Argsort(s, l, 1, false), backend.Contiguous([]int{2, 4})).([]int64)
	if want := []int64{1, 0, 2, 3, 1, 0, 3, 2}; !slices.Equal(asc, want) {
		t.Errorf("ascending: %v, want %v", asc, want)
	}
	desc := b.ToHost(b.Argsort(s, l, 1, true), backend.Contiguous([]int{2, 4})).([]int64)
	if want := []int64{3, 0, 2, 1, 2, 0, 3, 1}; !slices.Equal(desc, want) {
		t.Errorf("descending: %v, want %v", desc, want)
	}
	col := b.ToHost(b.Argsort(s, l, 0, false), backend.Contiguous([]int{2, 4})).([]int64)
	if want := []int64{1, 1, 1, 1, 0, 0, 0, 0}; !slices.Equal(col, want) {
		t.Errorf("along dim 0: %v, want %v", col, want)
	}
	ints := b.FromHost([]int64{1, 2, 3, 4, 5, 6})
	cs := b.ToHost(b.CumSum(ints, backend.Contiguous([]int{2, 3}), 0), backend.Contiguous([]int{2, 3})).([]int64)
	if want := []int64{1, 2, 3, 5, 7, 9}; !slices.Equal(cs, want) {
		t.Errorf("cumsum along dim 0: %v, want %v", cs, want)
	}
	bs := b.FromHost([]bool{true, false, true, true})
	cb := b.ToHost(b.CumSum(bs, backend.Contiguous([]int{4}), 0), backend.Contiguous([]int{4})).([]int64)
	if want := []int64{1, 1, 2, 3}; !slices.Equal(cb, want) {
		t.Errorf("cumsum of bools: %v, want %v", cb, want)
	}
}

func float32NaN() float32 {
	z := float32(0)
	return z / z
}

// TestSortParity compares the transformer ops on the emulated device with
// the CPU, forward and backward, as TestParity does.
func TestSortParity(t *testing.T) {
	dev := tensor.CUDA(0)
	cases := []parityCase{
		{name: "Sort/values", inputs: in(randn(4, 37)), f: func(x []*tensor.Tensor) *tensor.Tensor { v, _ := x[0].Sort(-1, false); return v }},
		{name: "Sort/indices_t", inputs: in(randn(6, 5)), nograd: true, f: func(x []*tensor.Tensor) *tensor.Tensor { _, i := x[0].T().Sort(1, true); return i }},
		{name: "Argsort/int", inputs: in(ints(-3, 3, 5, 40)), f: func(x []*tensor.Tensor) *tensor.Tensor { return x[0].Argsort(1, true) }},
		{name: "TopK", inputs: in(randn(3, 4, 50)), f: func(x []*tensor.Tensor) *tensor.Tensor { v, _ := x[0].TopK(7, -1); return v }},
		{name: "CumSum", inputs: in(randn(3, 4, 9)), f: func(x []*tensor.Tensor) *tensor.Tensor { return x[0].Permute(2, 0, 1).CumSum(1) }},
		{name: "CumSum/f64", inputs: in(f64(5, 33)), f: func(x []*tensor.Tensor) *tensor.Tensor { return x[0].CumSum(1) }},
		{name: "Tril", inputs: in(randn(2, 5, 6)), f: func(x []*tensor.Tensor) *tensor.Tensor { return x[0].Tril(-1) }},
		{name: "Triu", inputs: in(randn(6, 5)), f: func(x []*tensor.Tensor) *tensor.Tensor { return x[0].T().Triu(2) }},
		{name: "MaskedFill", inputs: in(randn(2, 4, 4), ints(0, 2, 4, 4)), f: func(x []*tensor.Tensor) *tensor.Tensor {
			return x[0].MaskedFill(x[1].AsType(tensor.Bool), -1e9).Softmax(-1)
		}},
		{name: "Sort/empty_rows", inputs: in(randn(3, 0)), f: func(x []*tensor.Tensor) *tensor.Tensor { v, _ := x[0].Sort(-1, false); return v }},
		{name: "Argsort/no_rows", inputs: in(randn(0, 5)), nograd: true, f: func(x []*tensor.Tensor) *tensor.Tensor { return x[0].Argsort(1, false) }},
		{name: "CumSum/empty", inputs: in(randn(0, 4)), f: func(x []*tensor.Tensor) *tensor.Tensor { return x[0].CumSum(1) }},
		{name: "CumSum/odd", inputs: in(randn(3, 1025)), f: func(x []*tensor.Tensor) *tensor.Tensor { return x[0].CumSum(1) }},
		{name: "Chunk", inputs: in(randn(4, 9)), f: func(x []*tensor.Tensor) *tensor.Tensor {
			c := x[0].Chunk(3, 1)
			return c[0].Mul(c[2]).Sub(c[1])
		}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tensor.ManualSeed(int64(i + 1))
			inputs := c.inputs()
			var weight *tensor.Tensor
			tensor.NoGrad(func() { weight = tensor.Randn(c.f(inputs).Shape()...) })
			want, wantG := runParity(c, inputs, weight, tensor.CPU)
			var got *tensor.Tensor
			var gotG []*tensor.Tensor
			if err := tensor.Try(func() { got, gotG = runParity(c, inputs, weight, dev) }); err != nil {
				t.Fatalf("cuda: %v", err)
			}
			assertClose(t, "output", got, want)
			for j := range wantG {
				if wantG[j] != nil {
					assertClose(t, "grad", gotG[j], wantG[j])
				}
			}
		})
	}
}
