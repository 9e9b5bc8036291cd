//go:build cgo

package cuda

import (
	"fmt"
	"math"
	"testing"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/cuda/internal/emu"
	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// halfTol is the relative tolerance of a 16-bit result: two units in the
// last place (the CPU and the device sum float32 products in different
// orders, and each rounds once).
func halfTol(dt tensor.DType) float64 {
	if dt == tensor.BFloat16 {
		return 2.0 / 128
	}
	return 2.0 / 1024
}

// TestHalfParity runs ops on BFloat16 and Float16 tensors on the CPU and
// on the emulated device (MatMul through the GemmEx model, the rest
// converted to float32), forward and backward, and compares them with
// 16-bit tolerances.
func TestHalfParity(t *testing.T) {
	type hcase struct {
		name   string
		shapes [][]int
		f      func(in []*tensor.Tensor) *tensor.Tensor
	}
	// Without cuDNN the device convolves as im2col and a 16-bit GEMM,
	// whose column gradient is rounded to 16 bits before col2im sums nine
	// of them (as PyTorch's slow_conv2d does); the CPU convolves in
	// float32 and rounds once: a wider tolerance.
	looser := map[string]float64{"Conv2d": 8}
	cases := []hcase{
		{"MatMul", [][]int{{5, 7}, {7, 3}}, func(in []*tensor.Tensor) *tensor.Tensor { return in[0].MatMul(in[1]) }},
		{"MatMul/batched transposed", [][]int{{2, 4, 6}, {2, 5, 6}}, func(in []*tensor.Tensor) *tensor.Tensor {
			return in[0].MatMul(in[1].Transpose(1, 2))
		}},
		{"MatMul/broadcast", [][]int{{3, 4, 6}, {6, 5}}, func(in []*tensor.Tensor) *tensor.Tensor { return in[0].Transpose(1, 2).Transpose(1, 2).MatMul(in[1]) }},
		{"MatMul/heads", [][]int{{2, 8, 3, 4}, {2, 8, 3, 4}}, func(in []*tensor.Tensor) *tensor.Tensor {
			q, k := in[0].Permute(0, 2, 1, 3), in[1].Permute(0, 2, 1, 3)
			return q.MatMul(k.Transpose(-2, -1))
		}},
		{"Linear", [][]int{{6, 10}, {4, 10}, {4}}, func(in []*tensor.Tensor) *tensor.Tensor { return tensor.Linear(in[0], in[1], in[2]).GELU() }},
		{"Conv2d", [][]int{{2, 3, 6, 6}, {4, 3, 3, 3}, {4}}, func(in []*tensor.Tensor) *tensor.Tensor {
			return tensor.Conv2d(in[0], in[1], in[2], [2]int{1, 1}, [2]int{1, 1}, [2]int{1, 1})
		}},
		// Pooling exact inputs: results that differ by a rounding would
		// send the gradient to another element.
		{"MaxPool2d", [][]int{{2, 3, 6, 6}}, func(in []*tensor.Tensor) *tensor.Tensor {
			return in[0].ReLU().MaxPool2d([2]int{2, 2}, [2]int{}, [2]int{})
		}},
		{"Attention", [][]int{{2, 3, 5, 4}, {2, 3, 5, 4}, {2, 3, 5, 4}}, func(in []*tensor.Tensor) *tensor.Tensor {
			return tensor.ScaledDotProductAttention(in[0], in[1], in[2], tensor.Causal())
		}},
		{"Softmax LayerNorm", [][]int{{4, 9}, {9}, {9}}, func(in []*tensor.Tensor) *tensor.Tensor {
			return tensor.LayerNorm(in[0].Softmax(-1).MulScalar(4), []int{9}, in[1], in[2], 1e-5)
		}},
		{"Elementwise", [][]int{{5, 6}, {6}}, func(in []*tensor.Tensor) *tensor.Tensor {
			return in[0].Mul(in[1]).Sub(in[0].Tanh()).Div(in[1].Abs().AddScalar(1)).Sigmoid()
		}},
		{"Reductions", [][]int{{7, 33}}, func(in []*tensor.Tensor) *tensor.Tensor {
			return in[0].Sum(1).Add(in[0].Mean(1)).Add(in[0].Max(1))
		}},
	}
	for _, dt := range []tensor.DType{tensor.BFloat16, tensor.Float16} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%v/%s", dt, c.name), func(t *testing.T) {
				tensor.ManualSeed(7)
				var base []*tensor.Tensor
				for _, s := range c.shapes {
					base = append(base, tensor.Randn(s...).AsType(dt))
				}
				run := func(dev tensor.Device) (*tensor.Tensor, []*tensor.Tensor) {
					in := make([]*tensor.Tensor, len(base))
					for i, b := range base {
						in[i] = b.Clone().To(dev).SetRequiresGrad(true)
					}
					out := c.f(in)
					if out.DType() != dt {
						t.Fatalf("%v: result dtype %v, want %v", dev, out.DType(), dt)
					}
					out.AsType(tensor.Float32).Square().Sum().Backward()
					grads := make([]*tensor.Tensor, len(in))
					for i, x := range in {
						grads[i] = x.Grad()
					}
					return out, grads
				}
				want, wantG := run(tensor.CPU)
				got, gotG := run(tensor.CUDA(0))
				loose := max(1, looser[c.name])
				compareHalf(t, "forward", got, want, dt, loose)
				for i := range wantG {
					compareHalf(t, fmt.Sprintf("gradient %d", i), gotG[i], wantG[i], dt, loose)
				}
			})
		}
	}
}

func compareHalf(t *testing.T, what string, got, want *tensor.Tensor, dt tensor.DType, loose float64) {
	t.Helper()
	if got.DType() != want.DType() {
		t.Fatalf("%s: dtype %v, want %v", what, got.DType(), want.DType())
	}
	g, w := got.Float64s(), want.Float64s()
	scale := 0.0
	for _, v := range w {
		scale = math.Max(scale, math.Abs(v))
	}
	tol := halfTol(dt) * loose
	for i := range w {
		if math.Abs(g[i]-w[i]) > tol*(math.Abs(w[i])+0.05*scale) {
			t.Fatalf("%s: element %d is %v, the CPU gives %v", what, i, g[i], w[i])
		}
	}
}

// TestConvBackendHalf checks the cuDNN path of Conv2d on 16-bit operands
// (the emulated cuDNN sums in float32 and rounds once) against the CPU's
// Conv2d, which computes the same in float32 and rounds.
func TestConvBackendHalf(t *testing.T) {
	d, err := openDevice(92, func() (driver.Driver, error) {
		return emu.ConvDriver{Driver: emu.New(emu.Options{Memory: 1 << 28})}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cb := &convBackend{deviceBackend: &deviceBackend{dev: d}, conv: d.drv.(driver.Convolver)}
	if !cb.HalfNative("Conv2d") || !cb.HalfNative("MatMul") || !cb.HalfNative("Binary") || cb.deviceBackend.HalfNative("Conv2d") {
		t.Fatal("HalfNative does not name Conv2d for the cuDNN backend only")
	}
	stride, pad, dil := [2]int{1, 2}, [2]int{1, 1}, [2]int{1, 1}
	for _, dt := range []tensor.DType{tensor.BFloat16, tensor.Float16} {
		x := tensor.Randn(2, 3, 7, 6).AsType(dt).SetRequiresGrad(true)
		w := tensor.Randn(4, 3, 3, 3).AsType(dt).SetRequiresGrad(true)
		b := tensor.Randn(4).AsType(dt).SetRequiresGrad(true)
		want := tensor.Conv2d(x, w, b, stride, pad, dil)
		g := tensor.Randn(want.Shape()...).AsType(dt)
		want.BackwardWith(g)
		host := func(t *tensor.Tensor) backend.Storage {
			h := t.Detach().AsType(tensor.Float32).Float32s()
			bits := make([]backend.BF16, len(h))
			if dt == tensor.Float16 {
				f := make([]backend.F16, len(h))
				for i, v := range h {
					f[i] = backend.F16FromFloat32(v)
				}
				return cb.FromHost(f)
			}
			for i, v := range h {
				bits[i] = backend.BF16FromFloat32(v)
			}
			return cb.FromHost(bits)
		}
		xs, ws, bs, gs := host(x), host(w), host(b), host(g)
		out := cb.Conv2d(xs, backend.Contiguous(x.Shape()), ws, backend.Contiguous(w.Shape()), bs, backend.Contiguous([]int{4}), stride, pad, dil)
		gx, gw, gb := cb.Conv2dBackward(gs, backend.Contiguous(g.Shape()), xs, backend.Contiguous(x.Shape()), ws, backend.Contiguous(w.Shape()), stride, pad, dil, [3]bool{true, true, true})
		wrap := func(s backend.Storage, shape []int) *tensor.Tensor {
			var f []float32
			switch v := cb.ToHost(s, backend.Contiguous(shape)).(type) {
			case []backend.BF16:
				for _, e := range v {
					f = append(f, e.Float32())
				}
			case []backend.F16:
				for _, e := range v {
					f = append(f, e.Float32())
				}
			default:
				t.Fatalf("%v: a %T result", dt, v)
			}
			return tensor.FromFloat32s(f, shape...).AsType(dt)
		}
		compareHalf(t, "output", wrap(out, want.Shape()), want.Detach(), dt, 1)
		compareHalf(t, "x's gradient", wrap(gx, x.Shape()), x.Grad(), dt, 1)
		compareHalf(t, "w's gradient", wrap(gw, w.Shape()), w.Grad(), dt, 1)
		compareHalf(t, "b's gradient", wrap(gb, b.Shape()), b.Grad(), dt, 1)
	}
}

// TestTF32 checks SetFloat32MatmulPrecision: "high" makes the emulated
// device's Float32 products round their inputs to TF32 (so a product that
// needs more than 10 mantissa bits changes), "highest" restores float32,
// and the CPU computes in float32 either way.
func TestTF32(t *testing.T) {
	defer tensor.SetFloat32MatmulPrecision("highest")
	a := tensor.FromFloat32s([]float32{1 + 1.0/4096, 1}, 1, 2) // 1+2⁻¹² needs 12 mantissa bits
	b := tensor.FromFloat32s([]float32{1, 1}, 2, 1)
	exact := float64(float32(2 + 1.0/4096))
	for _, c := range []struct {
		precision string
		dev       tensor.Device
		want      float64
	}{
		{"highest", tensor.CUDA(0), exact},
		{"high", tensor.CUDA(0), 2}, // 1+2⁻¹² rounds to 1 in TF32
		{"medium", tensor.CUDA(0), 2},
		{"high", tensor.CPU, exact},
		{"highest", tensor.CUDA(0), exact},
	} {
		tensor.SetFloat32MatmulPrecision(c.precision)
		if got := tensor.Float32MatmulPrecision(); got != c.precision {
			t.Errorf("Float32MatmulPrecision() = %q after setting %q", got, c.precision)
		}
		got := a.To(c.dev).MatMul(b.To(c.dev)).Item()
		// A GPU's cuBLAS may compute so small a product without tensor
		// cores; the emulator always models them.
		gpu := c.dev != tensor.CPU && !Devices()[0].Emulated
		if got != c.want && !(gpu && got == exact) {
			t.Errorf("%s on %v: %v, want %v", c.precision, c.dev, got, c.want)
		}
	}
	if err := tensor.Try(func() { tensor.SetFloat32MatmulPrecision("low") }); err == nil {
		t.Error(`SetFloat32MatmulPrecision("low") accepted`)
	}
}
