package blas

import (
	"fmt"
	"os"
	"sync"
)

// Implementation names returned by Implementation and accepted by Use.
const (
	OpenBLAS = "openblas"
	Gonum    = "gonum"
)

// impl holds the routines in use; choose fills it on first use.
type impl struct {
	name string
	// threads, when not nil, sets the number of threads the routines run
	// on: Sgemm and Dgemm run large products on GOMAXPROCS threads and
	// every other product on one (see threadedGemm).
	threads func(n int)
	sgemm   func(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
	dgemm   func(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int)
}

var (
	gonumImpl = impl{name: Gonum, sgemm: gonumSgemm, dgemm: gonumDgemm}

	chooseOnce sync.Once
	current    *impl
	// openblasImpl is set by loadOpenBLAS when the library loads.
	openblasImpl *impl
)

// active returns the implementation in use, choosing it on first call.
func active() *impl {
	chooseOnce.Do(choose)
	return current
}

func choose() {
	if os.Getenv("GOTENSOR_BLAS") != Gonum && loadOpenBLAS() == nil {
		current = openblasImpl
		return
	}
	current = &gonumImpl
}

// Implementation returns the name of the BLAS in use: "openblas" or "gonum".
func Implementation() string {
	return active().name
}

// Use switches the BLAS in use to name, "openblas" or "gonum". It returns an
// error, and leaves the implementation unchanged, when name is unknown or
// OpenBLAS cannot be loaded. Use is not safe to call while another
// goroutine multiplies matrices; it is meant for benchmarks and set-up code.
func Use(name string) error {
	active()
	switch name {
	case Gonum:
		current = &gonumImpl
		return nil
	case OpenBLAS:
		if err := loadOpenBLAS(); err != nil {
			return err
		}
		current = openblasImpl
		return nil
	}
	return fmt.Errorf("blas: unknown implementation %q: use %q or %q", name, OpenBLAS, Gonum)
}

// Sgemm computes C = alpha*op(A)*op(B) + beta*C for row-major float32
// matrices, where op(X) is X, or X transposed when the matching trans flag is
// set. op(A) is m×k, op(B) is k×n and C is m×n. lda, ldb and ldc are the row
// strides of the matrices as stored (as in cblas with CblasRowMajor): A is
// stored m×k (k×m when transA) with rows lda apart, and so on.
//
// A stride must be at least the number of columns stored (any stride, even
// 0, is accepted for a matrix with no columns). When beta is zero, C is
// overwritten and its old contents (even NaN) are
// ignored. Sgemm panics when a size is negative, a stride is shorter than its
// row, or a slice is too short for the matrix it holds.
func Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	im := active()
	gemm("Sgemm", im, im.sgemm, true, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// SgemmSerial is Sgemm computed on the calling thread (OpenBLAS) or as
// gonum decides (it may still use goroutines for large products): for
// callers that already run several products in parallel, such as a
// batched matrix multiply.
func SgemmSerial(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	im := active()
	gemm("Sgemm", im, im.sgemm, false, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Dgemm is Sgemm for float64 matrices.
func Dgemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	im := active()
	gemm("Dgemm", im, im.dgemm, true, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// DgemmSerial is SgemmSerial for float64 matrices.
func DgemmSerial(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	im := active()
	gemm("Dgemm", im, im.dgemm, false, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// gemm checks the arguments, handles the products that need no
// multiplication, and runs fn: on the library's threads when parallel is
// set and the product is large enough, else on the calling thread (gonum
// decides for itself).
func gemm[T float32 | float64](op string, im *impl, fn gemmFn[T], parallel, transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	checkGemm(op, transA, transB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc)
	if m == 0 || n == 0 {
		return
	}
	if k == 0 || alpha == 0 {
		scale(m, n, beta, c, ldc)
		return
	}
	switch {
	case im.threads == nil:
		fn(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	case parallel:
		threadedGemm(im, fn, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	default:
		serialGemm(fn, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
}

// checkGemm panics unless the arguments describe matrices that fit in their
// slices, so that neither implementation reads or writes out of bounds.
func checkGemm(op string, transA, transB bool, m, n, k, lenA, lda, lenB, ldb, lenC, ldc int) {
	if m < 0 || n < 0 || k < 0 {
		panic(fmt.Sprintf("blas: %s: negative size m=%d n=%d k=%d", op, m, n, k))
	}
	// Rows and columns of A and B as stored.
	ar, ac := m, k
	if transA {
		ar, ac = k, m
	}
	br, bc := k, n
	if transB {
		br, bc = n, k
	}
	checkMatrix(op, "A", ar, ac, lenA, lda)
	checkMatrix(op, "B", br, bc, lenB, ldb)
	checkMatrix(op, "C", m, n, lenC, ldc)
}

func checkMatrix(op, name string, rows, cols, length, ld int) {
	if ld < cols {
		panic(fmt.Sprintf("blas: %s: ld%s=%d is less than the %d columns of %s (%d×%d)",
			op, lowerName(name), ld, cols, name, rows, cols))
	}
	if ld > maxInt32 || rows > maxInt32 || cols > maxInt32 {
		panic(fmt.Sprintf("blas: %s: %s (%d×%d, stride %d) is too large: sizes and strides must fit in 32 bits",
			op, name, rows, cols, ld))
	}
	if rows == 0 || cols == 0 {
		return
	}
	if need := (rows-1)*ld + cols; length < need {
		panic(fmt.Sprintf("blas: %s: %s (%d×%d, stride %d) needs %d elements, the slice has %d",
			op, name, rows, cols, ld, need, length))
	}
}

const maxInt32 = 1<<31 - 1

func lowerName(s string) string {
	switch s {
	case "A":
		return "a"
	case "B":
		return "b"
	}
	return "c"
}

// scale sets C = beta*C for an m×n matrix C with row stride ldc, writing
// zeros (not 0*C, which keeps NaN) when beta is zero, as BLAS does.
func scale[T float32 | float64](m, n int, beta T, c []T, ldc int) {
	if beta == 1 {
		return
	}
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}
