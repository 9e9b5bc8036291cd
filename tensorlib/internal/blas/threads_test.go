package blas

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/gotensor/gotensor/internal/testenv"
)

// TestThreadedGemm checks products large enough for the library's threads,
// in every transpose combination, with padded strides and a nonzero beta,
// against the naive product, while other goroutines multiply on one
// thread.
func TestThreadedGemm(t *testing.T) {
	if err := loadOpenBLAS(); err != nil {
		testenv.Missing(t, "OpenBLAS is missing (scripts/setup.sh installs libopenblas0-pthread): %v", err)
	}
	if openblasImpl.threads == nil {
		t.Skip("OpenBLAS runs on the threads OPENBLAS_NUM_THREADS sets")
	}
	using(t, openblasImpl)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	rng := rand.New(rand.NewPCG(7, 8))
	// Small products on other goroutines, checked when the large ones are
	// done.
	small := toFloat32(randSlice(rng, 40*30))
	want := make([]float64, 40*40)
	naiveGemm(false, true, 40, 40, 30, 1, toFloat64(small), 30, toFloat64(small), 30, 0, want, 40)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	results := make([][]float32, 2)
	for g := range results {
		results[g] = make([]float32, 40*40)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				SgemmSerial(false, true, 40, 40, 30, 1, small, 30, small, 30, 0, results[g], 40)
			}
		}()
	}
	defer func() {
		close(stop)
		wg.Wait()
		for _, c := range results {
			checkClose(t, "small product beside the large ones", toFloat64(c), want, want, 40, 40, 1e-5)
		}
	}()
	for _, s := range [][3]int{{301, 97, 81}, {23, 333, 301}, {128, 256, 784}} {
		m, n, k := s[0], s[1], s[2]
		if m*n*k < threadMinWork {
			t.Fatalf("%v: too small for the threads", s)
		}
		for _, ta := range []bool{false, true} {
			for _, tb := range []bool{false, true} {
				name := fmt.Sprintf("m=%d n=%d k=%d transA=%v transB=%v", m, n, k, ta, tb)
				ar, _, lda := stored(ta, m, k, 3)
				br, _, ldb := stored(tb, k, n, 1)
				ldc := n + 2
				a, b := randSlice(rng, matLen(ar, lda)), randSlice(rng, matLen(br, ldb))
				c := randSlice(rng, matLen(m, ldc))
				want := append([]float64(nil), c...)
				naiveGemm(ta, tb, m, n, k, 0.5, a, lda, b, ldb, -1.5, want, ldc)
				got := append([]float64(nil), c...)
				Dgemm(ta, tb, m, n, k, 0.5, a, lda, b, ldb, -1.5, got, ldc)
				checkClose(t, name+" Dgemm", got, want, c, n, ldc, 1e-12)

				a32, b32, c32 := toFloat32(a), toFloat32(b), toFloat32(c)
				want32 := toFloat64(c32)
				naiveGemm(ta, tb, m, n, k, 0.5, toFloat64(a32), lda, toFloat64(b32), ldb, -1.5, want32, ldc)
				Sgemm(ta, tb, m, n, k, 0.5, a32, lda, b32, ldb, -1.5, c32, ldc)
				checkClose(t, name+" Sgemm", toFloat64(c32), want32, toFloat64(toFloat32(c)), n, ldc, 2e-5)
			}
		}
	}
}

// TestThreadCounts checks the thread counts a product runs on: GOMAXPROCS
// for Sgemm's large products, set back to 1 after, and none set (the one
// thread stays) for small products and SgemmSerial.
func TestThreadCounts(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	var set []int
	running := 0
	im := &impl{name: "fake", threads: func(n int) { set = append(set, n); running = n }}
	ran := []int{}
	im.sgemm = func(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
		ran = append(ran, max(running, 1))
	}
	using(t, im)
	big, small := make([]float32, 128*128), make([]float32, 64*64)
	Sgemm(false, false, 128, 128, 128, 1, big, 128, big, 128, 0, big, 128)
	Sgemm(false, false, 64, 64, 64, 1, small, 64, small, 64, 0, small, 64)
	SgemmSerial(false, false, 128, 128, 128, 1, big, 128, big, 128, 0, big, 128)
	if fmt.Sprint(set) != "[3 1]" || fmt.Sprint(ran) != "[3 1 1]" {
		t.Errorf("threads set %v, products ran on %v threads; want [3 1] and [3 1 1]", set, ran)
	}
}
