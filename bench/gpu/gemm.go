//go:build cuda

package main

import (
	"fmt"

	"github.com/gotensor/gotensor/cuda"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// benchGemm times n×n SGEMMs through gotensor (x.MatMul(w), the result
// freed each time) and through cuBLAS directly, and prints TFLOP/s and
// their ratio. The best cuBLAS figure is the card's SGEMM peak.
func benchGemm(dev tensor.Device, ref *reference, sizes []int) error {
	fmt.Printf("\nSGEMM (Float32, n×n·n×n)          gotensor TFLOP/s   cuBLAS TFLOP/s   gotensor/cuBLAS\n")
	peak := 0.0
	for _, n := range sizes {
		flop := 2 * float64(n) * float64(n) * float64(n)
		x, w := tensor.RandnOn(dev, n, n), tensor.RandnOn(dev, n, n)
		got := timeLoop(func() { x.MatMul(w).Free() }, cuda.Synchronize)
		x.Free()
		w.Free()
		cuda.EmptyCache()

		a, err := ref.alloc(n * n)
		if err != nil {
			return err
		}
		b, err := ref.alloc(n * n)
		if err != nil {
			return err
		}
		c, err := ref.alloc(n * n)
		if err != nil {
			return err
		}
		want := timeLoop(func() { ref.sgemm(n, a, b, c) }, ref.sync)
		ref.free(a, b, c)

		g, r := flop/got/1e12, flop/want/1e12
		peak = max(peak, r)
		fmt.Printf("  n = %-5d                           %8.2f          %8.2f          %6.2f\n", n, g, r, g/r)
	}
	fmt.Printf("  cuBLAS peak measured: %.2f TFLOP/s\n", peak)
	return nil
}
