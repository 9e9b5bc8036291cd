package cpu

import (
	"math"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

func (b Backend) MaxPool2d(s backend.Storage, l backend.Layout, kernel, stride, padding [2]int) (backend.Storage, backend.Storage) {
	src, off := b.flat(s, l)
	g := backend.NewWindow(l.Shape, kernel, stride, padding, [2]int{1, 1})
	n := g.N * g.C * g.OH * g.OW
	out, idx := newStorage(src.dtype, n), newStorage(Int64, n)
	switch src.dtype {
	case Float32:
		maxPool(out.f32, idx.i64, src.f32[off:], g)
	case Float64:
		maxPool(out.f64, idx.i64, src.f64[off:], g)
	case Int64:
		maxPool(out.i64, idx.i64, src.i64[off:], g)
	default:
		panic("tensor: MaxPool2d on " + src.dtype.String())
	}
	return out, idx
}

func maxPool[T number](out []T, idx []int64, x []T, g backend.Window) {
	plane, L := g.H*g.W, g.OH*g.OW
	pool2 := g.KH == 2 && g.KW == 2 && g.SH == 2 && g.SW == 2 && g.PH == 0 && g.PW == 0
	parallelFor(g.N*g.C, max(1, grainElems/(g.KH*g.KW*L+1)), func(lo, hi int) {
		if o32, ok := any(out).([]float32); ok && pool2 && simdMaxPool2F32(o32, idx, any(x).([]float32), g, lo, hi) {
			return
		}
		for nc := lo; nc < hi; nc++ {
			in := x[nc*plane : (nc+1)*plane]
			if g.KH == 2 && g.KW == 2 && g.SH == 2 && g.SW == 2 && g.PH == 0 && g.PW == 0 {
				if o32, ok := any(out).([]float32); ok {
					maxPool2x2F32(o32[nc*L:(nc+1)*L], idx[nc*L:(nc+1)*L], any(in).([]float32), g)
				} else {
					maxPool2x2(out[nc*L:(nc+1)*L], idx[nc*L:(nc+1)*L], in, g)
				}
				continue
			}
			for oh := 0; oh < g.OH; oh++ {
				for ow := 0; ow < g.OW; ow++ {
					best, at := T(0), int64(-1)
					for i := 0; i < g.KH; i++ {
						h := oh*g.SH - g.PH + i
						if h < 0 || h >= g.H {
							continue
						}
						for j := 0; j < g.KW; j++ {
							w := ow*g.SW - g.PW + j
							if w < 0 || w >= g.W {
								continue
							}
							v := in[h*g.W+w]
							if at < 0 || v > best || (v != v && best == best) {
								best, at = v, int64(h*g.W+w)
							}
						}
					}
					if at < 0 { // a window entirely in the padding
						best = T(math.Inf(-1))
						at = 0
					}
					o := nc*L + oh*g.OW + ow
					out[o], idx[o] = best, at
				}
			}
		}
	})
}

// maxPool2x2 is maxPool for one plane with the common 2×2 window, stride
// 2 and no padding: every window lies inside the plane. Ties keep the
// first maximum in (0,0), (0,1), (1,0), (1,1) order and NaN wins, as in
// maxPool.
func maxPool2x2[T number](out []T, idx []int64, in []T, g backend.Window) {
	for oh := 0; oh < g.OH; oh++ {
		h0 := 2 * oh * g.W
		r0, r1 := in[h0:h0+g.W], in[h0+g.W:h0+2*g.W]
		o, ix := out[oh*g.OW:(oh+1)*g.OW], idx[oh*g.OW:(oh+1)*g.OW]
		for ow := range o {
			c := 2 * ow
			best, at := r0[c], c
			if v := r0[c+1]; v > best || (v != v && best == best) {
				best, at = v, c+1
			}
			if v := r1[c]; v > best || (v != v && best == best) {
				best, at = v, g.W+c
			}
			if v := r1[c+1]; v > best || (v != v && best == best) {
				best, at = v, g.W+c+1
			}
			o[ow], ix[ow] = best, int64(h0+at)
		}
	}
}

// maxPool2x2F32 is maxPool2x2 for float32 without data-dependent branches
// (the winner of a window of activations is a coin toss for the branch
// predictor): candidate v replaces best when best is not NaN and v is not
// <= best, that is when v > best or v is NaN.
func maxPool2x2F32(out []float32, idx []int64, in []float32, g backend.Window) {
	for oh := 0; oh < g.OH; oh++ {
		h0 := 2 * oh * g.W
		r0, r1 := in[h0:h0+g.W], in[h0+g.W:h0+2*g.W]
		o, ix := out[oh*g.OW:(oh+1)*g.OW], idx[oh*g.OW:(oh+1)*g.OW]
		for ow := range o {
			c := 2 * ow
			best, at := r0[c], c
			best, at = maxStep(best, at, r0[c+1], c+1)
			best, at = maxStep(best, at, r1[c], g.W+c)
			best, at = maxStep(best, at, r1[c+1], g.W+c+1)
			o[ow], ix[ow] = best, int64(h0+at)
		}
	}
}

// maxStep returns (v, j) when v beats best as in maxPool2x2F32, and
// (best, i) otherwise.
func maxStep(best float32, i int, v float32, j int) (float32, int) {
	take := uint32(1-boolByte(v <= best)) & uint32(boolByte(best == best))
	m := -take
	bb := math.Float32bits(best)
	best = math.Float32frombits(bb ^ ((bb ^ math.Float32bits(v)) & m))
	i ^= (i ^ j) & -int(take)
	return best, i
}
