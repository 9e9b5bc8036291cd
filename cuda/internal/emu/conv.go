//go:build cgo

package emu

import (
	"fmt"

	"github.com/gotensor/gotensor/cuda/internal/driver"
)

// ConvDriver is an emulated device that also convolves, as a GPU with
// cuDNN does: it implements driver.Convolver with plain loops, so that
// the cuda package's cuDNN path (descriptors aside) is tested without a
// GPU.
type ConvDriver struct{ *Driver }

var _ driver.Convolver = ConvDriver{}

// ConvWorkspace returns 0: the loops need no scratch memory.
func (d ConvDriver) ConvWorkspace(c driver.ConvArgs) (int, error) { return 0, nil }

// Conv computes what cuDNN's cudnnConvolutionForward, BackwardData or
// BackwardFilter would with alpha 1 and beta 0. 16-bit operands are
// widened to float32, summed in float32 and the result rounded once; with
// TF32, float32 inputs are rounded to TF32 first, as Gemm does.
func (d ConvDriver) Conv(c driver.ConvArgs, workspace driver.DevicePtr, bytes int) error {
	size := 4
	switch {
	case c.Double:
		size = 8
	case c.Half != driver.NotHalf:
		size = 2
	}
	nx, nw, ny := c.N*c.C*c.H*c.W, c.F*c.C*c.KH*c.KW, c.N*c.F*c.OH*c.OW
	for _, m := range []struct {
		p driver.DevicePtr
		n int
	}{{c.X, nx}, {c.Wt, nw}, {c.Y, ny}} {
		if err := d.check("Conv", m.p, m.n*size); err != nil {
			return err
		}
	}
	if c.Kind < driver.ConvForward || c.Kind > driver.ConvBackwardFilter {
		return fmt.Errorf("emu: Conv: unknown kind %d", c.Kind)
	}
	switch {
	case c.Double:
		conv(c, slice[float64](c.X, nx), slice[float64](c.Wt, nw), slice[float64](c.Y, ny))
	case c.Half != driver.NotHalf:
		x, w, y := widen(c.Half, c.X, nx), widen(c.Half, c.Wt, nw), widen(c.Half, c.Y, ny)
		conv(c, x, w, y)
		out := map[driver.ConvKind]struct {
			v []float32
			p driver.DevicePtr
		}{driver.ConvForward: {y, c.Y}, driver.ConvBackwardData: {x, c.X}, driver.ConvBackwardFilter: {w, c.Wt}}[c.Kind]
		narrow(c.Half, out.v, out.p, len(out.v), 1, len(out.v))
	case c.TF32:
		x, w, y := slice[float32](c.X, nx), slice[float32](c.Wt, nw), slice[float32](c.Y, ny)
		switch c.Kind { // round the two inputs, write the output in place
		case driver.ConvForward:
			x, w = toTF32(x), toTF32(w)
		case driver.ConvBackwardData:
			w, y = toTF32(w), toTF32(y)
		case driver.ConvBackwardFilter:
			x, y = toTF32(x), toTF32(y)
		}
		conv(c, x, w, y)
	default:
		conv(c, slice[float32](c.X, nx), slice[float32](c.Wt, nw), slice[float32](c.Y, ny))
	}
	return nil
}

// conv runs c on x, w and y: the output of c.Kind is zeroed, then every
// (input, filter, output) triple that meets adds its product to it.
func conv[T float32 | float64](c driver.ConvArgs, x, w, y []T) {
	out := map[driver.ConvKind][]T{driver.ConvForward: y, driver.ConvBackwardData: x, driver.ConvBackwardFilter: w}[c.Kind]
	clear(out)
	for n := 0; n < c.N; n++ {
		for f := 0; f < c.F; f++ {
			for oh := 0; oh < c.OH; oh++ {
				for ow := 0; ow < c.OW; ow++ {
					yi := ((n*c.F+f)*c.OH+oh)*c.OW + ow
					for ch := 0; ch < c.C; ch++ {
						for i := 0; i < c.KH; i++ {
							h := oh*c.StrideH - c.PadH + i*c.DilH
							if h < 0 || h >= c.H {
								continue
							}
							for j := 0; j < c.KW; j++ {
								v := ow*c.StrideW - c.PadW + j*c.DilW
								if v < 0 || v >= c.W {
									continue
								}
								xi := ((n*c.C+ch)*c.H+h)*c.W + v
								wi := ((f*c.C+ch)*c.KH+i)*c.KW + j
								switch c.Kind {
								case driver.ConvForward:
									y[yi] += x[xi] * w[wi]
								case driver.ConvBackwardData:
									x[xi] += y[yi] * w[wi]
								case driver.ConvBackwardFilter:
									w[wi] += y[yi] * x[xi]
								}
							}
						}
					}
				}
			}
		}
	}
}
