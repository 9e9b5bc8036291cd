package cpu

import (
	"math"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// The CPU backend's fused softmax (backend.Softmax): plain loops over
// slices in parallel, sums in float64.

var _ backend.Softmax = Backend{}

// dimSlices describes a contiguous tensor as outer*inner slices of n
// elements along one dim: slice (o, i) starts at o*n*inner + i, its
// elements inner apart.
type dimSlices struct{ outer, n, inner int }

func newDimSlices(shape []int, dim int) dimSlices {
	s := dimSlices{outer: 1, n: shape[dim], inner: 1}
	for _, v := range shape[:dim] {
		s.outer *= v
	}
	for _, v := range shape[dim+1:] {
		s.inner *= v
	}
	return s
}

// each calls fn for every slice, in parallel, with its first element and
// its stride.
func (s dimSlices) each(fn func(base, stride int)) {
	parallelFor(s.outer*s.inner, max(1, grainElems/(s.n+1)), func(lo, hi int) {
		for r := lo; r < hi; r++ {
			fn(r/s.inner*s.n*s.inner+r%s.inner, s.inner)
		}
	})
}

// Softmax computes each slice's maximum (NaN if any element is NaN) and
// the float64 sum of exp(x - max), then the result.
func (b Backend) Softmax(x backend.Storage, xl backend.Layout, dim int, log bool) backend.Storage {
	xs, off := b.flat(x, xl)
	n := xl.Numel()
	out := newStorage(xs.dtype, n)
	sl := newDimSlices(xl.Shape, dim)
	switch xs.dtype {
	case Float32:
		softmaxSlices(out.f32, xs.f32[off:off+n], sl, log)
	case Float64:
		softmaxSlices(out.f64, xs.f64[off:off+n], sl, log)
	default:
		panic("tensor: Softmax on " + xs.dtype.String())
	}
	return out
}

func softmaxSlices[T float](y, x []T, sl dimSlices, log bool) {
	if sl.inner == 1 {
		parallelFor(sl.outer, max(1, grainElems/(sl.n+1)), func(lo, hi int) {
			for r := lo; r < hi; r++ {
				softmaxRow(y[r*sl.n:(r+1)*sl.n], x[r*sl.n:(r+1)*sl.n], log)
			}
		})
		return
	}
	sl.each(func(base, st int) {
		m := x[base]
		for j := 1; j < sl.n; j++ {
			if v := x[base+j*st]; v > m || v != v {
				m = v
			}
		}
		var s float64
		for j := 0; j < sl.n; j++ {
			s += float64(expT(x[base+j*st] - m))
		}
		if log {
			ls := math.Log(s)
			for j := 0; j < sl.n; j++ {
				y[base+j*st] = T(float64(x[base+j*st]-m) - ls)
			}
			return
		}
		for j := 0; j < sl.n; j++ {
			y[base+j*st] = T(float64(expT(x[base+j*st]-m)) / s)
		}
	})
}

// softmaxRow is softmaxSlices on one contiguous row: the maximum, exp(x -
// max) into y (vectorized for float32), its float64 sum, then the result.
func softmaxRow[T float](y, x []T, log bool) {
	m := rowMax(x)
	for j, v := range x {
		y[j] = v - m
	}
	expInPlace(y)
	var s float64
	for _, v := range y {
		s += float64(v)
	}
	if log {
		ls := math.Log(s)
		for j, v := range x {
			y[j] = T(float64(v-m) - ls)
		}
		return
	}
	for j, v := range y {
		y[j] = T(float64(v) / s)
	}
}

// rowMax returns the maximum of x, or NaN when x holds one.
func rowMax[T float](x []T) T {
	if x32, ok := any(x).([]float32); ok {
		if m, ok := simdExtremumF32(x32, false); ok {
			return T(m)
		}
	}
	m := x[0]
	for _, v := range x[1:] {
		if v > m || v != v {
			m = v
		}
	}
	return m
}

// expInPlace sets x[i] = exp(x[i]) in x's precision.
func expInPlace[T float](x []T) {
	if x32, ok := any(x).([]float32); ok {
		if !simdExpF32(x32, x32) {
			expSlice(x32, x32)
		}
		return
	}
	for i, v := range x {
		x[i] = T(math.Exp(float64(v)))
	}
}

// SoftmaxBackward computes y * (g - sum(g * y)), or g - exp(y) * sum(g)
// for log-softmax, with float64 sums.
func (b Backend) SoftmaxBackward(g backend.Storage, gl backend.Layout, y backend.Storage, yl backend.Layout, dim int, log bool) backend.Storage {
	gs, goff := b.flat(g, gl)
	ys, yoff := b.flat(y, yl)
	n := gl.Numel()
	out := newStorage(gs.dtype, n)
	sl := newDimSlices(gl.Shape, dim)
	switch gs.dtype {
	case Float32:
		softmaxGradSlices(out.f32, gs.f32[goff:goff+n], ys.f32[yoff:yoff+n], sl, log)
	case Float64:
		softmaxGradSlices(out.f64, gs.f64[goff:goff+n], ys.f64[yoff:yoff+n], sl, log)
	default:
		panic("tensor: SoftmaxBackward on " + gs.dtype.String())
	}
	return out
}

func softmaxGradSlices[T float](d, g, y []T, sl dimSlices, log bool) {
	sl.each(func(base, st int) {
		if st == 1 {
			softmaxGradRow(d[base:base+sl.n], g[base:base+sl.n], y[base:base+sl.n], log)
			return
		}
		var s float64
		for j := 0; j < sl.n; j++ {
			i := base + j*st
			if log {
				s += float64(g[i])
			} else {
				s += float64(g[i]) * float64(y[i])
			}
		}
		for j := 0; j < sl.n; j++ {
			i := base + j*st
			if log {
				d[i] = T(float64(g[i]) - float64(expT(y[i]))*s)
			} else {
				d[i] = T(float64(y[i]) * (float64(g[i]) - s))
			}
		}
	})
}

// softmaxGradRow is softmaxGradSlices on one contiguous row.
func softmaxGradRow[T float](d, g, y []T, log bool) {
	g, y = g[:len(d)], y[:len(d)]
	var s float64
	if log {
		for _, v := range g {
			s += float64(v)
		}
		copy(d, y)
		expInPlace(d)
		for i, e := range d {
			d[i] = T(float64(g[i]) - float64(e)*s)
		}
		return
	}
	for i, v := range g {
		s += float64(v) * float64(y[i])
	}
	for i, v := range g {
		d[i] = T(float64(y[i]) * (float64(v) - s))
	}
}
