package cpu

import "github.com/gotensor/gotensor/tensorlib/backend"

// ReLUBackward returns g where y > 0 and 0 elsewhere, in one pass, over
// g itself when overwrite allows it.
func (b Backend) ReLUBackward(g backend.Storage, gl backend.Layout, y backend.Storage, yl backend.Layout, overwrite bool) backend.Storage {
	gs, goff := b.flat(g, gl)
	ys, yoff := b.flat(y, yl)
	n := gl.Numel()
	out := overwritable(gs, gl, overwrite)
	parallelFor(n, grainElems, func(lo, hi int) {
		switch gs.dtype {
		case Float32:
			d, gv, yv := out.f32[lo:hi], gs.f32[goff+lo:goff+hi], ys.f32[yoff+lo:yoff+hi]
			if !simdReluGradF32(d, gv, yv) {
				reluGrad(d, gv, yv)
			}
		case Float64:
			reluGrad(out.f64[lo:hi], gs.f64[goff+lo:goff+hi], ys.f64[yoff+lo:yoff+hi])
		default:
			panic("tensor: ReLUBackward on " + gs.dtype.String())
		}
	})
	return out
}

// ActivationBackward returns the gradient of GELU's, Tanh's or Sigmoid's
// input in one pass, over g itself when overwrite allows it.
func (b Backend) ActivationBackward(op backend.UnaryOp, g backend.Storage, gl backend.Layout, v backend.Storage, vl backend.Layout, overwrite bool) backend.Storage {
	gs, goff := b.flat(g, gl)
	vs, voff := b.flat(v, vl)
	n := gl.Numel()
	out := overwritable(gs, gl, overwrite)
	var f func(g, v float64) float64
	switch op {
	case backend.OpGELU:
		f = geluGrad
	case backend.OpTanh:
		f = func(g, y float64) float64 { return g * (1 - y*y) }
	case backend.OpSigmoid:
		f = func(g, y float64) float64 { return g * (y * (1 - y)) }
	default:
		panic("tensor: ActivationBackward of " + op.String())
	}
	parallelFor(n, grainElems/4, func(lo, hi int) {
		switch gs.dtype {
		case Float32:
			d, gv, vv := out.f32[lo:hi], gs.f32[goff+lo:goff+hi], vs.f32[voff+lo:voff+hi]
			for i := range d {
				d[i] = float32(f(float64(gv[i]), float64(vv[i])))
			}
		case Float64:
			d, gv, vv := out.f64[lo:hi], gs.f64[goff+lo:goff+hi], vs.f64[voff+lo:voff+hi]
			for i := range d {
				d[i] = f(gv[i], vv[i])
			}
		default:
			panic("tensor: ActivationBackward on " + gs.dtype.String())
		}
	})
	return out
}

// overwritable returns s, when overwrite is set and l covers the whole of
// s in order, for a kernel to write its result over; else a new storage of
// l's size.
func overwritable(s *Storage, l backend.Layout, overwrite bool) *Storage {
	if overwrite && l.Offset == 0 && l.IsContiguous() && s.Len() == l.Numel() {
		return s
	}
	return newStorage(s.dtype, l.Numel())
}

// reluGrad sets d[i] to g[i] where y[i] > 0 and to 0 elsewhere.
func reluGrad[T float](d, g, y []T) {
	g, y = g[:len(d)], y[:len(d)]
	for i := range d {
		if y[i] > 0 {
			d[i] = g[i]
		} else {
			d[i] = 0
		}
	}
}
