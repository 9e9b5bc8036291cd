package cpu

import (
	"github.com/gotensor/gotensor/tensorlib/backend"
)

func (b Backend) Im2Col(s backend.Storage, l backend.Layout, kernel, stride, padding, dilation [2]int) backend.Storage {
	src, off := b.flat(s, l)
	g := backend.NewWindow(l.Shape, kernel, stride, padding, dilation)
	out := newStorage(src.dtype, g.N*g.C*g.KH*g.KW*g.OH*g.OW)
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
func im2col[T number](cols, x []T, g backend.Window) {
	plane, L := g.H*g.W, g.OH*g.OW
	parallelFor(g.N*g.C, max(1, grainElems/(g.KH*g.KW*L+1)), func(lo, hi int) {
		for nc := lo; nc < hi; nc++ {
			im2colPlane(cols[nc*g.KH*g.KW*L:(nc+1)*g.KH*g.KW*L], x[nc*plane:(nc+1)*plane], g)
		}
	})
}

// im2colPlane writes the KH*KW rows of OH*OW windows of one input plane.
func im2colPlane[T number](rows, in []T, g backend.Window) {
	L := g.OH * g.OW
	for i := 0; i < g.KH; i++ {
		h0 := i*g.DH - g.PH
		oh0, oh1 := inside(g.OH, g.SH, h0, g.H) // rows that read the input
		for j := 0; j < g.KW; j++ {
			row := rows[(i*g.KW+j)*L : (i*g.KW+j+1)*L]
			clear(row[:oh0*g.OW])
			clear(row[oh1*g.OW:])
			w0 := j*g.DW - g.PW
			a, z := inside(g.OW, g.SW, w0, g.W) // columns that read the input
			for oh := oh0; oh < oh1; oh++ {
				dst := row[oh*g.OW : (oh+1)*g.OW]
				src := in[(oh*g.SH+h0)*g.W : (oh*g.SH+h0+1)*g.W]
				if a > 0 || z < g.OW {
					clear(dst[:a])
					clear(dst[z:])
				}
				if g.SW == 1 {
					d, s := dst[a:z], src[w0+a:w0+z]
					s = s[:len(d)]
					for k := range d {
						d[k] = s[k]
					}
					continue
				}
				for k, w := a, w0+a*g.SW; k < z; k, w = k+1, w+g.SW {
					dst[k] = src[w]
				}
			}
		}
	}
}

// inside returns the range [lo, hi) of the t in [0, n) for which
// t*stride + off is inside [0, size).
func inside(n, stride, off, size int) (lo, hi int) {
	if off < 0 {
		lo = (-off + stride - 1) / stride
	}
	if size-off > 0 {
		hi = min(n, (size-off-1)/stride+1)
	}
	return min(lo, hi), hi
}

func (b Backend) Col2Im(c backend.Storage, cl backend.Layout, shape []int, kernel, stride, padding, dilation [2]int) backend.Storage {
	src, off := b.flat(c, cl)
	g := backend.NewWindow(shape, kernel, stride, padding, dilation)
	out := newStorage(src.dtype, backend.Numel(shape))
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
func col2im[T number](x, cols []T, g backend.Window) {
	plane, L := g.H*g.W, g.OH*g.OW
	parallelFor(g.N*g.C, max(1, grainElems/(g.KH*g.KW*L+1)), func(lo, hi int) {
		for nc := lo; nc < hi; nc++ {
			col2imPlane(x[nc*plane:(nc+1)*plane], cols[nc*g.KH*g.KW*L:(nc+1)*g.KH*g.KW*L], g)
		}
	})
}

// col2imPlane adds the KH*KW rows of OH*OW windows back into one plane,
// im2colPlane's adjoint.
func col2imPlane[T number](in, rows []T, g backend.Window) {
	L := g.OH * g.OW
	for i := 0; i < g.KH; i++ {
		h0 := i*g.DH - g.PH
		oh0, oh1 := inside(g.OH, g.SH, h0, g.H)
		for j := 0; j < g.KW; j++ {
			row := rows[(i*g.KW+j)*L : (i*g.KW+j+1)*L]
			w0 := j*g.DW - g.PW
			a, z := inside(g.OW, g.SW, w0, g.W)
			for oh := oh0; oh < oh1; oh++ {
				src := row[oh*g.OW : (oh+1)*g.OW]
				dst := in[(oh*g.SH+h0)*g.W : (oh*g.SH+h0+1)*g.W]
				if g.SW == 1 {
					d, s := dst[w0+a:w0+z], src[a:z]
					s = s[:len(d)]
					for k := range d {
						d[k] += s[k]
					}
					continue
				}
				for k, w := a, w0+a*g.SW; k < z; k, w = k+1, w+g.SW {
					dst[w] += src[k]
				}
			}
		}
	}
}

// Conv2d computes each sample's output as one product, W [F, C*KH*KW] @
// cols [C*KH*KW, OH*OW], where cols is the sample's Im2Col in a buffer
// that each goroutine reuses while it stays in cache (a 1×1 convolution
// with stride 1 and no padding multiplies the sample itself). The bias is
// the product's initial value.
func (b Backend) Conv2d(x backend.Storage, xl backend.Layout, w backend.Storage, wl backend.Layout, bias backend.Storage, bl backend.Layout, stride, padding, dilation [2]int) backend.Storage {
	g := backend.NewWindow(xl.Shape, [2]int{wl.Shape[2], wl.Shape[3]}, stride, padding, dilation)
	f, k := wl.Shape[0], g.C*g.KH*g.KW
	xs, xo := b.flat(x, xl)
	ws, wo := b.flat(w, wl)
	var bs *Storage
	bo := 0
	if bias != nil {
		bs, bo = b.flat(bias, bl)
	}
	out := newStorage(xs.dtype, g.N*f*g.OH*g.OW)
	switch xs.dtype {
	case Float32:
		var bv []float32
		if bs != nil {
			bv = bs.f32[bo : bo+f]
		}
		convForward(sgemmSerial, out.f32, xs.f32[xo:], ws.f32[wo:wo+f*k], bv, f, g)
	case Float64:
		var bv []float64
		if bs != nil {
			bv = bs.f64[bo : bo+f]
		}
		convForward(dgemmSerial, out.f64, xs.f64[xo:], ws.f64[wo:wo+f*k], bv, f, g)
	default:
		panic("tensor: Conv2d on " + xs.dtype.String())
	}
	return out
}

// Conv2dBackward computes, per sample, x's gradient as col2im(Wᵀ @ g_n)
// and adds g_n @ cols_nᵀ to w's; the samples are cut into at most
// convParts parts, each summing its own copy of w's and b's gradients,
// which are then added in order, so the result does not depend on the
// number of goroutines.
func (b Backend) Conv2dBackward(gs backend.Storage, gl backend.Layout, x backend.Storage, xl backend.Layout, w backend.Storage, wl backend.Layout, stride, padding, dilation [2]int, need [3]bool) (gx, gw, gb backend.Storage) {
	g := backend.NewWindow(xl.Shape, [2]int{wl.Shape[2], wl.Shape[3]}, stride, padding, dilation)
	f, k := wl.Shape[0], g.C*g.KH*g.KW
	dy, do := b.flat(gs, gl)
	xs, xo := b.flat(x, xl)
	ws, wo := b.flat(w, wl)
	grads := [3]*Storage{}
	sizes := [3]int{g.N * g.C * g.H * g.W, f * k, f}
	for i, n := range sizes {
		if need[i] {
			grads[i] = newStorage(xs.dtype, n)
		}
	}
	switch xs.dtype {
	case Float32:
		convBackward(sgemmSerial, dy.f32[do:], xs.f32[xo:], ws.f32[wo:wo+f*k], grads[0].slice32(), grads[1].slice32(), grads[2].slice32(), f, g)
	case Float64:
		convBackward(dgemmSerial, dy.f64[do:], xs.f64[xo:], ws.f64[wo:wo+f*k], grads[0].slice64(), grads[1].slice64(), grads[2].slice64(), f, g)
	default:
		panic("tensor: Conv2dBackward on " + xs.dtype.String())
	}
	return grads[0].orNil(), grads[1].orNil(), grads[2].orNil()
}

// convParts is the most parts Conv2dBackward cuts a batch into.
const convParts = 16

// convDirect reports whether the window is a plain 1×1 product, whose
// columns are the input itself.
func convDirect(g backend.Window) bool {
	return g.KH == 1 && g.KW == 1 && g.SH == 1 && g.SW == 1 && g.PH == 0 && g.PW == 0
}

// convForward sets out [N, F, OH*OW] to w [F, C*KH*KW] times the columns
// of each sample of x, plus bias (nil for none).
func convForward[T float](gemm gemmFunc[T], out, x, w, bias []T, f int, g backend.Window) {
	k, L, plane := g.C*g.KH*g.KW, g.OH*g.OW, g.C*g.H*g.W
	direct := convDirect(g)
	parallelFor(g.N, max(1, (1<<16)/(f*k*L+1)), func(lo, hi int) {
		var cols []T
		if !direct {
			cols = make([]T, k*L)
		}
		for n := lo; n < hi; n++ {
			src := x[n*plane : (n+1)*plane]
			if !direct {
				im2colSample(cols, src, g)
				src = cols
			}
			on := out[n*f*L : (n+1)*f*L]
			var beta T
			if bias != nil {
				for i, v := range bias {
					row := on[i*L : (i+1)*L]
					for j := range row {
						row[j] = v
					}
				}
				beta = 1
			}
			gemm(false, false, f, L, k, 1, w, k, src, L, beta, on, L)
		}
	})
}

// convBackward computes the gradients of convForward's x, w and bias into
// gx, gw and gb, each nil when not needed.
func convBackward[T float](gemm gemmFunc[T], dy, x, w, gx, gw, gb []T, f int, g backend.Window) {
	k, L, plane := g.C*g.KH*g.KW, g.OH*g.OW, g.C*g.H*g.W
	direct := convDirect(g)
	size := (g.N + convParts - 1) / convParts
	parts := 0
	if size > 0 {
		parts = (g.N + size - 1) / size
	}
	accW, accB := make([][]T, parts), make([][]T, parts)
	parallelFor(parts, 1, func(p0, p1 int) {
		var cols []T
		if !direct && (gx != nil || gw != nil) {
			cols = make([]T, k*L)
		}
		for p := p0; p < p1; p++ {
			if gw != nil {
				accW[p] = make([]T, f*k)
			}
			if gb != nil {
				accB[p] = make([]T, f)
			}
			for n := p * size; n < min((p+1)*size, g.N); n++ {
				dyn, xn := dy[n*f*L:(n+1)*f*L], x[n*plane:(n+1)*plane]
				if gw != nil {
					src := xn
					if !direct {
						im2colSample(cols, xn, g)
						src = cols
					}
					gemm(false, true, f, k, L, 1, dyn, L, src, L, 1, accW[p], k)
				}
				if gx != nil {
					gxn := gx[n*plane : (n+1)*plane]
					if direct {
						gemm(true, false, k, L, f, 1, w, k, dyn, L, 0, gxn, L)
					} else {
						gemm(true, false, k, L, f, 1, w, k, dyn, L, 0, cols, L)
						col2imSample(gxn, cols, g)
					}
				}
				if gb != nil {
					addRowSums(accB[p], dyn, L)
				}
			}
		}
	})
	for p := 0; p < parts; p++ {
		if gw != nil {
			addTo(gw, accW[p])
		}
		if gb != nil {
			addTo(gb, accB[p])
		}
	}
}

// addRowSums adds the sum of row i of x (rows of n) to acc[i], each added
// in float64 as shiftedSums adds (one C call for all the rows of float32).
func addRowSums[T float](acc, x []T, n int) {
	sums := make([]float64, len(acc))
	if x32, ok := any(x).([]float32); !ok || !simdRowSumsF32(sums, x32, n) {
		for i := range sums {
			sums[i], _ = shiftedSumsLoop(x[i*n:(i+1)*n], 0)
		}
	}
	for i, s := range sums {
		acc[i] += T(s)
	}
}

// im2colSample writes the columns of one sample, [C*KH*KW, OH*OW].
func im2colSample[T number](cols, x []T, g backend.Window) {
	if c32, ok := any(cols).([]float32); ok && simdIm2colF32(c32, any(x).([]float32), g) {
		return
	}
	rows, plane := g.KH*g.KW*g.OH*g.OW, g.H*g.W
	for c := 0; c < g.C; c++ {
		im2colPlane(cols[c*rows:(c+1)*rows], x[c*plane:(c+1)*plane], g)
	}
}

// col2imSample adds the columns of one sample back into its planes.
func col2imSample[T number](x, cols []T, g backend.Window) {
	if x32, ok := any(x).([]float32); ok && simdCol2imF32(x32, any(cols).([]float32), g) {
		return
	}
	rows, plane := g.KH*g.KW*g.OH*g.OW, g.H*g.W
	for c := 0; c < g.C; c++ {
		col2imPlane(x[c*plane:(c+1)*plane], cols[c*rows:(c+1)*rows], g)
	}
}

// addTo sets d[i] += s[i].
func addTo[T number](d, s []T) {
	s = s[:len(d)]
	for i, v := range s {
		d[i] += v
	}
}
