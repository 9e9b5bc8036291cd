//go:build cgo

package emu

import (
	"fmt"
	"unsafe"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/internal/blas"
)

// Gemm computes what cublasSgemmStridedBatched (or the Dgemm one) would,
// with the same column-major arguments, on the CPU.
//
// A column-major matrix X (r×c, leading dimension ld) is, in memory, the
// row-major matrix Xᵀ (c×r, row stride ld). So C = op(A)·op(B) in column
// major is Cᵀ = op(B)ᵀ·op(A)ᵀ in row major, which a row-major GEMM computes
// from the same buffers with the operands swapped, m and n swapped, and the
// same transpose flags.
func (d *Driver) Gemm(g driver.GemmArgs) error {
	if g.M < 0 || g.N < 0 || g.K < 0 || g.Batch < 0 {
		return fmt.Errorf("emu: Gemm: negative size m=%d n=%d k=%d batch=%d", g.M, g.N, g.K, g.Batch)
	}
	// Rows and columns of A and B as stored (column-major).
	ar, ac := g.M, g.K
	if g.TransA {
		ar, ac = g.K, g.M
	}
	br, bc := g.K, g.N
	if g.TransB {
		br, bc = g.N, g.K
	}
	if g.LDA < max(1, ar) || g.LDB < max(1, br) || g.LDC < max(1, g.M) {
		return fmt.Errorf("emu: Gemm: leading dimensions lda=%d ldb=%d ldc=%d below the rows %d, %d, %d (cuBLAS would fail too)",
			g.LDA, g.LDB, g.LDC, ar, br, g.M)
	}
	if g.M == 0 || g.N == 0 || g.Batch == 0 {
		return nil
	}
	size := 4
	if g.Double {
		size = 8
	}
	extent := func(rows, cols, ld int) int {
		if rows == 0 || cols == 0 {
			return 0
		}
		return (cols-1)*ld + rows
	}
	na, nb, nc := extent(ar, ac, g.LDA), extent(br, bc, g.LDB), extent(g.M, g.N, g.LDC)
	for b := 0; b < g.Batch; b++ {
		pa := g.A.Add(int(int64(b) * g.StrideA * int64(size)))
		pb := g.B.Add(int(int64(b) * g.StrideB * int64(size)))
		pc := g.C.Add(int(int64(b) * g.StrideC * int64(size)))
		for _, m := range []struct {
			p driver.DevicePtr
			n int
		}{{pa, na}, {pb, nb}, {pc, nc}} {
			if err := d.check("Gemm", m.p, m.n*size); err != nil {
				return err
			}
		}
		if g.Double {
			blas.Dgemm(bool(g.TransB), bool(g.TransA), g.N, g.M, g.K, g.Alpha,
				slice[float64](pb, nb), g.LDB, slice[float64](pa, na), g.LDA,
				g.Beta, slice[float64](pc, nc), g.LDC)
		} else {
			blas.Sgemm(bool(g.TransB), bool(g.TransA), g.N, g.M, g.K, float32(g.Alpha),
				slice[float32](pb, nb), g.LDB, slice[float32](pa, na), g.LDA,
				float32(g.Beta), slice[float32](pc, nc), g.LDC)
		}
	}
	return nil
}

// slice views n elements of emulated device memory at p. The memory is C
// memory, outside the Go heap.
func slice[T any](p driver.DevicePtr, n int) []T {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(*(*unsafe.Pointer)(unsafe.Pointer(&p))), n)
}
