package backend

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// offsets lists the storage offsets of l's elements in row-major order,
// by plain index arithmetic: the reference the helpers are checked against.
func offsets(l Layout) []int {
	var out []int
	idx := make([]int, len(l.Shape))
	for n := Numel(l.Shape); n > 0; n-- {
		o := l.Offset
		for d, i := range idx {
			o += i * l.Strides[d]
		}
		out = append(out, o)
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < l.Shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return out
}

// randomView returns a view of a random shape: a permutation, a narrowing,
// broadcast (stride 0) and size-1 dims, over some offset.
func randomView(r *rand.Rand, shape []int) Layout {
	l := Contiguous(shape)
	l.Strides = slices.Clone(l.Strides)
	l.Offset = r.IntN(5)
	for d := range l.Strides {
		switch r.IntN(5) {
		case 0:
			l.Strides[d] = 0 // broadcast
		case 1:
			l.Strides[d] *= 2 // every other element
		}
	}
	if len(shape) > 1 && r.IntN(2) == 0 {
		i, j := r.IntN(len(shape)), r.IntN(len(shape))
		l.Shape = slices.Clone(shape)
		l.Shape[i], l.Shape[j] = l.Shape[j], l.Shape[i]
		l.Strides[i], l.Strides[j] = l.Strides[j], l.Strides[i]
	}
	return l
}

func randomShape(r *rand.Rand) []int {
	shape := make([]int, r.IntN(5))
	for i := range shape {
		shape[i] = []int{1, 1, 2, 3, 4}[r.IntN(5)]
	}
	return shape
}

func TestCoalesceVisitsTheSameElements(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		shape := randomShape(r)
		a := randomView(r, shape)
		a.Shape = shape // both operands share the shape
		b := Contiguous(shape)
		merged, st := Coalesce(shape, a, b)
		for j, l := range []Layout{a, b} {
			m := Layout{Shape: merged, Strides: st[j], Offset: l.Offset}
			if got, want := offsets(m), offsets(l); !slices.Equal(got, want) {
				t.Fatalf("case %d, operand %d: %v coalesced to %v: offsets %v, want %v", i, j, l, m, got, want)
			}
		}
		if len(merged) > 1 && b.IsContiguous() && a.IsContiguous() {
			t.Errorf("case %d: contiguous operands kept %d dims", i, len(merged))
		}
	}
}

func TestCoalesce(t *testing.T) {
	for i, tc := range []struct {
		shape   []int
		strides [][]int
		merged  []int
		want    [][]int
	}{
		{[]int{2, 3, 4}, [][]int{{12, 4, 1}}, []int{24}, [][]int{{1}}},
		{[]int{2, 3, 4}, [][]int{{12, 4, 1}, {0, 4, 1}}, []int{2, 12}, [][]int{{12, 1}, {0, 1}}},
		{[]int{3, 1, 4}, [][]int{{1, 99, 3}}, []int{3, 4}, [][]int{{1, 3}}}, // a transpose; the size-1 dim drops
		{[]int{1, 1}, [][]int{{5, 7}}, nil, [][]int{nil}},
		{[]int{2, 0, 3}, [][]int{{0, 3, 1}}, []int{0}, [][]int{{1}}}, // no elements
	} {
		ls := make([]Layout, len(tc.strides))
		for j, s := range tc.strides {
			ls[j] = Layout{Shape: tc.shape, Strides: s}
		}
		merged, st := Coalesce(tc.shape, ls...)
		if !slices.Equal(merged, tc.merged) || fmt.Sprint(st) != fmt.Sprint(tc.want) {
			t.Errorf("case %d: Coalesce(%v, %v) = %v, %v; want %v, %v", i, tc.shape, tc.strides, merged, st, tc.merged, tc.want)
		}
	}
}

func TestSplitReduce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		shape := randomShape(r)
		l := randomView(r, shape)
		var dims []int
		for d := range l.Shape {
			if r.IntN(2) == 0 {
				dims = append(dims, d)
			}
		}
		red := SplitReduce(l, dims)
		// The reference: for each output element in row-major order of
		// the kept dims, the offsets of the elements reduced into it.
		var want [][]int
		keep := Layout{Offset: l.Offset}
		rl := Layout{}
		for d := range l.Shape {
			if slices.Contains(dims, d) {
				rl.Shape, rl.Strides = append(rl.Shape, l.Shape[d]), append(rl.Strides, l.Strides[d])
			} else {
				keep.Shape, keep.Strides = append(keep.Shape, l.Shape[d]), append(keep.Strides, l.Strides[d])
			}
		}
		for _, o := range offsets(keep) {
			rl.Offset = o
			want = append(want, offsets(rl))
		}
		var got [][]int
		kl := Layout{Shape: red.KeptShape, Strides: red.KeptStrides, Offset: red.Offset}
		for _, o := range offsets(kl) {
			got = append(got, offsets(Layout{Shape: red.ReducedShape, Strides: red.ReducedStrides, Offset: o}))
		}
		if red.NumOut == 0 || red.NumReduced == 0 {
			got = nil
			if red.NumOut != 0 {
				got = make([][]int, red.NumOut)
			}
			for j := range want {
				if len(want[j]) == 0 {
					want[j] = nil
				}
			}
		}
		if red.NumOut != Numel(keep.Shape) || red.NumReduced != Numel(rl.Shape) || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("case %d: SplitReduce(%v, %v) = %+v: offsets %v, want %v", i, l, dims, red, got, want)
		}
	}
}

func TestMatrixOperand(t *testing.T) {
	// Every small view: when MatrixOperand accepts it, a GEMM reading
	// element (i, j) at i*ld + j (or, transposed, j*ld + i) reads the
	// view's element; and it accepts the plain and transposed layouts.
	for rows := 1; rows <= 4; rows++ {
		for cols := 1; cols <= 4; cols++ {
			for rs := 0; rs <= 9; rs++ {
				for cs := 0; cs <= 9; cs++ {
					trans, ld, ok := MatrixOperand(rows, cols, rs, cs)
					if !ok {
						continue
					}
					lim := cols
					if trans {
						lim = rows
					}
					if ld < max(1, lim) {
						t.Fatalf("%d×%d strides (%d, %d): ld %d shorter than %d", rows, cols, rs, cs, ld, lim)
					}
					for i := 0; i < rows; i++ {
						for j := 0; j < cols; j++ {
							at := i*ld + j
							if trans {
								at = j*ld + i
							}
							if at != i*rs+j*cs {
								t.Fatalf("%d×%d strides (%d, %d): trans=%v ld=%d reads %d for (%d, %d), want %d",
									rows, cols, rs, cs, trans, ld, at, i, j, i*rs+j*cs)
							}
						}
					}
				}
			}
			if _, _, ok := MatrixOperand(rows, cols, cols, 1); !ok {
				t.Errorf("%d×%d row-major rejected", rows, cols)
			}
			if trans, _, ok := MatrixOperand(rows, cols, 1, rows); !ok || (!trans && rows > 1 && cols > 1) {
				t.Errorf("%d×%d column-major: trans=%v ok=%v", rows, cols, trans, ok)
			}
		}
	}
	// A broadcast row (stride 0 between rows) cannot be read in place.
	if _, _, ok := MatrixOperand(3, 4, 0, 1); ok {
		t.Error("rows with stride 0 accepted")
	}
}

func TestWindowOutputSize(t *testing.T) {
	// torch.nn.Conv2d and MaxPool2d output sizes for these settings.
	for i, tc := range []struct{ n, k, s, p, d, want int }{
		{28, 5, 1, 2, 1, 28}, // "same" 5×5 convolution
		{28, 2, 2, 0, 1, 14}, // 2×2 max pool
		{7, 3, 2, 1, 1, 4},
		{10, 3, 1, 0, 2, 6}, // dilation 2: an effective 5×5 kernel
		{5, 5, 1, 0, 1, 1},
	} {
		if got := OutputSize(tc.n, tc.k, tc.s, tc.p, tc.d); got != tc.want {
			t.Errorf("case %d: OutputSize%v = %d, want %d", i, tc, got, tc.want)
		}
	}
	w := NewWindow([]int{2, 3, 28, 14}, [2]int{5, 2}, [2]int{1, 2}, [2]int{2, 0}, [2]int{1, 1})
	if w != (Window{N: 2, C: 3, H: 28, W: 14, KH: 5, KW: 2, SH: 1, SW: 2, PH: 2, PW: 0, DH: 1, DW: 1, OH: 28, OW: 7}) {
		t.Errorf("NewWindow = %+v", w)
	}
}
