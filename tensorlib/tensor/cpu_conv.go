package tensor

import "math"

// convOut returns the output size of a sliding window over size n.
func convOut(n, k, s, p, d int) int { return (n+2*p-d*(k-1)-1)/s + 1 }

// window holds the geometry of a 2-D sliding window over [N, C, H, W].
type window struct {
	n, c, h, w     int
	kh, kw, sh, sw int
	ph, pw, dh, dw int
	oh, ow         int
}

func newWindow(shape []int, kernel, stride, padding, dilation [2]int) window {
	w := window{n: shape[0], c: shape[1], h: shape[2], w: shape[3],
		kh: kernel[0], kw: kernel[1], sh: stride[0], sw: stride[1],
		ph: padding[0], pw: padding[1], dh: dilation[0], dw: dilation[1]}
	w.oh = convOut(w.h, w.kh, w.sh, w.ph, w.dh)
	w.ow = convOut(w.w, w.kw, w.sw, w.pw, w.dw)
	return w
}

func (b cpuBackend) Im2Col(s Storage, l Layout, kernel, stride, padding, dilation [2]int) Storage {
	src, off := b.flat(s, l)
	g := newWindow(l.Shape, kernel, stride, padding, dilation)
	out := newCPUStorage(src.dtype, g.n*g.c*g.kh*g.kw*g.oh*g.ow)
	switch src.dtype {
	case Float32:
		im2col(out.f32, src.f32[off:], g)
	case Float64:
		im2col(out.f64, src.f64[off:], g)
	case Int64:
		im2col(out.i64, src.i64[off:], g)
	default:
		panic("tensor: Im2Col on " + src.dtype.String())
	}
	return out
}

// im2col fills cols [N, C*KH*KW, OH*OW] from the contiguous x [N, C, H, W].
func im2col[T number](cols, x []T, g window) {
	plane, L := g.h*g.w, g.oh*g.ow
	parallelFor(g.n*g.c, max(1, grainElems/(g.kh*g.kw*L+1)), func(lo, hi int) {
		for nc := lo; nc < hi; nc++ {
			in := x[nc*plane : (nc+1)*plane]
			rows := cols[nc*g.kh*g.kw*L : (nc+1)*g.kh*g.kw*L]
			for i := 0; i < g.kh; i++ {
				for j := 0; j < g.kw; j++ {
					row := rows[(i*g.kw+j)*L : (i*g.kw+j+1)*L]
					for oh := 0; oh < g.oh; oh++ {
						h := oh*g.sh - g.ph + i*g.dh
						dst := row[oh*g.ow : (oh+1)*g.ow]
						if h < 0 || h >= g.h {
							clear(dst)
							continue
						}
						src := in[h*g.w : (h+1)*g.w]
						w := -g.pw + j*g.dw
						if g.sw == 1 {
							// dst[ow] = src[w+ow] where 0 <= w+ow < W, else 0.
							a, z := min(max(-w, 0), len(dst)), min(max(g.w-w, 0), len(dst))
							clear(dst[:a])
							if a < z {
								copy(dst[a:z], src[w+a:w+z])
							}
							clear(dst[max(a, z):])
							continue
						}
						for ow := range dst {
							if w >= 0 && w < g.w {
								dst[ow] = src[w]
							} else {
								dst[ow] = 0
							}
							w += g.sw
						}
					}
				}
			}
		}
	})
}

func (b cpuBackend) Col2Im(c Storage, cl Layout, shape []int, kernel, stride, padding, dilation [2]int) Storage {
	src, off := b.flat(c, cl)
	g := newWindow(shape, kernel, stride, padding, dilation)
	out := newCPUStorage(src.dtype, numel(shape))
	switch src.dtype {
	case Float32:
		col2im(out.f32, src.f32[off:], g)
	case Float64:
		col2im(out.f64, src.f64[off:], g)
	case Int64:
		col2im(out.i64, src.i64[off:], g)
	default:
		panic("tensor: Col2Im on " + src.dtype.String())
	}
	return out
}

// col2im sums cols [N, C*KH*KW, OH*OW] into the zeroed x [N, C, H, W].
func col2im[T number](x, cols []T, g window) {
	plane, L := g.h*g.w, g.oh*g.ow
	parallelFor(g.n*g.c, max(1, grainElems/(g.kh*g.kw*L+1)), func(lo, hi int) {
		for nc := lo; nc < hi; nc++ {
			in := x[nc*plane : (nc+1)*plane]
			rows := cols[nc*g.kh*g.kw*L : (nc+1)*g.kh*g.kw*L]
			for i := 0; i < g.kh; i++ {
				for j := 0; j < g.kw; j++ {
					row := rows[(i*g.kw+j)*L : (i*g.kw+j+1)*L]
					for oh := 0; oh < g.oh; oh++ {
						h := oh*g.sh - g.ph + i*g.dh
						if h < 0 || h >= g.h {
							continue
						}
						dst := in[h*g.w : (h+1)*g.w]
						src := row[oh*g.ow : (oh+1)*g.ow]
						w := -g.pw + j*g.dw
						if g.sw == 1 {
							// dst[w+ow] += src[ow] where 0 <= w+ow < W.
							a, z := min(max(-w, 0), len(src)), min(max(g.w-w, 0), len(src))
							if a < z {
								addTo(dst[w+a:w+z], src[a:z])
							}
							continue
						}
						for _, v := range src {
							if w >= 0 && w < g.w {
								dst[w] += v
							}
							w += g.sw
						}
					}
				}
			}
		}
	})
}

func (b cpuBackend) MaxPool2d(s Storage, l Layout, kernel, stride, padding [2]int) (Storage, Storage) {
	src, off := b.flat(s, l)
	g := newWindow(l.Shape, kernel, stride, padding, [2]int{1, 1})
	n := g.n * g.c * g.oh * g.ow
	out, idx := newCPUStorage(src.dtype, n), newCPUStorage(Int64, n)
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

func maxPool[T number](out []T, idx []int64, x []T, g window) {
	plane, L := g.h*g.w, g.oh*g.ow
	pool2 := g.kh == 2 && g.kw == 2 && g.sh == 2 && g.sw == 2 && g.ph == 0 && g.pw == 0
	parallelFor(g.n*g.c, max(1, grainElems/(g.kh*g.kw*L+1)), func(lo, hi int) {
		if o32, ok := any(out).([]float32); ok && pool2 && simdMaxPool2F32(o32, idx, any(x).([]float32), g, lo, hi) {
			return
		}
		for nc := lo; nc < hi; nc++ {
			in := x[nc*plane : (nc+1)*plane]
			if g.kh == 2 && g.kw == 2 && g.sh == 2 && g.sw == 2 && g.ph == 0 && g.pw == 0 {
				if o32, ok := any(out).([]float32); ok {
					maxPool2x2F32(o32[nc*L:(nc+1)*L], idx[nc*L:(nc+1)*L], any(in).([]float32), g)
				} else {
					maxPool2x2(out[nc*L:(nc+1)*L], idx[nc*L:(nc+1)*L], in, g)
				}
				continue
			}
			for oh := 0; oh < g.oh; oh++ {
				for ow := 0; ow < g.ow; ow++ {
					best, at := T(0), int64(-1)
					for i := 0; i < g.kh; i++ {
						h := oh*g.sh - g.ph + i
						if h < 0 || h >= g.h {
							continue
						}
						for j := 0; j < g.kw; j++ {
							w := ow*g.sw - g.pw + j
							if w < 0 || w >= g.w {
								continue
							}
							v := in[h*g.w+w]
							if at < 0 || v > best || (v != v && best == best) {
								best, at = v, int64(h*g.w+w)
							}
						}
					}
					if at < 0 { // a window entirely in the padding
						best = T(math.Inf(-1))
						at = 0
					}
					o := nc*L + oh*g.ow + ow
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
func maxPool2x2[T number](out []T, idx []int64, in []T, g window) {
	for oh := 0; oh < g.oh; oh++ {
		h0 := 2 * oh * g.w
		r0, r1 := in[h0:h0+g.w], in[h0+g.w:h0+2*g.w]
		o, ix := out[oh*g.ow:(oh+1)*g.ow], idx[oh*g.ow:(oh+1)*g.ow]
		for ow := range o {
			c := 2 * ow
			best, at := r0[c], c
			if v := r0[c+1]; v > best || (v != v && best == best) {
				best, at = v, c+1
			}
			if v := r1[c]; v > best || (v != v && best == best) {
				best, at = v, g.w+c
			}
			if v := r1[c+1]; v > best || (v != v && best == best) {
				best, at = v, g.w+c+1
			}
			o[ow], ix[ow] = best, int64(h0+at)
		}
	}
}

// maxPool2x2F32 is maxPool2x2 for float32 without data-dependent branches
// (the winner of a window of activations is a coin toss for the branch
// predictor): candidate v replaces best when best is not NaN and v is not
// <= best, that is when v > best or v is NaN.
func maxPool2x2F32(out []float32, idx []int64, in []float32, g window) {
	for oh := 0; oh < g.oh; oh++ {
		h0 := 2 * oh * g.w
		r0, r1 := in[h0:h0+g.w], in[h0+g.w:h0+2*g.w]
		o, ix := out[oh*g.ow:(oh+1)*g.ow], idx[oh*g.ow:(oh+1)*g.ow]
		for ow := range o {
			c := 2 * ow
			best, at := r0[c], c
			best, at = maxStep(best, at, r0[c+1], c+1)
			best, at = maxStep(best, at, r1[c], g.w+c)
			best, at = maxStep(best, at, r1[c+1], g.w+c+1)
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

// addTo sets d[i] += s[i].
func addTo[T number](d, s []T) {
	s = s[:len(d)]
	for i, v := range s {
		d[i] += v
	}
}
