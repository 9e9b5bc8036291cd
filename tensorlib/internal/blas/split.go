package blas

import (
	"runtime"

	"github.com/gotensor/gotensor/tensorlib/internal/parallel"
)

// splitMinWork is the smallest product m*n*k that Sgemm and Dgemm split
// over goroutines: below it (about 10 µs of work on one core) starting
// goroutines costs more than it saves.
const splitMinWork = 1 << 18

// splitAlign is the row or column count a split part is rounded up to, a
// multiple of the register blocks of OpenBLAS's kernels.
const splitAlign = 16

type gemmFn[T float32 | float64] func(transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)

// splitGemm runs gemm on GOMAXPROCS goroutines, each computing a band of
// rows of C (or of columns, when C is wider than tall), and reports
// whether it did; it does nothing and returns false when the product is
// too small to gain from it.
//
// With OpenBLAS, the package runs the library single-threaded and splits
// here instead. OpenBLAS's own threads keep spinning (sched_yield) for a
// while after each call, taking a core from the Go code that runs between
// two products; goroutines hand their core back as soon as they finish.
func splitGemm[T float32 | float64](gemm gemmFn[T], transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) bool {
	procs := runtime.GOMAXPROCS(0)
	if procs < 2 || m*n*k < splitMinWork {
		return false
	}
	dim := max(m, n)
	part := (dim + procs - 1) / procs
	part = (part + splitAlign - 1) / splitAlign * splitAlign
	if part >= dim {
		return false
	}
	// One goroutine per part: parallel.For's grain would run two parts
	// serially when rounding up made them cover more than dim.
	parts := (dim + part - 1) / part
	parallel.For(parts, 1, func(p0, p1 int) {
		for p := p0; p < p1; p++ {
			lo, hi := p*part, min((p+1)*part, dim)
			if m >= n {
				ao := lo * lda // rows lo..hi of A
				if transA {
					ao = lo // columns lo..hi of A as stored (k×m)
				}
				gemm(transA, transB, hi-lo, n, k, alpha, a[ao:], lda, b, ldb, beta, c[lo*ldc:], ldc)
				continue
			}
			bo := lo // columns lo..hi of B
			if transB {
				bo = lo * ldb // rows lo..hi of B as stored (n×k)
			}
			gemm(transA, transB, m, hi-lo, k, alpha, a, lda, b[bo:], ldb, beta, c[lo:], ldc)
		}
	})
	return true
}
