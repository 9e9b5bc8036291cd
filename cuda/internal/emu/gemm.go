//go:build cgo

package emu

import (
	"fmt"
	"math"
	"unsafe"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/tensorlib/backend"
)

// Gemm computes what cublasSgemmStridedBatched (or the Dgemm one, or
// cublasGemmStridedBatchedEx for 16-bit operands) would, with the same
// column-major arguments, on the CPU with gonum's BLAS. The emulator needs
// a correct GEMM rather than a fast one, and gonum is the BLAS every build
// has; the tensor library's own GEMM (OpenBLAS when present) is internal
// to it.
//
// The tensor-core paths are modelled on their numbers: 16-bit A and B are
// widened to float32 (exactly), multiplied and summed in float32, and C is
// rounded to nearest even once, as CUBLAS_COMPUTE_32F does; with TF32,
// float32 A and B are first rounded to TF32's 10 mantissa bits (to
// nearest, ties away from zero, as the cvt.rna.tf32.f32 instruction). The
// order of the float32 sums is gonum's, not the GPU's.
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
	if g.Half != driver.NotHalf && (g.Double || g.TF32) {
		return fmt.Errorf("emu: Gemm: 16-bit operands with Double or TF32 set")
	}
	size := 4
	switch {
	case g.Double:
		size = 8
	case g.Half != driver.NotHalf:
		size = 2
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
		switch {
		case g.Double:
			gemm(gonum.Implementation{}.Dgemm, g, slice[float64](pb, nb), slice[float64](pa, na), slice[float64](pc, nc), g.Alpha, g.Beta)
		case g.Half != driver.NotHalf:
			c := widen(g.Half, pc, nc)
			gemm(gonum.Implementation{}.Sgemm, g, widen(g.Half, pb, nb), widen(g.Half, pa, na), c, float32(g.Alpha), float32(g.Beta))
			narrow(g.Half, c, pc, g.M, g.N, g.LDC)
		case g.TF32:
			a, b := toTF32(slice[float32](pa, na)), toTF32(slice[float32](pb, nb))
			gemm(gonum.Implementation{}.Sgemm, g, b, a, slice[float32](pc, nc), float32(g.Alpha), float32(g.Beta))
		default:
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

// widen returns n 16-bit floats of type h at p as float32s (exact).
func widen(h driver.Half, p driver.DevicePtr, n int) []float32 {
	out := make([]float32, n)
	bits := slice[uint16](p, n)
	for i, b := range bits {
		if h == driver.BF16 {
			out[i] = backend.BF16(b).Float32()
		} else {
			out[i] = backend.F16(b).Float32()
		}
	}
	return out
}

// narrow rounds the m×n column-major matrix c (leading dimension ld) to
// the 16-bit floats of type h at p; what lies between its columns is left
// as it was.
func narrow(h driver.Half, c []float32, p driver.DevicePtr, m, n, ld int) {
	if m == 0 || n == 0 {
		return
	}
	bits := slice[uint16](p, (n-1)*ld+m)
	for j := 0; j < n; j++ {
		for i := j * ld; i < j*ld+m; i++ {
			if h == driver.BF16 {
				bits[i] = uint16(backend.BF16FromFloat32(c[i]))
			} else {
				bits[i] = uint16(backend.F16FromFloat32(c[i]))
			}
		}
	}
}

// toTF32 returns a copy of xs rounded to TF32: 10 mantissa bits, to
// nearest with ties away from zero (cvt.rna.tf32.f32); Inf and NaN stay.
func toTF32(xs []float32) []float32 {
	out := make([]float32, len(xs))
	for i, x := range xs {
		out[i] = tf32(x)
	}
	return out
}

func tf32(x float32) float32 {
	u := math.Float32bits(x)
	if u&0x7f800000 == 0x7f800000 {
		return x
	}
	return math.Float32frombits((u + 0x1000) &^ 0x1fff)
}
