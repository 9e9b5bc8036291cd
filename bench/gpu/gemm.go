package main

import (
	"fmt"
	"io"

	"github.com/gotensor/gotensor/cuda"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// benchGemm times n×n SGEMMs through gotensor (x.MatMul(w), the result
// freed each time) and prints TFLOP/s against PyTorch's torch.mm of the
// same size on the same GPU (both cuBLAS, full Float32).
func benchGemm(w io.Writer, dev tensor.Device, ref *reference, sizes []int) {
	fmt.Fprintf(w, "\nSGEMM (Float32, n×n·n×n)          gotensor TFLOP/s   PyTorch TFLOP/s   gotensor/PyTorch (speed)\n")
	for _, n := range sizes {
		flop := 2 * float64(n) * float64(n) * float64(n)
		x, y := tensor.RandnOn(dev, n, n), tensor.RandnOn(dev, n, n)
		got := timeLoop(func() { x.MatMul(y).Free() }, cuda.Synchronize)
		x.Free()
		y.Free()
		cuda.EmptyCache()
		want := ref.Gemm[fmt.Sprint(n)]
		fmt.Fprintf(w, "  n = %-5d                           %8.2f          %8s          %6s\n", n, flop/got/1e12, rate(flop/1e12, want), speedup(got, want))
	}
}
