package cuda

import (
	"fmt"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// convBackend is the backend of a device whose driver convolves with
// cuDNN (driver.Convolver): deviceBackend plus backend.Conv, so that
// tensor.Conv2d calls cuDNN forward and backward instead of composing
// Unfold2d and MatMul. A device without cuDNN gets the plain
// deviceBackend, and tensor.Conv2d its im2col + GEMM path.
type convBackend struct {
	*deviceBackend
	conv driver.Convolver
}

var _ backend.Conv = (*convBackend)(nil)

// dense returns s under l as dense row-major memory: s itself at l's
// offset when l is contiguous, else a contiguous copy to free after use.
// Inside do only.
func (d *device) dense(s *storage, l backend.Layout) (p driver.DevicePtr, tmp *storage) {
	if l.IsContiguous() {
		return s.at(l.Offset), nil
	}
	c := d.contiguous(s, l)
	return c.ptr, c
}

// convArgs returns the sizes of a convolution of x [N, C, H, W] with w
// [F, C, KH, KW], of dtype dt.
func convArgs(kind driver.ConvKind, dt tensor.DType, xShape, wShape []int, stride, padding, dilation [2]int) driver.ConvArgs {
	g := backend.NewWindow(xShape, [2]int{wShape[2], wShape[3]}, stride, padding, dilation)
	return driver.ConvArgs{Kind: kind, Double: dt == tensor.Float64, Half: halfOf(dt), TF32: tf32(dt), N: g.N, C: g.C, H: g.H, W: g.W,
		F: wShape[0], KH: g.KH, KW: g.KW, OH: g.OH, OW: g.OW,
		PadH: g.PH, PadW: g.PW, StrideH: g.SH, StrideW: g.SW, DilH: g.DH, DilW: g.DW}
}

// runConv runs c with the scratch memory it needs. Inside do only.
func (d *device) runConv(conv driver.Convolver, c driver.ConvArgs) {
	what := [...]string{"forward", "backward data", "backward filter"}[c.Kind]
	fix := "; set GOTENSOR_CUDNN=0 to convolve without cuDNN"
	ws, err := conv.ConvWorkspace(c)
	if err != nil {
		d.fail(err, fmt.Sprintf("choosing cuDNN's convolution %s algorithm for [%d %d %d %d] ⋆ [%d %d %d %d]%s", what, c.N, c.C, c.H, c.W, c.F, c.C, c.KH, c.KW, fix))
	}
	var scratch *storage
	var p driver.DevicePtr
	if ws > 0 {
		scratch = d.newStorage(tensor.Float64, (ws+7)/8)
		p = scratch.ptr
		defer scratch.Free()
	}
	d.timed("cudnn "+what, func() {
		if err := conv.Conv(c, p, ws); err != nil {
			d.fail(err, fmt.Sprintf("cuDNN convolution %s for [%d %d %d %d] ⋆ [%d %d %d %d]%s", what, c.N, c.C, c.H, c.W, c.F, c.C, c.KH, c.KW, fix))
		}
	})
}

// Conv2d convolves with cuDNN, then adds the bias.
func (b *convBackend) Conv2d(x backend.Storage, xl backend.Layout, w backend.Storage, wl backend.Layout, bias backend.Storage, bl backend.Layout, stride, padding, dilation [2]int) backend.Storage {
	xs, ws := b.store(x), b.store(w)
	c := convArgs(driver.ConvForward, xs.dt, xl.Shape, wl.Shape, stride, padding, dilation)
	var out *storage
	d := b.dev
	d.do(func() {
		xp, xt := d.dense(xs, xl)
		wp, wt := d.dense(ws, wl)
		out = d.newStorage(xs.dt, c.N*c.F*c.OH*c.OW)
		c.X, c.Wt, c.Y = xp, wp, out.ptr
		d.runConv(b.conv, c)
		freeAll(xt, wt)
	})
	if bias == nil {
		return out
	}
	ol := backend.Contiguous([]int{c.N, c.F, c.OH, c.OW})
	bb := backend.Layout{Shape: ol.Shape, Strides: []int{0, bl.Strides[0], 0, 0}, Offset: bl.Offset}
	s := b.Binary(backend.OpAdd, out, ol, bias, bb) // 16-bit floats too
	out.Free()
	return s
}

// Conv2dBackward computes x's gradient (cuDNN's backward data), w's
// (backward filter) and the bias's (g summed over N, OH and OW).
func (b *convBackend) Conv2dBackward(g backend.Storage, gl backend.Layout, x backend.Storage, xl backend.Layout, w backend.Storage, wl backend.Layout, stride, padding, dilation [2]int, need [3]bool) (gx, gw, gb backend.Storage) {
	gs, xs, ws := b.store(g), b.store(x), b.store(w)
	dt := xs.dt
	d := b.dev
	d.do(func() {
		gp, gt := d.dense(gs, gl)
		defer freeAll(gt)
		if need[0] {
			c := convArgs(driver.ConvBackwardData, dt, xl.Shape, wl.Shape, stride, padding, dilation)
			wp, wt := d.dense(ws, wl)
			out := d.newStorage(xs.dt, c.N*c.C*c.H*c.W)
			c.X, c.Wt, c.Y = out.ptr, wp, gp
			d.runConv(b.conv, c)
			freeAll(wt)
			gx = out
		}
		if need[1] {
			c := convArgs(driver.ConvBackwardFilter, dt, xl.Shape, wl.Shape, stride, padding, dilation)
			xp, xt := d.dense(xs, xl)
			out := d.newStorage(xs.dt, c.F*c.C*c.KH*c.KW)
			c.X, c.Wt, c.Y = xp, out.ptr, gp
			d.runConv(b.conv, c)
			freeAll(xt)
			gw = out
		}
	})
	if need[2] {
		gb = b.reduceAnyFloat(backend.OpSum, g, gl, []int{0, 2, 3})
	}
	return gx, gw, gb
}

// freeAll frees the storages that are not nil.
func freeAll(ss ...*storage) {
	for _, s := range ss {
		if s != nil {
			s.Free()
		}
	}
}
