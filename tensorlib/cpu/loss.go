package cpu

import (
	"math"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// CrossEntropy computes each row's logsumexp (max, then the sum of
// exp(x - max) in float64) and the mean of logsumexp - x[label] in
// float64, in one pass over the logits.
func (b Backend) CrossEntropy(logits backend.Storage, ll backend.Layout, labels backend.Storage, lbl backend.Layout) (loss, lse backend.Storage) {
	xs, xo := b.flat(logits, ll)
	ys, yo := b.flat(labels, lbl)
	n, c := ll.Shape[0], ll.Shape[1]
	y := ys.i64[yo : yo+n]
	for _, v := range y {
		if v < 0 || v >= int64(c) {
			panic(indexErr("CrossEntropy", int(v), c, 1))
		}
	}
	out, lses := newStorage(xs.dtype, 1), newStorage(Float64, n)
	var total float64
	switch xs.dtype {
	case Float32:
		total = crossEntropyRows(xs.f32[xo:xo+n*c], y, c, lses.f64)
	case Float64:
		total = crossEntropyRows(xs.f64[xo:xo+n*c], y, c, lses.f64)
	default:
		panic("tensor: CrossEntropy on " + xs.dtype.String())
	}
	out.Set(0, total/float64(n)) // NaN for no rows, as PyTorch
	return out, lses
}

// CrossEntropyBackward sets each row to (exp(x - logsumexp) - onehot) *
// g / N.
func (b Backend) CrossEntropyBackward(g backend.Storage, gl backend.Layout, logits backend.Storage, ll backend.Layout, labels backend.Storage, lbl backend.Layout, lse backend.Storage) backend.Storage {
	xs, xo := b.flat(logits, ll)
	ys, yo := b.flat(labels, lbl)
	n, c := ll.Shape[0], ll.Shape[1]
	scale := store(g).At(gl.Offset) / float64(n)
	out := newStorage(xs.dtype, n*c)
	y, l := ys.i64[yo:yo+n], store(lse).f64
	switch xs.dtype {
	case Float32:
		crossEntropyGradRows(out.f32, xs.f32[xo:xo+n*c], y, c, l, float32(scale))
	case Float64:
		crossEntropyGradRows(out.f64, xs.f64[xo:xo+n*c], y, c, l, scale)
	default:
		panic("tensor: CrossEntropyBackward on " + xs.dtype.String())
	}
	return out
}

// crossEntropyRows sets lse[i] to the logsumexp of row i of x (rows of c)
// and returns the sum over rows of lse[i] - x[i, y[i]].
func crossEntropyRows[T float](x []T, y []int64, c int, lse []float64) float64 {
	var total float64
	for i := range lse {
		row := x[i*c : (i+1)*c]
		m := row[0]
		for _, v := range row[1:] {
			if v > m || v != v {
				m = v
			}
		}
		var s float64
		for _, v := range row {
			s += float64(expT(v - m))
		}
		lse[i] = float64(m) + math.Log(s)
		total += lse[i] - float64(row[y[i]])
	}
	return total
}

// crossEntropyGradRows sets d to (exp(x - lse) - onehot(y)) * scale, row
// by row.
func crossEntropyGradRows[T float](d, x []T, y []int64, c int, lse []float64, scale T) {
	for i, l := range lse {
		row, dr := x[i*c:(i+1)*c], d[i*c:(i+1)*c]
		lt := T(l)
		for j, v := range row {
			dr[j] = expT(v-lt) * scale
		}
		dr[y[i]] -= scale
	}
}

// expT is e**x in T's precision: expf for float32.
func expT[T float](x T) T {
	if x32, ok := any(x).(float32); ok {
		return T(expf(x32))
	}
	return T(math.Exp(float64(x)))
}
