package cpu

import (
	"math"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// The CPU backend's fused softmax and layer norm (backend.Softmax,
// backend.LayerNorm): plain loops over slices in parallel, sums in
// float64.

var (
	_ backend.Softmax   = Backend{}
	_ backend.LayerNorm = Backend{}
)

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

// LayerNorm computes each row's mean and biased variance in two float64
// passes, then the result.
func (b Backend) LayerNorm(x backend.Storage, xl backend.Layout, k int, w backend.Storage, wl backend.Layout, bias backend.Storage, bl backend.Layout, eps float64) (y, mean, rstd backend.Storage) {
	xs, off := b.flat(x, xl)
	numel := xl.Numel()
	n := backend.Numel(xl.Shape[len(xl.Shape)-k:])
	rows := backend.Numel(xl.Shape[:len(xl.Shape)-k])
	ws, bs := b.float64sOr(w, wl, n, 1), b.float64sOr(bias, bl, n, 0)
	mu, rs := make([]float64, rows), make([]float64, rows)
	out := newStorage(xs.dtype, numel)
	switch xs.dtype {
	case Float32:
		layerNormRows(out.f32, xs.f32[off:off+numel], n, ws, bs, eps, mu, rs)
	case Float64:
		layerNormRows(out.f64, xs.f64[off:off+numel], n, ws, bs, eps, mu, rs)
	default:
		panic("tensor: LayerNorm on " + xs.dtype.String())
	}
	return out, fromFloat64s(xs.dtype, mu), fromFloat64s(xs.dtype, rs)
}

// layerNormRows normalises the rows of n elements of x into y, setting
// each row's mean and rstd.
func layerNormRows[T float](y, x []T, n int, w, b []float64, eps float64, mu, rs []float64) {
	parallelFor(len(mu), max(1, grainElems/(n+1)), func(lo, hi int) {
		for r := lo; r < hi; r++ {
			xr, yr := x[r*n:(r+1)*n], y[r*n:(r+1)*n]
			var s float64
			for _, v := range xr {
				s += float64(v)
			}
			m := s / float64(n)
			var q float64
			for _, v := range xr {
				d := float64(v) - m
				q += d * d
			}
			rstd := 1 / math.Sqrt(q/float64(n)+eps)
			mu[r], rs[r] = m, rstd
			for j, v := range xr {
				yr[j] = T((float64(v)-m)*rstd*w[j] + b[j])
			}
		}
	})
}

// LayerNormBackward computes x's gradient row by row, rstd * (g*w -
// mean(g*w) - xhat * mean(g*w*xhat)), and w's and b's as float64 sums
// over the rows of g * xhat and g, columns in parallel.
func (b Backend) LayerNormBackward(g backend.Storage, gl backend.Layout, x backend.Storage, xl backend.Layout, k int, mean, rstd backend.Storage, w backend.Storage, wl backend.Layout, need [3]bool) (gx, gw, gb backend.Storage) {
	gs, goff := b.flat(g, gl)
	xs, xoff := b.flat(x, xl)
	numel := xl.Numel()
	n := backend.Numel(xl.Shape[len(xl.Shape)-k:])
	rows := backend.Numel(xl.Shape[:len(xl.Shape)-k])
	ln := layerNormGrad{n: n, mu: b.float64s(mean, backend.Contiguous([]int{rows})),
		rs: b.float64s(rstd, backend.Contiguous([]int{rows})), w: b.float64sOr(w, wl, n, 1)}
	needW, needB := need[1] && w != nil, need[2]
	var out *Storage
	if need[0] {
		out = newStorage(xs.dtype, numel)
		gx = out
	}
	var sw, sb []float64
	if needW || needB {
		sw, sb = make([]float64, n), make([]float64, n)
	}
	switch xs.dtype {
	case Float32:
		var d []float32
		if out != nil {
			d = out.f32
		}
		layerNormGradRows(d, gs.f32[goff:goff+numel], xs.f32[xoff:xoff+numel], ln, sw, sb, needW)
	case Float64:
		var d []float64
		if out != nil {
			d = out.f64
		}
		layerNormGradRows(d, gs.f64[goff:goff+numel], xs.f64[xoff:xoff+numel], ln, sw, sb, needW)
	default:
		panic("tensor: LayerNormBackward on " + xs.dtype.String())
	}
	if needW {
		gw = fromFloat64s(xs.dtype, sw)
	}
	if needB {
		gb = fromFloat64s(xs.dtype, sb)
	}
	return gx, gw, gb
}

// layerNormGrad holds what LayerNormBackward needs of the forward: the
// row length, each row's mean and rstd, and the weight (1s for none).
type layerNormGrad struct {
	n         int
	mu, rs, w []float64
}

// layerNormGradRows writes x's gradient into gx (when not nil) and adds
// the column sums of g * xhat (when needW) and g into sw and sb (when not
// nil).
func layerNormGradRows[T float](gx, g, x []T, ln layerNormGrad, sw, sb []float64, needW bool) {
	n, rows := ln.n, len(ln.mu)
	if gx != nil {
		parallelFor(rows, max(1, grainElems/(n+1)), func(lo, hi int) {
			for r := lo; r < hi; r++ {
				gr, xr, dr := g[r*n:(r+1)*n], x[r*n:(r+1)*n], gx[r*n:(r+1)*n]
				m, rs := ln.mu[r], ln.rs[r]
				var sa, sx float64
				for j, v := range gr {
					gw := float64(v) * ln.w[j]
					sa += gw
					sx += gw * (float64(xr[j]) - m) * rs
				}
				ca, cx := sa/float64(n), sx/float64(n)
				for j, v := range gr {
					dr[j] = T(rs * (float64(v)*ln.w[j] - ca - (float64(xr[j])-m)*rs*cx))
				}
			}
		})
	}
	if sb == nil {
		return
	}
	parallelFor(n, max(1, grainElems/(rows+1)), func(lo, hi int) {
		for r := 0; r < rows; r++ {
			gr, xr := g[r*n+lo:r*n+hi], x[r*n+lo:r*n+hi]
			m, rs := ln.mu[r], ln.rs[r]
			for j, v := range gr {
				sb[lo+j] += float64(v)
				if needW {
					sw[lo+j] += float64(v) * (float64(xr[j]) - m) * rs
				}
			}
		}
	})
}
