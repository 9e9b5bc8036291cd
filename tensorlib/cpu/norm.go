package cpu

import (
	"math"

	"github.com/gotensor/gotensor/tensorlib/backend"
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
