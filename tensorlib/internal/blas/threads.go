package blas

import (
	"runtime"
	"sync"
)

// threadMinWork is the smallest product m*n*k that Sgemm and Dgemm run on
// more than one thread: handing a product to OpenBLAS's threads costs
// 10–15 µs, half of what one core takes for 2^21 multiply-adds. (OpenBLAS
// itself threads from 2^18: the MNIST MLP's 128×256×10 products took 15
// µs on one thread and 29 µs on two.)
const threadMinWork = 1 << 21

// threads guards OpenBLAS's thread count, a global of the library: a
// product on GOMAXPROCS threads holds it exclusively, a product on the
// calling thread shares it, so that the library runs the second kind on
// one thread even while another goroutine multiplies large matrices.
var threads sync.RWMutex

// threadedGemm runs a product of at least threadMinWork on GOMAXPROCS of
// the library's threads (set with im.threads), and a smaller one on the
// calling thread.
//
// OpenBLAS splits a product over its threads with the packed panels of
// the shared operand packed once: on the MNIST products (128×784 by
// 784×256, 256×128 by 128×784) and 1024² its two threads ran 1.4–1.9
// times as fast as one here, where two goroutines running halves of the
// product on one thread each, every half packing the shared operand
// again, ran 1.0–1.7 times as fast (2026-11-24).
func threadedGemm[T float32 | float64](im *impl, gemm gemmFn[T], transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	procs := runtime.GOMAXPROCS(0)
	if procs < 2 || m*n*k < threadMinWork {
		serialGemm(gemm, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	threads.Lock()
	defer threads.Unlock()
	im.threads(procs)
	defer im.threads(1)
	gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// serialGemm runs a product on the calling thread.
func serialGemm[T float32 | float64](gemm gemmFn[T], transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	threads.RLock()
	defer threads.RUnlock()
	gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// gemmFn is the signature of an implementation's Sgemm or Dgemm.
type gemmFn[T float32 | float64] func(transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)
