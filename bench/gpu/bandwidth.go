package main

import (
	"fmt"
	"io"

	"github.com/gotensor/gotensor/cuda"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// benchBandwidth times a.Add(b) on n Float32 elements (two reads and a
// write per element) and a.Clone() (a read and a write), and prints GB/s
// against the same operations in PyTorch and PyTorch's device copy
// (z.copy_(x)), the practical ceiling.
func benchBandwidth(w io.Writer, dev tensor.Device, ref *reference, n int) {
	bytes := 4 * float64(n)
	a, b := tensor.RandOn(dev, n), tensor.RandOn(dev, n)
	add := timeLoop(func() { a.Add(b).Free() }, cuda.Synchronize)
	clone := timeLoop(func() { a.Clone().Free() }, cuda.Synchronize)
	a.Free()
	b.Free()
	cuda.EmptyCache()

	fmt.Fprintf(w, "\nBandwidth (%dM Float32, %.0f MiB per operand)   gotensor GB/s   PyTorch GB/s   gotensor/PyTorch (speed)\n", n>>20, bytes/(1<<20))
	row := func(name string, transfers, got, want float64) {
		fmt.Fprintf(w, "  %-44s %8.1f        %8s        %6s\n", name, transfers*bytes/got/1e9, rate(transfers*bytes/1e9, want), speedup(got, want))
	}
	row("a.Add(b) (3 transfers per element)", 3, add, ref.Add)
	row("a.Clone() (2 transfers)", 2, clone, ref.Clone)
	fmt.Fprintf(w, "  PyTorch's z.copy_(x) (2 transfers):          %8s GB/s\n", rate(2*bytes/1e9, ref.Copy))
}
