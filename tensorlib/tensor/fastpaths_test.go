package tensor

// Tests of the CPU backend's fast paths (package cpu), through the tensor
// API: tiled transposes, 2×2 pooling, stride-1 im2col, block copies.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestContiguousTransposed checks the tiled copy of transposed views:
// element (i, j) of x.T() is x's (j, i), also with a batch dim, an offset,
// and sizes that are not multiples of the tile.
func TestContiguousTransposed(t *testing.T) {
	for _, s := range [][2]int{{64, 100}, {33, 70}, {100, 31}} {
		r, c := s[0], s[1]
		x := arange(r, c)
		got := x.T().Contiguous().Float32s()
		for i := 0; i < c; i++ {
			for j := 0; j < r; j++ {
				if v := got[i*r+j]; v != float32(j*c+i) {
					t.Fatalf("%dx%d: T()[%d,%d] = %v, want %v", r, c, i, j, v, j*c+i)
				}
			}
		}
	}
	const b, r, c = 3, 40, 50
	x := arange(b+1, r, c).Narrow(0, 1, b) // offset r*c
	got := x.Transpose(1, 2).Contiguous().Float32s()
	for k := 0; k < b; k++ {
		for i := 0; i < c; i++ {
			for j := 0; j < r; j++ {
				want := float32((k+1)*r*c + j*c + i)
				if v := got[(k*c+i)*r+j]; v != want {
					t.Fatalf("batch %d: [%d,%d] = %v, want %v", k, i, j, v, want)
				}
			}
		}
	}
}

// TestMaxPool2x2 checks the 2×2, stride 2 fast paths: the first maximum
// wins ties, NaN wins, and odd sizes drop the last row and column.
func TestMaxPool2x2(t *testing.T) {
	nan := math.NaN()
	for _, dt := range []DType{Float32, Float64} {
		x := FromFloat64s([]float64{
			1, 3, 2, 2, 5,
			3, 0, 2, nan, 9,
			-1, -1, 7, 7, 0,
			-1, -1, 7, 8, 0,
			4, 4, 4, 4, 4,
		}, 1, 1, 5, 5).AsType(dt).SetRequiresGrad(true)
		y := x.MaxPool2d([2]int{2, 2}, [2]int{2, 2}, [2]int{0, 0})
		checkT(t, fmt.Sprint(dt, " MaxPool2d"), y, []int{1, 1, 2, 2}, dt, f64{3, nan, -1, 8})
		// The gradient marks each window's winner: (0,1), (1,3), (2,0), (3,3).
		y.Sum().Backward()
		g := make([]float64, 25)
		g[1], g[8], g[10], g[18] = 1, 1, 1, 1
		checkT(t, fmt.Sprint(dt, " MaxPool2d grad"), x.Grad(), []int{1, 1, 5, 5}, dt, g)
	}
}

// TestMaxPool2x2Random compares the fast path with a direct search on
// random planes with repeated values.
func TestMaxPool2x2Random(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	const n, c, h, w = 3, 5, 9, 12
	data := make([]float32, n*c*h*w)
	for i := range data {
		data[i] = float32(rng.IntN(5))
	}
	y := FromFloat32s(data, n, c, h, w).MaxPool2d([2]int{2, 2}, [2]int{0, 0}, [2]int{0, 0}).Float32s()
	oh, ow := h/2, w/2
	for p := 0; p < n*c; p++ {
		for i := 0; i < oh; i++ {
			for j := 0; j < ow; j++ {
				want := float32(math.Inf(-1))
				for di := 0; di < 2; di++ {
					for dj := 0; dj < 2; dj++ {
						want = max(want, data[p*h*w+(2*i+di)*w+2*j+dj])
					}
				}
				if got := y[p*oh*ow+i*ow+j]; got != want {
					t.Fatalf("plane %d window (%d,%d) = %v, want %v", p, i, j, got, want)
				}
			}
		}
	}
}

// TestUnfold2dPadded checks the stride-1 fast path of im2col and col2im
// with padding and dilation against a direct computation: Unfold2d's
// element (c*KH*KW + i*KW + j, oh*OW + ow) is x[c, oh-P+i*D, ow-P+j*D] or
// 0 outside, and Unfold2d's gradient counts how often each input is read.
func TestUnfold2dPadded(t *testing.T) {
	const c, h, w, k, p, d = 2, 5, 6, 3, 2, 2
	x := arange(1, c, h, w).SetRequiresGrad(true)
	cols := x.Unfold2d([2]int{k, k}, [2]int{1, 1}, [2]int{p, p}, [2]int{d, d})
	oh, ow := h+2*p-d*(k-1), w+2*p-d*(k-1)
	got := cols.Float32s()
	count := make([]float64, c*h*w)
	for ch := 0; ch < c; ch++ {
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				for y := 0; y < oh; y++ {
					for z := 0; z < ow; z++ {
						hy, wz := y-p+i*d, z-p+j*d
						want := float32(0)
						if hy >= 0 && hy < h && wz >= 0 && wz < w {
							want = float32(ch*h*w + hy*w + wz)
							count[ch*h*w+hy*w+wz]++
						}
						if g := got[((ch*k+i)*k+j)*oh*ow+y*ow+z]; g != want {
							t.Fatalf("cols[%d,%d,%d][%d,%d] = %v, want %v", ch, i, j, y, z, g, want)
						}
					}
				}
			}
		}
	}
	cols.Sum().Backward()
	checkT(t, "Unfold2d grad", x.Grad(), []int{1, c, h, w}, Float32, count)
}

// TestIndexSelectContiguous checks the block-copy path on a contiguous
// view with an offset, along the first and a middle dim.
func TestIndexSelectContiguous(t *testing.T) {
	x := arange(5, 3, 2).Narrow(0, 1, 4) // rows 1..4 of [5 3 2], contiguous, offset 6
	idx := FromInt64s([]int64{3, 0, 3})
	checkT(t, "dim 0", x.IndexSelect(0, idx), []int{3, 3, 2}, Float32,
		f64{24, 25, 26, 27, 28, 29, 6, 7, 8, 9, 10, 11, 24, 25, 26, 27, 28, 29})
	checkT(t, "dim 1", x.IndexSelect(1, FromInt64s([]int64{2, 0})), []int{4, 2, 2}, Float32,
		f64{10, 11, 6, 7, 16, 17, 12, 13, 22, 23, 18, 19, 28, 29, 24, 25})
	err := mustPanic(t, func() { x.IndexSelect(0, FromInt64s([]int64{4})) })
	if _, ok := err.(*IndexError); !ok {
		t.Errorf("out-of-range index: %T %v, want *IndexError", err, err)
	}
}
