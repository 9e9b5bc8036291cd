package cpu

import (
	"math"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

func (b Backend) AdamStep(p backend.Storage, pl backend.Layout, g backend.Storage, gl backend.Layout, m backend.Storage, ml backend.Layout, v backend.Storage, vl backend.Layout, h backend.AdamParams) {
	gs, goff := b.flat(g, gl)
	ps, ms, vs := store(p), store(m), store(v)
	n := pl.Numel()
	switch ps.dtype {
	case Float32:
		adam(ps.f32[pl.Offset:pl.Offset+n], gs.f32[goff:goff+n], ms.f32[ml.Offset:ml.Offset+n], vs.f32[vl.Offset:vl.Offset+n], h)
	case Float64:
		adam(ps.f64[pl.Offset:pl.Offset+n], gs.f64[goff:goff+n], ms.f64[ml.Offset:ml.Offset+n], vs.f64[vl.Offset:vl.Offset+n], h)
	default:
		panic("tensor: AdamStep on " + ps.dtype.String())
	}
}

// adam follows torch.optim.adam's single-tensor loop (1.13) operation by
// operation, in the parameter's precision.
func adam[T float](p, g, m, v []T, h backend.AdamParams) {
	b1, b2, eps, wd := T(h.Beta1), T(h.Beta2), T(h.Eps), T(h.WeightDecay)
	bc1 := 1 - math.Pow(h.Beta1, float64(h.Step))
	bc2 := 1 - math.Pow(h.Beta2, float64(h.Step))
	stepSize := T(h.LR / bc1)
	bc2s := T(math.Sqrt(bc2))
	decay := T(1 - h.LR*h.WeightDecay)
	// Decoupled (AdamW) decay scales p first; L2 decay adds p*wd to the
	// gradient.
	l2 := !h.Decoupled && h.WeightDecay != 0
	parallelFor(len(p), grainElems, func(lo, hi int) {
		p, g, m, v := p[lo:hi], g[lo:hi], m[lo:hi], v[lo:hi]
		if h.Decoupled {
			for i := range p {
				p[i] *= decay
			}
		}
		if l2 {
			adamRun(p, g, m, v, b1, b2, eps, wd, true, stepSize, bc2s)
		} else {
			adamRun(p, g, m, v, b1, b2, eps, 0, false, stepSize, bc2s)
		}
	})
}

// adamRun is the body of adam's loop over one range: gi = g (+ p*wd when
// l2), the moment updates and the step.
func adamRun[T float](p, g, m, v []T, b1, b2, eps, wd T, l2 bool, stepSize, bc2s T) {
	invBc2s := 1 / bc2s
	g, m, v = g[:len(p)], m[:len(p)], v[:len(p)]
	if p32, ok := any(p).([]float32); ok && simdAdamF32(p32, any(g).([]float32), any(m).([]float32), any(v).([]float32),
		float32(b1), float32(b2), float32(eps), float32(wd), l2, float32(stepSize), float32(invBc2s)) {
		return
	}
	for i := range p {
		pi := p[i]
		gi := g[i]
		if l2 {
			gi += pi * wd
		}
		mi := m[i]*b1 + gi*(1-b1)
		vi := v[i]*b2 + gi*gi*(1-b2)
		m[i], v[i] = mi, vi
		denom := sqrtT(vi)*invBc2s + eps
		p[i] = pi + -stepSize*(mi/denom)
	}
}

// sqrtT returns the square root of x in x's precision. The float32 case
// rounds the float64 root once, which gives the correctly rounded float32
// root, and compiles to one SQRTSD.
func sqrtT[T float](x T) T { return T(math.Sqrt(float64(x))) }

func (b Backend) SGDStep(p backend.Storage, pl backend.Layout, g backend.Storage, gl backend.Layout, buf backend.Storage, bl backend.Layout, h backend.SGDParams) {
	gs, goff := b.flat(g, gl)
	ps := store(p)
	n := pl.Numel()
	var bs *Storage
	if buf != nil {
		bs = store(buf)
	}
	switch ps.dtype {
	case Float32:
		var bv []float32
		if bs != nil {
			bv = bs.f32[bl.Offset : bl.Offset+n]
		}
		sgd(ps.f32[pl.Offset:pl.Offset+n], gs.f32[goff:goff+n], bv, h)
	case Float64:
		var bv []float64
		if bs != nil {
			bv = bs.f64[bl.Offset : bl.Offset+n]
		}
		sgd(ps.f64[pl.Offset:pl.Offset+n], gs.f64[goff:goff+n], bv, h)
	default:
		panic("tensor: SGDStep on " + ps.dtype.String())
	}
}

// sgd follows torch.optim.sgd's single-tensor loop (1.13).
func sgd[T float](p, g, buf []T, h backend.SGDParams) {
	lr, mom, damp, wd := T(h.LR), T(h.Momentum), T(h.Dampening), T(h.WeightDecay)
	parallelFor(len(p), grainElems, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			d := g[i]
			if h.WeightDecay != 0 {
				d += p[i] * wd
			}
			if h.Momentum != 0 {
				if h.First {
					buf[i] = d
				} else {
					buf[i] = buf[i]*mom + d*(1-damp)
				}
				if h.Nesterov {
					d += buf[i] * mom
				} else {
					d = buf[i]
				}
			}
			p[i] += d * -lr
		}
	})
}
