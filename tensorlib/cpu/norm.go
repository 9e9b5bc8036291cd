package cpu

import (
	"math"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// The CPU backend's batch and layer norm (backend.BatchNorm,
// backend.LayerNorm), forward and backward: plain loops over planes and
// rows in parallel, sums in float64.

var (
	_ backend.BatchNorm = Backend{}
	_ backend.LayerNorm = Backend{}
)

// BatchNorm computes the statistics of each channel in one pass over its
// planes (sums of x - shift and of its square in float64, shift being the
// channel's first element) and the result in a second, as
// y = (x - mean) * scale + shift with scale = w / sqrt(var + eps).
func (b Backend) BatchNorm(x backend.Storage, xl backend.Layout, mean backend.Storage, ml backend.Layout, variance backend.Storage, vl backend.Layout, w backend.Storage, wl backend.Layout, bias backend.Storage, bl backend.Layout, eps float64) (y, batchMean, batchVar backend.Storage) {
	xs, xo := b.flat(x, xl)
	p := newPlanes(xl)
	m, v := make([]float64, p.c), make([]float64, p.c)
	if mean == nil {
		parallelFor(p.c, 1, func(lo, hi int) {
			for c := lo; c < hi; c++ {
				m[c], v[c] = p.stats(xs, xo, c)
			}
		})
		batchMean, batchVar = fromFloat64s(xs.dtype, m), fromFloat64s(xs.dtype, v)
	} else {
		m, v = b.float64s(mean, ml), b.float64s(variance, vl)
	}
	scale, shift := make([]float64, p.c), make([]float64, p.c)
	ws, bs := b.float64sOr(w, wl, p.c, 1), b.float64sOr(bias, bl, p.c, 0)
	for c := range scale {
		scale[c] = ws[c] / math.Sqrt(v[c]+eps)
		shift[c] = bs[c]
	}
	out := newStorage(xs.dtype, xl.Numel())
	p.each(func(c, r, n int) {
		switch xs.dtype {
		case Float32:
			normPlane(out.f32[r:r+n], xs.f32[xo+r:xo+r+n], float32(m[c]), float32(scale[c]), float32(shift[c]))
		case Float64:
			normPlane(out.f64[r:r+n], xs.f64[xo+r:xo+r+n], m[c], scale[c], shift[c])
		}
	})
	return out, batchMean, batchVar
}

// BatchNormBackward sums, per channel, g and g * (x - mean) over its
// planes (float64), which give the gradients of b and w, then computes
// x's as a*g + k*(x - mean) + k0 per channel, over g when overwrite
// allows it.
func (b Backend) BatchNormBackward(g backend.Storage, gl backend.Layout, x backend.Storage, xl backend.Layout, mean, variance backend.Storage, w backend.Storage, wl backend.Layout, eps float64, need [3]bool, overwrite bool) (gx, gw, gb backend.Storage) {
	gs, gof := b.flat(g, gl)
	xs, xo := b.flat(x, xl)
	p := newPlanes(xl)
	m := b.float64s(mean, backend.Contiguous([]int{p.c}))
	v := b.float64s(variance, backend.Contiguous([]int{p.c}))
	ws := b.float64sOr(w, wl, p.c, 1)
	sg, sgx := make([]float64, p.c), make([]float64, p.c)
	parallelFor(p.c, 1, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			sg[c], sgx[c] = p.gradStats(gs, gof, xs, xo, c, m[c])
		}
	})
	invstd := make([]float64, p.c)
	for c := range invstd {
		invstd[c] = 1 / math.Sqrt(v[c]+eps)
	}
	if need[1] {
		gwv := make([]float64, p.c)
		for c := range gwv {
			gwv[c] = sgx[c] * invstd[c]
		}
		gw = fromFloat64s(xs.dtype, gwv)
	}
	if need[2] {
		gb = fromFloat64s(xs.dtype, sg)
	}
	if !need[0] {
		return nil, gw, gb
	}
	mf := float64(p.n * p.inner)
	a, k, k0 := make([]float64, p.c), make([]float64, p.c), make([]float64, p.c)
	for c := range a {
		a[c] = ws[c] * invstd[c]
		k[c] = -a[c] * invstd[c] * invstd[c] * sgx[c] / mf
		k0[c] = -a[c] * sg[c] / mf
	}
	out := overwritable(gs, gl, overwrite)
	p.each(func(c, r, n int) {
		switch xs.dtype {
		case Float32:
			normGradPlane(out.f32[r:r+n], gs.f32[gof+r:gof+r+n], xs.f32[xo+r:xo+r+n],
				float32(m[c]), float32(a[c]), float32(k[c]), float32(k0[c]))
		case Float64:
			normGradPlane(out.f64[r:r+n], gs.f64[gof+r:gof+r+n], xs.f64[xo+r:xo+r+n], m[c], a[c], k[c], k0[c])
		}
	})
	return out, gw, gb
}

// planes describes a contiguous [N, C, inner...] tensor as N*C planes of
// inner elements, plane (n, c) starting at (n*C + c)*inner.
type planes struct{ n, c, inner int }

func newPlanes(l backend.Layout) planes {
	p := planes{n: l.Shape[0], c: l.Shape[1], inner: 1}
	for _, s := range l.Shape[2:] {
		p.inner *= s
	}
	return p
}

// each calls fn for every plane, in parallel: c is its channel, r its
// first element and n its length.
func (p planes) each(fn func(c, r, n int)) {
	parallelFor(p.n*p.c, max(1, grainElems/(p.inner+1)), func(lo, hi int) {
		for q := lo; q < hi; q++ {
			fn(q%p.c, q*p.inner, p.inner)
		}
	})
}

// stats returns the mean and biased variance of channel c of x (from
// offset off).
func (p planes) stats(x *Storage, off, c int) (mean, variance float64) {
	cnt := p.n * p.inner
	if cnt == 0 {
		return math.NaN(), math.NaN()
	}
	shift := x.At(off + c*p.inner)
	var s1, s2 float64
	for n := 0; n < p.n; n++ {
		r := off + (n*p.c+c)*p.inner
		var a, q float64
		switch x.dtype {
		case Float32:
			a, q = shiftedSums(x.f32[r:r+p.inner], shift)
		case Float64:
			a, q = shiftedSums(x.f64[r:r+p.inner], shift)
		}
		s1 += a
		s2 += q
	}
	d := s1 / float64(cnt)
	return shift + d, max(0, s2/float64(cnt)-d*d)
}

// gradStats returns the sums of g and of g * (x - mean) over channel c.
func (p planes) gradStats(g *Storage, goff int, x *Storage, xoff, c int, mean float64) (sg, sgx float64) {
	for n := 0; n < p.n; n++ {
		r := (n*p.c + c) * p.inner
		var a, q float64
		switch x.dtype {
		case Float32:
			a, q = gradSums(g.f32[goff+r:goff+r+p.inner], x.f32[xoff+r:xoff+r+p.inner], mean)
		case Float64:
			a, q = gradSums(g.f64[goff+r:goff+r+p.inner], x.f64[xoff+r:xoff+r+p.inner], mean)
		}
		sg += a
		sgx += q
	}
	return sg, sgx
}

// sumLanes is the number of float64 partial sums that shiftedSums and
// gradSums keep, element i going to lane i%sumLanes (the C loops vectorize
// them); the lanes are folded pairwise at the end.
const sumLanes = 8

// shiftedSums returns the sums of x - shift and of (x - shift)², in
// float64.
func shiftedSums[T float](x []T, shift float64) (s1, s2 float64) {
	if x32, ok := any(x).([]float32); ok {
		if a, b, ok := simdShiftedSumsF32(x32, shift); ok {
			return a, b
		}
	}
	return shiftedSumsLoop(x, shift)
}

// shiftedSumsLoop is shiftedSums in Go.
func shiftedSumsLoop[T float](x []T, shift float64) (s1, s2 float64) {
	var a, b [sumLanes]float64
	i := 0
	for ; i+sumLanes <= len(x); i += sumLanes {
		for j := 0; j < sumLanes; j++ {
			d := float64(x[i+j]) - shift
			a[j] += d
			b[j] += float64(d * d)
		}
	}
	for ; i < len(x); i++ {
		d := float64(x[i]) - shift
		a[0] += d
		b[0] += float64(d * d)
	}
	return foldLanes(&a), foldLanes(&b)
}

// gradSums returns the sums of g and of g * (x - mean), in float64.
func gradSums[T float](g, x []T, mean float64) (sg, sgx float64) {
	x = x[:len(g)]
	if g32, ok := any(g).([]float32); ok {
		if a, b, ok := simdGradSumsF32(g32, any(x).([]float32), mean); ok {
			return a, b
		}
	}
	return gradSumsLoop(g, x, mean)
}

// gradSumsLoop is gradSums in Go.
func gradSumsLoop[T float](g, x []T, mean float64) (sg, sgx float64) {
	x = x[:len(g)]
	var a, b [sumLanes]float64
	i := 0
	for ; i+sumLanes <= len(g); i += sumLanes {
		for j := 0; j < sumLanes; j++ {
			gv := float64(g[i+j])
			a[j] += gv
			b[j] += float64(gv * (float64(x[i+j]) - mean))
		}
	}
	for ; i < len(g); i++ {
		gv := float64(g[i])
		a[0] += gv
		b[0] += float64(gv * (float64(x[i]) - mean))
	}
	return foldLanes(&a), foldLanes(&b)
}

// foldLanes adds the lanes pairwise: lane j gets lane j+w for w = 4, 2, 1.
func foldLanes(a *[sumLanes]float64) float64 {
	for w := sumLanes / 2; w >= 1; w /= 2 {
		for j := 0; j < w; j++ {
			a[j] += a[j+w]
		}
	}
	return a[0]
}

// normPlane sets y = (x - mean) * scale + shift.
func normPlane[T float](y, x []T, mean, scale, shift T) {
	x = x[:len(y)]
	if y32, ok := any(y).([]float32); ok && simdNormF32(y32, any(x).([]float32), float32(mean), float32(scale), float32(shift)) {
		return
	}
	normLoop(y, x, mean, scale, shift)
}

// normLoop is normPlane in Go.
func normLoop[T float](y, x []T, mean, scale, shift T) {
	x = x[:len(y)]
	for i := range y {
		y[i] = T((x[i]-mean)*scale) + shift
	}
}

// normGradPlane sets gx = a*g + k*(x - mean) + k0.
func normGradPlane[T float](gx, g, x []T, mean, a, k, k0 T) {
	g, x = g[:len(gx)], x[:len(gx)]
	if d32, ok := any(gx).([]float32); ok && simdNormGradF32(d32, any(g).([]float32), any(x).([]float32),
		float32(mean), float32(a), float32(k), float32(k0)) {
		return
	}
	normGradLoop(gx, g, x, mean, a, k, k0)
}

// normGradLoop is normGradPlane in Go.
func normGradLoop[T float](gx, g, x []T, mean, a, k, k0 T) {
	g, x = g[:len(gx)], x[:len(gx)]
	for i := range gx {
		gx[i] = T(T(a*g[i])+T(k*(x[i]-mean))) + k0
	}
}

// float64s returns the elements of s under l as float64.
func (b Backend) float64s(s backend.Storage, l backend.Layout) []float64 {
	src, off := b.flat(s, l)
	out := make([]float64, l.Numel())
	for i := range out {
		out[i] = src.At(off + i)
	}
	return out
}

// float64sOr is float64s, or n copies of def for a nil s.
func (b Backend) float64sOr(s backend.Storage, l backend.Layout, n int, def float64) []float64 {
	if s == nil {
		out := make([]float64, n)
		for i := range out {
			out[i] = def
		}
		return out
	}
	return b.float64s(s, l)
}

// fromFloat64s returns v converted to a new storage of dtype dt.
func fromFloat64s(dt DType, v []float64) *Storage {
	s := newStorage(dt, len(v))
	for i, x := range v {
		s.Set(i, x)
	}
	return s
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
