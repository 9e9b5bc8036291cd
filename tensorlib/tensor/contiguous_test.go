package tensor

import "testing"

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
