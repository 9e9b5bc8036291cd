//go:build cgo

package emu

import (
	"fmt"
	"unsafe"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/gotensor/gotensor/cuda/internal/driver"
)

// Gemm computes what cublasSgemmStridedBatched (or the Dgemm one) would,
// with the same column-major arguments, on the CPU with gonum's BLAS. The
// emulator needs a correct GEMM rather than a fast one, and gonum is the
// BLAS every build has; the tensor library's own GEMM (OpenBLAS when
// present) is internal to it.
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
			gemm(gonum.Implementation{}.Dgemm, g, slice[float64](pb, nb), slice[float64](pa, na), slice[float64](pc, nc), g.Alpha, g.Beta)
		} else {
			gemm(gonum.Implementation{}.Sgemm, g, slice[float32](pb, nb), slice[float32](pa, na), slice[float32](pc, nc), float32(g.Alpha), float32(g.Beta))
		}
	}
	return nil
}

// gemm runs one product of g as the row-major product described above, b
// and a being g.B and g.A as stored. A product with nothing to sum (K or
// Alpha zero) scales C by Beta, writing zeros when Beta is zero, as cuBLAS
// does: gonum would reject the empty operands.
func gemm[T float32 | float64](f func(tA, tB gblas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int),
	g driver.GemmArgs, b, a, c []T, alpha, beta T) {
	if g.K == 0 || alpha == 0 {
		for j := 0; j < g.N; j++ {
			col := c[j*g.LDC : j*g.LDC+g.M]
			for i := range col {
				if beta == 0 {
					col[i] = 0
				} else {
					col[i] *= beta
				}
			}
		}
		return
	}
	f(trans(g.TransB), trans(g.TransA), g.N, g.M, g.K, alpha, b, g.LDB, a, g.LDA, beta, c, g.LDC)
}

func trans(t driver.Transpose) gblas.Transpose {
	if t {
		return gblas.Trans
	}
	return gblas.NoTrans
}

// slice views n elements of emulated device memory at p. The memory is C
// memory, outside the Go heap.
func slice[T any](p driver.DevicePtr, n int) []T {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(*(*unsafe.Pointer)(unsafe.Pointer(&p))), n)
}
