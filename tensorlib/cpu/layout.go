package cpu

import "github.com/gotensor/gotensor/tensorlib/backend"

func cloneInts(s []int) []int { return append([]int(nil), s...) }

// iterRuns describes the joint iteration of several layouts of one shape as
// runs along the innermost dimension of their coalesced form (see
// backend.Coalesce).
type iterRuns struct {
	shape   []int   // outer dimensions (all but the innermost run)
	strides [][]int // per operand, outer strides
	offsets []int   // per operand, base offsets
	inner   int     // length of the innermost run
	istr    []int   // per operand, innermost stride
	total   int
}

func newIterRuns(shape []int, layouts ...backend.Layout) *iterRuns {
	k := len(layouts)
	it := &iterRuns{offsets: make([]int, k), istr: make([]int, k), strides: make([][]int, k), total: backend.Numel(shape)}
	for j, l := range layouts {
		it.offsets[j] = l.Offset
	}
	mshape, mstr := backend.Coalesce(shape, layouts...)
	n := len(mshape)
	if n == 0 {
		it.inner = 1
		return it
	}
	it.inner = mshape[n-1]
	it.shape = mshape[:n-1]
	for j := range layouts {
		it.istr[j] = mstr[j][n-1]
		it.strides[j] = mstr[j][:n-1]
	}
	return it
}

// each calls fn for every run that covers flat output positions [lo, hi):
// pos is the flat position of the run's first element, offs the operands'
// offsets of it (reused between calls), n the run length.
func (it *iterRuns) each(lo, hi int, fn func(pos int, offs []int, n int)) {
	if it.inner == 0 || lo >= hi {
		return
	}
	offs := make([]int, len(it.offsets))
	idx := make([]int, len(it.shape))
	row, col := lo/it.inner, lo%it.inner
	r := row
	for d := len(it.shape) - 1; d >= 0; d-- {
		idx[d] = r % it.shape[d]
		r /= it.shape[d]
	}
	base := make([]int, len(it.offsets))
	for j := range base {
		o := it.offsets[j]
		for d, i := range idx {
			o += i * it.strides[j][d]
		}
		base[j] = o
	}
	pos := lo
	for pos < hi {
		n := min(it.inner-col, hi-pos)
		for j := range offs {
			offs[j] = base[j] + col*it.istr[j]
		}
		fn(pos, offs, n)
		pos += n
		col = 0
		// Advance the outer index.
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			for j := range base {
				base[j] += it.strides[j][d]
			}
			if idx[d] < it.shape[d] {
				break
			}
			for j := range base {
				base[j] -= it.strides[j][d] * it.shape[d]
			}
			idx[d] = 0
		}
	}
}
