//go:build cgo

package cuda

import (
	"math"
	"testing"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/cuda/internal/emu"
	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// TestConvBackend checks the cuDNN path of Conv2d (convBackend: dense
// operands, the three kinds of convolution, bias) on an emulated device
// whose driver convolves as cuDNN does, against the CPU's Conv2d forward
// and backward: strides, padding, dilation, a bias or none, a
// non-contiguous input, float64.
func TestConvBackend(t *testing.T) {
	d, err := openDevice(91, func() (driver.Driver, error) {
		return emu.ConvDriver{Driver: emu.New(emu.Options{Memory: 1 << 28})}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cb := &convBackend{deviceBackend: &deviceBackend{dev: d}, conv: d.drv.(driver.Convolver)}
	cases := []struct {
		name                      string
		x, w                      []int
		stride, padding, dilation [2]int
		bias, transposed, double  bool
	}{
		{"3x3 pad 1", []int{2, 3, 7, 6}, []int{4, 3, 3, 3}, [2]int{1, 1}, [2]int{1, 1}, [2]int{1, 1}, true, false, false},
		{"stride 2, no bias", []int{1, 2, 9, 8}, []int{3, 2, 3, 2}, [2]int{2, 3}, [2]int{0, 1}, [2]int{1, 1}, false, false, false},
		{"dilation 2, transposed input", []int{2, 2, 8, 8}, []int{2, 2, 3, 3}, [2]int{1, 1}, [2]int{2, 2}, [2]int{2, 2}, true, true, false},
		{"float64", []int{2, 3, 5, 5}, []int{2, 3, 3, 3}, [2]int{1, 1}, [2]int{1, 1}, [2]int{1, 1}, true, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dt := tensor.Float32
			if c.double {
				dt = tensor.Float64
			}
			host := func(t *tensor.Tensor) backend.Storage {
				if c.double {
					return cb.FromHost(t.Contiguous().Float64s())
				}
				return cb.FromHost(t.Contiguous().Float32s())
			}
			x := tensor.Randn(c.x...).AsType(dt)
			xl := backend.Contiguous(c.x)
			if c.transposed { // x is stored [N C W H] and seen as [N C H W]
				x = tensor.Randn(c.x[0], c.x[1], c.x[3], c.x[2]).AsType(dt)
				xl = backend.Layout{Shape: c.x, Strides: []int{c.x[1] * c.x[2] * c.x[3], c.x[2] * c.x[3], 1, c.x[2]}}
				x = x.Transpose(2, 3)
			}
			w := tensor.Randn(c.w...).AsType(dt)
			var b *tensor.Tensor
			var bs backend.Storage
			var bl backend.Layout
			if c.bias {
				b = tensor.Randn(c.w[0]).AsType(dt)
				bs, bl = host(b), backend.Contiguous([]int{c.w[0]})
				b.SetRequiresGrad(true)
			}
			x.SetRequiresGrad(true)
			w.SetRequiresGrad(true)
			want := tensor.Conv2d(x, w, b, c.stride, c.padding, c.dilation)
			g := tensor.Randn(want.Shape()...).AsType(dt)
			want.BackwardWith(g)

			xraw := x.Detach()
			if c.transposed {
				xraw = x.Detach().Transpose(2, 3) // the stored [N C W H]
			}
			xs, ws, gs := host(xraw), host(w.Detach()), host(g)
			out := cb.Conv2d(xs, xl, ws, backend.Contiguous(c.w), bs, bl, c.stride, c.padding, c.dilation)
			gl := backend.Contiguous(want.Shape())
			gx, gw, gb := cb.Conv2dBackward(gs, gl, xs, xl, ws, backend.Contiguous(c.w), c.stride, c.padding, c.dilation, [3]bool{true, true, c.bias})
			compare := func(what string, s backend.Storage, shape []int, ref *tensor.Tensor) {
				t.Helper()
				got := cb.ToHost(s, backend.Contiguous(shape))
				var gv []float64
				switch v := got.(type) {
				case []float32:
					for _, e := range v {
						gv = append(gv, float64(e))
					}
				case []float64:
					gv = v
				}
				rv := ref.Float64s()
				if len(gv) != len(rv) {
					t.Fatalf("%s: %d elements, want %d", what, len(gv), len(rv))
				}
				for i := range rv {
					if math.Abs(gv[i]-rv[i]) > 1e-4*(1+math.Abs(rv[i])) {
						t.Fatalf("%s: element %d is %v, want %v", what, i, gv[i], rv[i])
					}
				}
			}
			compare("output", out, want.Shape(), want.Detach())
			compare("x's gradient", gx, c.x, x.Grad())
			compare("w's gradient", gw, c.w, w.Grad())
			if c.bias {
				compare("b's gradient", gb, []int{c.w[0]}, b.Grad())
			} else if gb != nil {
				t.Error("a bias gradient without a bias")
			}
		})
	}
}
