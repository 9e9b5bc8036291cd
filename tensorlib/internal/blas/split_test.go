package blas

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
)

// TestSplitGemm checks products large enough for splitGemm, split by rows
// (m >= n) and by columns (n > m), in every transpose combination, with
// padded strides and a nonzero beta, against the naive product.
func TestSplitGemm(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	sizes := [][3]int{{301, 37, 29}, {23, 333, 41}, {64, 64, 64}}
	for _, im := range impls(t) {
		rng := rand.New(rand.NewPCG(7, 8))
		for _, s := range sizes {
			m, n, k := s[0], s[1], s[2]
			if m*n*k < splitMinWork {
				t.Fatalf("%v: product too small to split", s)
			}
			for _, ta := range []bool{false, true} {
				for _, tb := range []bool{false, true} {
					name := fmt.Sprintf("%s m=%d n=%d k=%d transA=%v transB=%v", im.name, m, n, k, ta, tb)
					ar, _, lda := stored(ta, m, k, 3)
					br, _, ldb := stored(tb, k, n, 1)
					ldc := n + 2
					a, b := randSlice(rng, matLen(ar, lda)), randSlice(rng, matLen(br, ldb))
					c := randSlice(rng, matLen(m, ldc))
					want := append([]float64(nil), c...)
					naiveGemm(ta, tb, m, n, k, 0.5, a, lda, b, ldb, -1.5, want, ldc)

					got := append([]float64(nil), c...)
					if !splitGemm(im.dgemm, ta, tb, m, n, k, 0.5, a, lda, b, ldb, -1.5, got, ldc) {
						t.Fatalf("%s: splitGemm did not split", name)
					}
					checkClose(t, name+" Dgemm", got, want, c, n, ldc, 1e-12)

					a32, b32, c32 := toFloat32(a), toFloat32(b), toFloat32(c)
					want32 := toFloat64(c32)
					naiveGemm(ta, tb, m, n, k, 0.5, toFloat64(a32), lda, toFloat64(b32), ldb, -1.5, want32, ldc)
					splitGemm(im.sgemm, ta, tb, m, n, k, 0.5, a32, lda, b32, ldb, -1.5, c32, ldc)
					checkClose(t, name+" Sgemm", toFloat64(c32), want32, toFloat64(toFloat32(c)), n, ldc, 2e-5)
				}
			}
		}
	}
}

// TestSplitGemmSmall checks that products below splitMinWork, or too
// narrow to cut into aligned parts, are left to the caller.
func TestSplitGemmSmall(t *testing.T) {
	called := false
	f := func(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
		called = true
	}
	a, b, c := make([]float32, 64*64), make([]float32, 64*64), make([]float32, 64*64)
	if splitGemm(f, false, false, 8, 8, 8, 1, a, 8, b, 8, 0, c, 8) || called {
		t.Errorf("8×8×8 product was split")
	}
	if splitGemm(f, false, false, 16, 16, 1<<12, 1, make([]float32, 16<<12), 1<<12, make([]float32, 16<<12), 16, 0, c, 16) || called {
		t.Errorf("16×16 output was split into parts smaller than %d", splitAlign)
	}
}

// TestSplitGemmParts checks that a split product runs as GOMAXPROCS parts
// (which parallel.For runs on as many goroutines), also when the parts,
// rounded up to splitAlign, do not divide the split dimension (784
// columns: 400 + 384).
func TestSplitGemmParts(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	for _, s := range [][3]int{{256, 784, 128}, {784, 256, 128}, {1000, 64, 64}, {1024, 1024, 8}} {
		m, n, k := s[0], s[1], s[2]
		var (
			mu             sync.Mutex
			calls, covered int
		)
		f := func(transA, transB bool, pm, pn, pk int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
			mu.Lock()
			defer mu.Unlock()
			calls++
			covered += pm * pn
		}
		a, b, c := make([]float32, m*k), make([]float32, k*n), make([]float32, m*n)
		if !splitGemm(f, false, false, m, n, k, 1, a, k, b, n, 0, c, n) {
			t.Fatalf("%v: not split", s)
		}
		if calls != 2 || covered != m*n {
			t.Errorf("%v: %d parts covering %d elements, want 2 parts covering %d", s, calls, covered, m*n)
		}
	}
}
