package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// specialF32 returns n float32 values: mostly uniform in [-3, 3), with
// NaN, ±Inf, ±0, a subnormal and large values mixed in.
func specialF32(seed uint64, n int) []float32 {
	rng := rand.New(rand.NewPCG(seed, 1))
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0,
		float32(math.Copysign(0, -1)), 1e-40, -3e38, 100, -100, 88.5, -87.5}
	x := make([]float32, n)
	for i := range x {
		if rng.IntN(8) == 0 {
			x[i] = specials[rng.IntN(len(specials))]
		} else {
			x[i] = 6*rng.Float32() - 3
		}
	}
	return x
}

// sameBits reports whether a and b are the same float32, any NaN
// matching any NaN.
func sameBits(a, b float32) bool {
	if a != a || b != b {
		return a != a && b != b
	}
	return math.Float32bits(a) == math.Float32bits(b)
}

// The vectorized C loops (cgo builds) must give the Go loops' results bit
// for bit. Without cgo the simd functions report false and these tests
// skip.

func TestSimdBinaryMatchesGo(t *testing.T) {
	const n = 1001
	a, b := specialF32(1, n), specialF32(2, n)
	ops := []backend.BinaryOp{backend.OpAdd, backend.OpSub, backend.OpMul, backend.OpDiv, backend.OpMaximum, backend.OpMinimum}
	for _, op := range ops {
		for _, st := range [][2]int{{1, 1}, {1, 0}, {0, 1}} {
			d := make([]float32, n)
			if !simdBinary(op, d, a, st[0], b, st[1]) {
				t.Skip("no vectorized loops in this build")
			}
			for i := range d {
				want := binOne(op, a[i*st[0]], b[i*st[1]])
				if !sameBits(d[i], want) {
					t.Fatalf("%v strides %v: element %d: %v op %v = %v, want %v", op, st, i, a[i*st[0]], b[i*st[1]], d[i], want)
				}
			}
		}
	}
	// float64, one case per op.
	a64, b64 := make([]float64, n), make([]float64, n)
	for i := range a64 {
		a64[i], b64[i] = float64(a[i])*1.1, float64(b[i])
	}
	for _, op := range ops {
		d := make([]float64, n)
		simdBinary(op, d, a64, 1, b64, 1)
		for i := range d {
			want := binOne(op, a64[i], b64[i])
			if d[i] != want && !(d[i] != d[i] && want != want) {
				t.Fatalf("float64 %v: element %d = %v, want %v", op, i, d[i], want)
			}
		}
	}
}

func TestSimdUnaryMatchesGo(t *testing.T) {
	x := specialF32(3, 777)
	d := make([]float32, len(x))
	if !simdExpF32(d, x) {
		t.Skip("no vectorized loops in this build")
	}
	for i, v := range x {
		if want := expf(v); !sameBits(d[i], want) {
			t.Fatalf("exp(%v) = %v, want %v (expf)", v, d[i], want)
		}
	}
	// Arguments from -12 to 12 as well, where sigmoid and tanh change most.
	for i := 0; i < 300; i++ {
		x = append(x, float32(i-150)*0.08)
	}
	d = make([]float32, len(x))
	for _, f := range []struct {
		name string
		simd func(d, x []float32) bool
		want func(float32) float32
	}{
		{"sigmoid", simdSigmoidF32, func(v float32) float32 { return 1 / (1 + expf(-v)) }},
		{"tanh", simdTanhF32, tanhf},
	} {
		f.simd(d, x)
		for i, v := range x {
			if want := f.want(v); !sameBits(d[i], want) {
				t.Fatalf("%s(%v) = %v, want %v", f.name, v, d[i], want)
			}
		}
	}
	simdReluF32(d, x)
	for i, v := range x {
		want := v
		if !(v > 0) && v == v {
			want = 0 // -0 and negatives give +0; NaN stays NaN
		}
		if !sameBits(d[i], want) {
			t.Fatalf("relu(%v) = %v, want %v", v, d[i], want)
		}
	}
}

func TestSimdCompareWhereMatchesGo(t *testing.T) {
	x, y := specialF32(4, 600), specialF32(5, 600)
	c := make([]bool, len(x))
	for _, op := range []backend.CompareOp{backend.OpEq, backend.OpNe, backend.OpLt, backend.OpLe, backend.OpGt, backend.OpGe} {
		for _, s := range []float32{0, 0.5, float32(math.NaN())} {
			if !simdCompareScalarF32(op, c, x, s) {
				t.Skip("no vectorized loops in this build")
			}
			for i, v := range x {
				want := map[backend.CompareOp]bool{backend.OpEq: v == s, backend.OpNe: v != s, backend.OpLt: v < s, backend.OpLe: v <= s, backend.OpGt: v > s, backend.OpGe: v >= s}[op]
				if c[i] != want {
					t.Fatalf("%v(%v, %v) = %v, want %v", op, v, s, c[i], want)
				}
			}
		}
	}
	simdCompareScalarF32(backend.OpGt, c, x, 0)
	for _, st := range [][2]int{{1, 1}, {1, 0}, {0, 1}, {0, 0}} {
		d := make([]float32, len(x))
		simdWhereF32(d, c, x, st[0], y, st[1])
		for i := range d {
			want := y[i*st[1]]
			if c[i] {
				want = x[i*st[0]]
			}
			if !sameBits(d[i], want) {
				t.Fatalf("where strides %v: element %d = %v, want %v", st, i, d[i], want)
			}
		}
	}
}

func TestSimdAdamMatchesGo(t *testing.T) {
	const n = 515
	for _, l2 := range []bool{false, true} {
		p, g := specialF32(6, n), specialF32(7, n)
		for i := range p { // finite parameters and gradients
			if math.IsNaN(float64(p[i])) || math.IsInf(float64(p[i]), 0) {
				p[i] = 0.25
			}
			if math.IsNaN(float64(g[i])) || math.IsInf(float64(g[i]), 0) || math.Abs(float64(g[i])) > 1e3 {
				g[i] = -0.5
			}
		}
		m, v := make([]float32, n), make([]float32, n)
		for i := range m {
			m[i], v[i] = 0.01*float32(i%7), 0.001*float32(i%5)
		}
		wp, wm, wv := append([]float32(nil), p...), append([]float32(nil), m...), append([]float32(nil), v...)
		// Variables, not constants: 1-b1 must round in float32 as in the
		// kernel, not fold exactly.
		var b1, b2, eps, wd, step, inv float32 = 0.9, 0.999, 1e-8, 0.01, 1e-3 / 0.19, 1 / 0.0447
		if !simdAdamF32(p, g, m, v, b1, b2, eps, wd, l2, step, inv) {
			t.Skip("no vectorized loops in this build")
		}
		for i := range wp { // torch.optim.adam's operations, in float32
			gi := g[i]
			if l2 {
				gi += wp[i] * wd
			}
			wm[i] = wm[i]*b1 + gi*(1-b1)
			wv[i] = wv[i]*b2 + gi*gi*(1-b2)
			denom := float32(math.Sqrt(float64(wv[i])))*inv + eps
			wp[i] += -step * (wm[i] / denom)
			if !sameBits(p[i], wp[i]) || !sameBits(m[i], wm[i]) || !sameBits(v[i], wv[i]) {
				t.Fatalf("l2=%v element %d: p, m, v = %v, %v, %v, want %v, %v, %v", l2, i, p[i], m[i], v[i], wp[i], wm[i], wv[i])
			}
		}
	}
}

func TestSimdSumF32(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, n := range []int{256, 257, 1000, 1 << 16} {
		x := make([]float32, n)
		var want float64
		for i := range x {
			x[i] = rng.Float32() - 0.25
			want += float64(x[i])
		}
		got, ok := simdSumF32(x)
		if !ok {
			t.Skip("no vectorized loops in this build")
		}
		if math.Abs(float64(got)-want) > 1e-6*math.Max(1, math.Abs(want)) {
			t.Errorf("n=%d: sum = %v, want %v", n, got, want)
		}
	}
}

func TestSimdIm2colMatchesGo(t *testing.T) {
	windows := []struct{ shape, k, s, p, d [2]int }{
		{[2]int{28, 28}, [2]int{5, 5}, [2]int{1, 1}, [2]int{0, 0}, [2]int{1, 1}},
		{[2]int{7, 9}, [2]int{3, 2}, [2]int{2, 1}, [2]int{1, 2}, [2]int{1, 2}},
		{[2]int{6, 5}, [2]int{2, 3}, [2]int{1, 3}, [2]int{2, 1}, [2]int{2, 1}},
		{[2]int{4, 4}, [2]int{1, 1}, [2]int{1, 1}, [2]int{0, 0}, [2]int{1, 1}},
	}
	for i, w := range windows {
		g := backend.NewWindow([]int{1, 3, w.shape[0], w.shape[1]}, w.k, w.s, w.p, w.d)
		x := specialF32(uint64(10+i), g.C*g.H*g.W)
		rows := g.KH * g.KW * g.OH * g.OW
		cols, want := specialF32(uint64(20+i), g.C*rows), make([]float32, g.C*rows)
		if !simdIm2colF32(cols, x, g) {
			t.Skip("no vectorized loops in this build")
		}
		for c := 0; c < g.C; c++ {
			im2colPlane(want[c*rows:(c+1)*rows], x[c*g.H*g.W:(c+1)*g.H*g.W], g)
		}
		for j := range want {
			if !sameBits(cols[j], want[j]) {
				t.Fatalf("window %d: im2col element %d = %v, want %v", i, j, cols[j], want[j])
			}
		}
		got, wantX := specialF32(uint64(30+i), len(x)), make([]float32, len(x))
		copy(wantX, got)
		simdCol2imF32(got, cols, g)
		for c := 0; c < g.C; c++ {
			col2imPlane(wantX[c*g.H*g.W:(c+1)*g.H*g.W], cols[c*rows:(c+1)*rows], g)
		}
		for j := range wantX {
			if !sameBits(got[j], wantX[j]) {
				t.Fatalf("window %d: col2im element %d = %v, want %v", i, j, got[j], wantX[j])
			}
		}
	}
}

func TestSimdReluGradMatchesGo(t *testing.T) {
	g, y := specialF32(41, 1003), specialF32(42, 1003)
	d, want := make([]float32, len(g)), make([]float32, len(g))
	if !simdReluGradF32(d, g, y) {
		t.Skip("no vectorized loops in this build")
	}
	reluGrad(want, g, y)
	for i := range d {
		if !sameBits(d[i], want[i]) {
			t.Fatalf("element %d: y %v, g %v: %v, want %v", i, y[i], g[i], d[i], want[i])
		}
	}
	simdReluGradF32(g, g, y) // in place
	for i := range d {
		if !sameBits(g[i], want[i]) {
			t.Fatalf("in place, element %d: %v, want %v", i, g[i], want[i])
		}
	}
}

func TestSimdBatchNormMatchesGo(t *testing.T) {
	x, g := specialF32(51, 203), specialF32(52, 203)
	for i := range x { // finite values: the sums of specials are NaN either way
		if x[i] != x[i] || math.IsInf(float64(x[i]), 0) || math.Abs(float64(x[i])) > 1e30 {
			x[i] = 1.5
		}
		if g[i] != g[i] || math.IsInf(float64(g[i]), 0) || math.Abs(float64(g[i])) > 1e30 {
			g[i] = -0.5
		}
	}
	for _, n := range []int{203, 8, 5} {
		s1, s2, ok := simdShiftedSumsF32(x[:n], 0.25)
		if !ok {
			t.Skip("no vectorized loops in this build")
		}
		if w1, w2 := shiftedSumsLoop(x[:n], 0.25); s1 != w1 || s2 != w2 {
			t.Errorf("n=%d: shifted sums %v %v, want %v %v", n, s1, s2, w1, w2)
		}
		rows := make([]float64, 203/n)
		simdRowSumsF32(rows, x, n)
		for r := range rows {
			if want, _ := shiftedSumsLoop(x[r*n:(r+1)*n], 0); rows[r] != want {
				t.Errorf("n=%d: row %d sums to %v, want %v", n, r, rows[r], want)
			}
		}
		sg, sgx, _ := simdGradSumsF32(g[:n], x[:n], 0.75)
		if w1, w2 := gradSumsLoop(g[:n], x[:n], 0.75); sg != w1 || sgx != w2 {
			t.Errorf("n=%d: grad sums %v %v, want %v %v", n, sg, sgx, w1, w2)
		}
	}
	y, want := make([]float32, len(x)), make([]float32, len(x))
	simdNormF32(y, x, 0.3, 1.7, -0.2)
	normLoop(want, x, 0.3, 1.7, -0.2)
	for i := range y {
		if !sameBits(y[i], want[i]) {
			t.Fatalf("norm element %d: %v, want %v", i, y[i], want[i])
		}
	}
	simdNormGradF32(y, g, x, 0.3, 1.1, -0.7, 0.05)
	normGradLoop(want, g, x, 0.3, 1.1, -0.7, 0.05)
	for i := range y {
		if !sameBits(y[i], want[i]) {
			t.Fatalf("norm grad element %d: %v, want %v", i, y[i], want[i])
		}
	}
	simdNormGradF32(g, g, x, 0.3, 1.1, -0.7, 0.05) // in place
	for i := range g {
		if !sameBits(g[i], want[i]) {
			t.Fatalf("norm grad in place, element %d: %v, want %v", i, g[i], want[i])
		}
	}
}

func TestSimdExtremumMatchesGo(t *testing.T) {
	x := specialF32(61, 1003)
	finite := append([]float32(nil), x...)
	for i, v := range finite {
		if v != v {
			finite[i] = -1
		}
	}
	finite[500] = 9 // the maximum, away from lane 0
	for _, xs := range [][]float32{x, finite, finite[:259], finite[3:300]} {
		for _, min := range []bool{false, true} {
			got, ok := simdExtremumF32(xs, min)
			if !ok {
				t.Skip("no vectorized loops in this build")
			}
			if want := extremumLanesLoop(xs, min); !sameBits(got, want) {
				t.Fatalf("n=%d min=%v: %v, want %v", len(xs), min, got, want)
			}
		}
	}
}

func TestSimdAccRowsMatchesGo(t *testing.T) {
	const n = 333
	r := [4][]float32{specialF32(71, n), specialF32(72, n), specialF32(73, n), specialF32(74, n)}
	got, want := make([]float64, n), make([]float64, n)
	for i := range got {
		got[i], want[i] = float64(i)*0.1, float64(i)*0.1
	}
	if !simdAccRows4F32(got, r[0], r[1], r[2], r[3]) {
		t.Skip("no vectorized loops in this build")
	}
	accRows4(want, r[0], r[1], r[2], r[3])
	for i := range got {
		if got[i] != want[i] && !(got[i] != got[i] && want[i] != want[i]) {
			t.Fatalf("element %d: %v, want %v", i, got[i], want[i])
		}
	}
}
