package blas

import (
	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// gonumSgemm is Sgemm on gonum's pure-Go BLAS, which is row-major like this
// package's API.
func gonumSgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	gonum.Implementation{}.Sgemm(gonumTrans(transA), gonumTrans(transB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// gonumDgemm is Dgemm on gonum's pure-Go BLAS.
func gonumDgemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	gonum.Implementation{}.Dgemm(gonumTrans(transA), gonumTrans(transB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func gonumTrans(t bool) gblas.Transpose {
	if t {
		return gblas.Trans
	}
	return gblas.NoTrans
}
