package blas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/internal/testenv"
)

// impls returns the implementations this machine can run. OpenBLAS is
// skipped (or fails the test when GOTENSOR_REQUIRE_TOOLS=1, see
// internal/testenv) when it cannot be loaded.
func impls(t testing.TB) []*impl {
	active()
	out := []*impl{&gonumImpl}
	if err := loadOpenBLAS(); err != nil {
		if testenv.Required() {
			t.Fatalf("OpenBLAS required (scripts/setup.sh installs libopenblas0-pthread): %v", err)
		}
		t.Logf("testing gonum only: %v", err)
		return out
	}
	return append(out, openblasImpl)
}

// using makes im the implementation in use until the test ends.
func using(t testing.TB, im *impl) {
	active()
	old := current
	current = im
	t.Cleanup(func() { current = old })
}

// naiveGemm computes alpha*op(A)*op(B) + beta*C in float64 with a triple
// loop, reading the row-major matrices element by element.
func naiveGemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for p := 0; p < k; p++ {
				var av, bv float64
				if transA {
					av = a[p*lda+i]
				} else {
					av = a[i*lda+p]
				}
				if transB {
					bv = b[j*ldb+p]
				} else {
					bv = b[p*ldb+j]
				}
				s += av * bv
			}
			if beta == 0 {
				c[i*ldc+j] = alpha * s
			} else {
				c[i*ldc+j] = alpha*s + beta*c[i*ldc+j]
			}
		}
	}
}

type gemmCase struct {
	transA, transB bool
	m, n, k        int
	pad            int // extra elements at the end of every stored row
	alpha, beta    float64
}

func gemmCases() []gemmCase {
	var cases []gemmCase
	sizes := [][3]int{{1, 1, 1}, {3, 5, 7}, {17, 9, 33}, {64, 65, 66}, {0, 3, 4}, {3, 0, 4}, {3, 4, 0}, {1, 40, 1}}
	scales := [][2]float64{{1, 0}, {0.5, -1.5}, {0, 2}, {-2, 1}}
	for si, s := range sizes {
		for _, ta := range []bool{false, true} {
			for _, tb := range []bool{false, true} {
				sc := scales[(si+len(cases))%len(scales)]
				cases = append(cases, gemmCase{ta, tb, s[0], s[1], s[2], (si % 3) * 2, sc[0], sc[1]})
			}
		}
	}
	return cases
}

// stored returns the rows, columns and stride of an m×k (k×m when trans)
// matrix with pad extra elements per row.
func stored(trans bool, r, c, pad int) (rows, cols, ld int) {
	if trans {
		r, c = c, r
	}
	return r, c, c + pad
}

func randSlice(rng *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 2*rng.Float64() - 1
	}
	return s
}

func toFloat32(s []float64) []float32 {
	out := make([]float32, len(s))
	for i, v := range s {
		out[i] = float32(v)
	}
	return out
}

func toFloat64(s []float32) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = float64(v)
	}
	return out
}

// matLen is the slice length for a rows×cols matrix with stride ld, padding
// included on the last row too.
func matLen(rows, ld int) int { return rows * ld }

func TestGemmAgainstNaive(t *testing.T) {
	for _, im := range impls(t) {
		t.Run(im.name, func(t *testing.T) {
			using(t, im)
			rng := rand.New(rand.NewPCG(1, 2))
			for i, tc := range gemmCases() {
				ar, _, lda := stored(tc.transA, tc.m, tc.k, tc.pad)
				br, _, ldb := stored(tc.transB, tc.k, tc.n, tc.pad+1)
				ldc := tc.n + tc.pad + 3
				a := randSlice(rng, matLen(ar, lda))
				b := randSlice(rng, matLen(br, ldb))
				c := randSlice(rng, matLen(tc.m, ldc))
				if tc.beta == 0 && len(c) > 0 {
					c[0] = math.NaN() // beta == 0 must overwrite, not propagate NaN
				}
				want := append([]float64(nil), c...)
				naiveGemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, a, lda, b, ldb, tc.beta, want, ldc)

				got64 := append([]float64(nil), c...)
				Dgemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, a, lda, b, ldb, tc.beta, got64, ldc)
				checkClose(t, fmt.Sprintf("case %d %+v Dgemm", i, tc), got64, want, c, tc.n, ldc, 1e-12)

				// Reference for float32 from the float32-rounded inputs.
				a32, b32, c32 := toFloat32(a), toFloat32(b), toFloat32(c)
				want32 := toFloat64(c32)
				naiveGemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, toFloat64(a32), lda, toFloat64(b32), ldb, tc.beta, want32, ldc)
				Sgemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, float32(tc.alpha), a32, lda, b32, ldb, float32(tc.beta), c32, ldc)
				checkClose(t, fmt.Sprintf("case %d %+v Sgemm", i, tc), toFloat64(c32), want32, toFloat64(toFloat32(c)), tc.n, ldc, 2e-5)
			}
		})
	}
}

// checkClose compares got with want inside each row's first n columns and
// checks that the padding past column n still holds orig.
func checkClose(t *testing.T, name string, got, want, orig []float64, n, ldc int, tol float64) {
	t.Helper()
	for i := range got {
		if i%ldc >= n {
			if got[i] != orig[i] && !(math.IsNaN(got[i]) && math.IsNaN(orig[i])) {
				t.Fatalf("%s: padding element %d changed from %v to %v", name, i, orig[i], got[i])
			}
			continue
		}
		if d := math.Abs(got[i] - want[i]); !(d <= tol*(1+math.Abs(want[i]))) {
			t.Fatalf("%s: element (%d, %d) = %v, want %v", name, i/ldc, i%ldc, got[i], want[i])
		}
	}
}

func TestGemmHandComputed(t *testing.T) {
	// [1 2 3; 4 5 6] @ [7 8; 9 10; 11 12] = [58 64; 139 154]
	for _, im := range impls(t) {
		t.Run(im.name, func(t *testing.T) {
			using(t, im)
			a := []float32{1, 2, 3, 4, 5, 6}
			b := []float32{7, 8, 9, 10, 11, 12}
			c := make([]float32, 4)
			Sgemm(false, false, 2, 2, 3, 1, a, 3, b, 2, 0, c, 2)
			want := []float32{58, 64, 139, 154}
			for i := range c {
				if c[i] != want[i] {
					t.Fatalf("Sgemm = %v, want %v", c, want)
				}
			}
			// A^T stored as 3×2: [1 4; 2 5; 3 6]; B^T stored as 2×3.
			at := []float64{1, 4, 2, 5, 3, 6}
			bt := []float64{7, 9, 11, 8, 10, 12}
			d := []float64{1, 1, 1, 1}
			Dgemm(true, true, 2, 2, 3, 2, at, 2, bt, 3, 10, d, 2)
			wantD := []float64{126, 138, 288, 318}
			for i := range d {
				if d[i] != wantD[i] {
					t.Fatalf("Dgemm = %v, want %v", d, wantD)
				}
			}
		})
	}
}

func TestGemmPanics(t *testing.T) {
	f := make([]float32, 6)
	tests := []struct {
		name string
		call func()
		msg  string
	}{
		{"negative", func() { Sgemm(false, false, -1, 2, 2, 1, f, 2, f, 2, 0, f, 2) }, "blas: Sgemm: negative size m=-1"},
		{"lda", func() { Sgemm(false, false, 2, 2, 3, 1, f, 2, f, 2, 0, f, 2) }, "blas: Sgemm: lda=2 is less than the 3 columns of A (2×3)"},
		{"ldb trans", func() { Sgemm(false, true, 2, 3, 2, 1, f, 2, f, 1, 0, f, 3) }, "blas: Sgemm: ldb=1 is less than the 2 columns of B (3×2)"},
		{"short C", func() { Sgemm(false, false, 3, 3, 2, 1, f, 2, f, 3, 0, f, 3) }, "blas: Sgemm: C (3×3, stride 3) needs 9 elements, the slice has 6"},
		{"short A", func() {
			Dgemm(true, false, 2, 2, 4, 1, make([]float64, 7), 2, make([]float64, 8), 2, 0, make([]float64, 4), 2)
		}, "blas: Dgemm: A (4×2, stride 2) needs 8 elements, the slice has 7"},
	}
	for _, im := range impls(t) {
		using(t, im)
		for _, tc := range tests {
			t.Run(im.name+"/"+tc.name, func(t *testing.T) {
				defer func() {
					r := recover()
					s, _ := r.(string)
					if !strings.HasPrefix(s, tc.msg) {
						t.Fatalf("panic %q, want prefix %q", r, tc.msg)
					}
				}()
				tc.call()
			})
		}
	}
}

func TestChooseHonoursEnv(t *testing.T) {
	active()
	old := current
	defer func() { current = old }()

	t.Setenv("GOTENSOR_BLAS", "gonum")
	choose()
	if current.name != Gonum {
		t.Fatalf("GOTENSOR_BLAS=gonum chose %q", current.name)
	}
	t.Setenv("GOTENSOR_BLAS", "")
	choose()
	want := Gonum
	if loadOpenBLAS() == nil {
		want = OpenBLAS
	}
	if current.name != want {
		t.Fatalf("default choice %q, want %q", current.name, want)
	}
}

func TestUse(t *testing.T) {
	active()
	old := current
	defer func() { current = old }()
	if err := Use(Gonum); err != nil || Implementation() != Gonum {
		t.Fatalf("Use(gonum) = %v, Implementation() = %q", err, Implementation())
	}
	err := Use(OpenBLAS)
	if (err == nil) != (loadOpenBLAS() == nil) {
		t.Fatalf("Use(openblas) = %v but loadOpenBLAS() = %v", err, loadOpenBLAS())
	}
	if err == nil && Implementation() != OpenBLAS {
		t.Fatalf("after Use(openblas), Implementation() = %q", Implementation())
	}
	if err := Use("mkl"); err == nil || !strings.Contains(err.Error(), `unknown implementation "mkl"`) {
		t.Fatalf("Use(mkl) = %v, want an unknown implementation error", err)
	}
}

func benchSgemm(b *testing.B, m, n, k int) {
	for _, im := range impls(b) {
		b.Run(im.name, func(b *testing.B) {
			using(b, im)
			rng := rand.New(rand.NewPCG(3, 4))
			a := toFloat32(randSlice(rng, m*k))
			bb := toFloat32(randSlice(rng, k*n))
			c := make([]float32, m*n)
			b.SetBytes(0)
			b.ResetTimer()
			for b.Loop() {
				Sgemm(false, false, m, n, k, 1, a, k, bb, n, 0, c, n)
			}
			b.ReportMetric(2*float64(m)*float64(n)*float64(k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkSgemmMNIST is the first layer of an MNIST MLP on a batch of 128.
func BenchmarkSgemmMNIST(b *testing.B) { benchSgemm(b, 128, 256, 784) }

func BenchmarkSgemm1024(b *testing.B) { benchSgemm(b, 1024, 1024, 1024) }

func BenchmarkSgemmTiny(b *testing.B) { benchSgemm(b, 4, 4, 4) }

// TestGemmConcurrent calls Sgemm from several goroutines at once, as a
// batched matrix multiply may, and checks every result.
func TestGemmConcurrent(t *testing.T) {
	for _, im := range impls(t) {
		t.Run(im.name, func(t *testing.T) {
			using(t, im)
			const m, n, k, calls = 48, 40, 56, 8
			rng := rand.New(rand.NewPCG(5, 6))
			a, b := randSlice(rng, m*k), randSlice(rng, k*n)
			want := make([]float64, m*n)
			naiveGemm(false, false, m, n, k, 1, a, k, b, n, 0, want, n)
			a32, b32 := toFloat32(a), toFloat32(b)
			results := make([][]float32, calls)
			done := make(chan struct{})
			for i := range results {
				results[i] = make([]float32, m*n)
				go func() {
					defer func() { done <- struct{}{} }()
					Sgemm(false, false, m, n, k, 1, a32, k, b32, n, 0, results[i], n)
				}()
			}
			for range results {
				<-done
			}
			for i, c := range results {
				checkClose(t, fmt.Sprintf("call %d", i), toFloat64(c), want, want, n, n, 1e-5)
			}
		})
	}
}
