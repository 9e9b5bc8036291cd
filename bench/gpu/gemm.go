//go:build cuda

package main

import (
	"fmt"

	"github.com/gotensor/gotensor/cuda"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// benchGemm times n×n SGEMMs through gotensor (x.MatMul(w), the result
// freed each time) and prints TFLOP/s against PyTorch's torch.mm of the
// same size on the same GPU (both cuBLAS, full Float32).
func benchGemm(dev tensor.Device, ref *reference, sizes []int) error {
	fmt.Printf("\nSGEMM (Float32, n×n·n×n)          gotensor TFLOP/s   PyTorch TFLOP/s   gotensor/PyTorch (speed)\n")
	for _, n := range sizes {
		flop := 2 * float64(n) * float64(n) * float64(n)
		x, w := tensor.RandnOn(dev, n, n), tensor.RandnOn(dev, n, n)
		got := timeLoop(func() { x.MatMul(w).Free() }, cuda.Synchronize)
		x.Free()
		w.Free()
		cuda.EmptyCache()
		want := ref.Gemm[fmt.Sprint(n)]
		g, r := flop/got/1e12, flop/want/1e12
		fmt.Printf("  n = %-5d                           %8.2f          %8.2f          %6.2f\n", n, g, r, g/r)
	}
	return nil
}
