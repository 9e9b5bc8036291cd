//go:build cgo

package emu

import (
	"math"
	"testing"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/tensorlib/backend"
)

// TestGemmHalf checks the GemmEx model: 16-bit A and B (here values
// exactly representable in both formats), products summed without loss
// (the sums below are exact in float32), C rounded once to 16 bits, and
// the elements of C's leading-dimension padding left alone.
func TestGemmHalf(t *testing.T) {
	d := New(Options{})
	defer d.Close()
	g := driver.GemmArgs{TransB: true, M: 3, N: 4, K: 5, LDA: 3, LDB: 4, LDC: 5, Alpha: 1, Batch: 2, StrideA: 15, StrideB: 20, StrideC: 20}
	for _, h := range []driver.Half{driver.BF16, driver.F16} {
		g.Half = h
		a, b, c := make([]float64, 30), make([]float64, 40), make([]float64, 40)
		for k := range a {
			a[k] = float64(k%7-3) * 0.25
		}
		for k := range b {
			b[k] = float64(k%5-2) * 0.5
		}
		for k := range c {
			c[k] = 7 // padding rows must keep it
		}
		want := append([]float64(nil), c...)
		naiveGemm(g, a, b, want)
		bits := func(v []float64) []uint16 {
			out := make([]uint16, len(v))
			for i, x := range v {
				if h == driver.BF16 {
					out[i] = uint16(backend.BF16FromFloat32(float32(x)))
				} else {
					out[i] = uint16(backend.F16FromFloat32(float32(x)))
				}
			}
			return out
		}
		g.A, g.B, g.C = upload(t, d, bits(a)), upload(t, d, bits(b)), upload(t, d, bits(c))
		if err := d.Gemm(g); err != nil {
			t.Fatal(err)
		}
		got := download[uint16](t, d, g.C, len(c))
		for k, w := range bits(want) {
			if got[k] != w {
				t.Fatalf("half %d: C[%d] = %#04x, want %#04x (%v)", h, k, got[k], w, want[k])
			}
		}
	}
}

// TestGemmHalfRoundsOnce checks that C is the float32 sum rounded once:
// 1 + 2⁻⁸ + 2⁻⁸ is 1 + 2⁻⁷ in float32, which bfloat16 keeps, where
// rounding after each addition would give 1 (1 + 2⁻⁸ is a tie, to even).
func TestGemmHalfRoundsOnce(t *testing.T) {
	d := New(Options{})
	defer d.Close()
	one := uint16(backend.BF16FromFloat32(1))
	tiny := uint16(backend.BF16FromFloat32(1.0 / 256))
	g := driver.GemmArgs{Half: driver.BF16, M: 1, N: 1, K: 3, LDA: 1, LDB: 3, LDC: 1, Alpha: 1, Batch: 1}
	g.A, g.B, g.C = upload(t, d, []uint16{one, tiny, tiny}), upload(t, d, []uint16{one, one, one}), upload(t, d, []uint16{0})
	if err := d.Gemm(g); err != nil {
		t.Fatal(err)
	}
	if got, want := backend.BF16(download[uint16](t, d, g.C, 1)[0]).Float32(), float32(1+1.0/128); got != want {
		t.Errorf("C = %v, want %v", got, want)
	}
}

// TestGemmTF32 checks that a TF32 GEMM rounds its inputs to 10 mantissa
// bits, to nearest with ties away from zero, and sums in float32.
func TestGemmTF32(t *testing.T) {
	d := New(Options{})
	defer d.Close()
	x := float32(1 + 1.0/2048 + 1.0/(1<<20)) // just above the tie between 1 and 1+2⁻¹⁰
	tie := float32(1 + 1.0/2048)             // a tie: away from zero
	low := float32(1 + 1.0/4096)             // below half a unit: down
	for _, c := range []struct {
		in, want float32
	}{{x, 1 + 1.0/1024}, {tie, 1 + 1.0/1024}, {-tie, -(1 + 1.0/1024)}, {low, 1}} {
		g := driver.GemmArgs{TF32: true, M: 1, N: 1, K: 1, LDA: 1, LDB: 1, LDC: 1, Alpha: 1, Batch: 1}
		g.A, g.B, g.C = upload(t, d, []float32{c.in}), upload(t, d, []float32{1}), upload(t, d, []float32{0})
		if err := d.Gemm(g); err != nil {
			t.Fatal(err)
		}
		if got := download[float32](t, d, g.C, 1)[0]; got != c.want {
			t.Errorf("TF32 %v·1 = %v, want %v", c.in, got, c.want)
		}
		if math.IsNaN(float64(tf32(float32(math.NaN())))) == false || tf32(float32(math.Inf(1))) != float32(math.Inf(1)) {
			t.Error("tf32 changes NaN or Inf")
		}
	}
}
