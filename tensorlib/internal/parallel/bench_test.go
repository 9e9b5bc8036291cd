package parallel

import (
	"runtime"
	"testing"
)

const benchN = 16 << 20

var (
	benchA = make([]float32, benchN)
	benchB = make([]float32, benchN)
	benchC = make([]float32, benchN)
	sink   float32
)

func init() {
	for i := range benchA {
		benchA[i] = float32(i%1000) / 1000
		benchB[i] = 1 - benchA[i]
	}
}

func addRange(lo, hi int) {
	a, b, c := benchA[lo:hi], benchB[lo:hi], benchC[lo:hi]
	for i := range c {
		c[i] = a[i] + b[i]
	}
}

func sumRange(lo, hi int) float32 {
	var s0, s1, s2, s3 float32
	a := benchA[lo:hi]
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i]
		s1 += a[i+1]
		s2 += a[i+2]
		s3 += a[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i]
	}
	return s0 + s1 + s2 + s3
}

// BenchmarkAdd16M compares c = a + b on 16M float32 elements run serially
// and through For.
func BenchmarkAdd16M(b *testing.B) {
	b.Run("serial", func(b *testing.B) {
		b.SetBytes(3 * 4 * benchN)
		for b.Loop() {
			addRange(0, benchN)
		}
	})
	b.Run("For", func(b *testing.B) {
		b.SetBytes(3 * 4 * benchN)
		for b.Loop() {
			For(benchN, 1<<15, addRange)
		}
	})
}

// BenchmarkSum16M compares summing 16M float32 elements serially and
// through For, one partial sum per block.
func BenchmarkSum16M(b *testing.B) {
	b.Run("serial", func(b *testing.B) {
		b.SetBytes(4 * benchN)
		for b.Loop() {
			sink = sumRange(0, benchN)
		}
	})
	b.Run("For", func(b *testing.B) {
		b.SetBytes(4 * benchN)
		const block = 1 << 16
		partial := make([]float32, benchN/block)
		for b.Loop() {
			For(len(partial), 1, func(lo, hi int) {
				for j := lo; j < hi; j++ {
					partial[j] = sumRange(j*block, (j+1)*block)
				}
			})
			var s float32
			for _, p := range partial {
				s += p
			}
			sink = s
		}
	})
	b.Logf("GOMAXPROCS=%d", runtime.GOMAXPROCS(0))
}
