//go:build cuda

package main

import (
	"fmt"

	"github.com/gotensor/gotensor/cuda"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// benchBandwidth times a.Add(b) on n Float32 elements (two reads and a
// write per element), a.Clone() (gotensor's contiguous copy) and a direct
// cuMemcpyDtoD of the same bytes (a read and a write), and prints GB/s
// against the copy and the card's theoretical bandwidth.
func benchBandwidth(dev tensor.Device, ref *reference, n int) error {
	bytes := 4 * float64(n)
	a, b := tensor.RandOn(dev, n), tensor.RandOn(dev, n)
	add := timeLoop(func() { a.Add(b).Free() }, cuda.Synchronize)
	clone := timeLoop(func() { a.Clone().Free() }, cuda.Synchronize)
	a.Free()
	b.Free()
	cuda.EmptyCache()

	src, err := ref.alloc(n)
	if err != nil {
		return err
	}
	dst, err := ref.alloc(n)
	if err != nil {
		return err
	}
	cp := timeLoop(func() { ref.memcpy(dst, src) }, ref.sync)
	ref.free(src, dst)

	peak := ref.peakBandwidth()
	memcpy := 2 * bytes / cp / 1e9
	fmt.Printf("\nBandwidth (%dM Float32, %.0f MiB per operand)   GB/s     /memcpy   /theoretical\n", n>>20, bytes/(1<<20))
	row := func(name string, gbs float64) {
		fmt.Printf("  %-44s %8.1f   %6.2f     %6.2f\n", name, gbs, gbs/memcpy, gbs/peak)
	}
	row("a.Add(b) (3 transfers per element)", 3*bytes/add/1e9)
	row("a.Clone() (2 transfers)", 2*bytes/clone/1e9)
	row("cuMemcpyDtoD (2 transfers)", memcpy)
	fmt.Printf("  theoretical (memory clock × bus width):      %8.1f\n", peak)
	return nil
}
