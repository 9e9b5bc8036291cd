package cpu

// This file is the only place the package reaches its compute helpers: the
// GEMM routines of tensorlib/internal/blas (OpenBLAS when present, gonum
// otherwise) and the parallel loop of tensorlib/internal/parallel (which
// also checks the kernel's interrupt hook between chunks). Swapping either
// changes this file only.

import (
	"github.com/gotensor/gotensor/tensorlib/internal/blas"
	"github.com/gotensor/gotensor/tensorlib/internal/parallel"
)

// sgemm computes C = alpha * op(A) * op(B) + beta * C for row-major float32
// matrices, where op(X) is X or its transpose.
func sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	blas.Sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// dgemm is sgemm for float64.
func dgemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	blas.Dgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// sgemmSerial is sgemm on the calling goroutine, for products that run in
// parallel with others.
func sgemmSerial(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	blas.SgemmSerial(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// dgemmSerial is dgemm on the calling goroutine.
func dgemmSerial(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	blas.DgemmSerial(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// parallelFor calls fn on disjoint ranges [lo, hi) covering [0, n), each at
// least grain long, spread over GOMAXPROCS goroutines; a panic in fn is
// re-raised on the caller.
func parallelFor(n, grain int, fn func(lo, hi int)) { parallel.For(n, grain, fn) }

// BLAS names the matrix-multiply library behind MatMul: "openblas
// (Haswell)", with the CPU kernel OpenBLAS picked for this machine, or
// "gonum" (tensor.BLAS says when).
func BLAS() string {
	if blas.Implementation() == blas.OpenBLAS {
		return blas.OpenBLAS + " (" + blas.OpenBLASCore() + ")"
	}
	return blas.Implementation()
}
