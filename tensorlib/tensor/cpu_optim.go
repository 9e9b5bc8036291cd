package tensor

import "math"

func (b cpuBackend) AdamStep(p Storage, pl Layout, g Storage, gl Layout, m Storage, ml Layout, v Storage, vl Layout, h AdamParams) {
	gs, goff := b.flat(g, gl)
	ps, ms, vs := cpuStore(p), cpuStore(m), cpuStore(v)
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
func adam[T float](p, g, m, v []T, h AdamParams) {
	b1, b2, eps, wd := T(h.Beta1), T(h.Beta2), T(h.Eps), T(h.WeightDecay)
	bc1 := 1 - math.Pow(h.Beta1, float64(h.Step))
	bc2 := 1 - math.Pow(h.Beta2, float64(h.Step))
	stepSize := T(h.LR / bc1)
	bc2s := T(math.Sqrt(bc2))
	decay := T(1 - h.LR*h.WeightDecay)
	parallelFor(len(p), grainElems, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			gi := g[i]
			if h.Decoupled {
				p[i] *= decay
			} else if h.WeightDecay != 0 {
				gi += p[i] * wd
			}
			m[i] = m[i]*b1 + gi*(1-b1)
			v[i] = v[i]*b2 + gi*gi*(1-b2)
			denom := T(math.Sqrt(float64(v[i])))/bc2s + eps
			p[i] += -stepSize * (m[i] / denom)
		}
	})
}

func (b cpuBackend) SGDStep(p Storage, pl Layout, g Storage, gl Layout, buf Storage, bl Layout, h SGDParams) {
	gs, goff := b.flat(g, gl)
	ps := cpuStore(p)
	n := pl.Numel()
	var bs *cpuStorage
	if buf != nil {
		bs = cpuStore(buf)
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
func sgd[T float](p, g, buf []T, h SGDParams) {
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
