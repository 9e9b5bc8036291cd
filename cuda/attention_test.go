//go:build cgo

package cuda

import (
	"fmt"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// TestFusedAttention compares the fused kernels (kernels/attention.cu)
// with the composed ops on the device and with the CPU, forward and
// backward: odd lengths that leave partial tiles and blocks, cross
// attention, causal or not, head sizes 32, 64 and 128.
func TestFusedAttention(t *testing.T) {
	dev := tensor.CUDA(0)
	for _, c := range []struct {
		b, l, s, e, ev int
		causal         bool
	}{
		{2, 37, 37, 32, 32, true},
		{1, 19, 45, 64, 16, false},
		{1, 21, 21, 128, 128, true},
		{3, 5, 9, 8, 3, false},
		{1, 40, 17, 16, 16, true},
	} {
		for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
			t.Run(fmt.Sprintf("%dx%dx%dx%dx%d_causal%v_%v", c.b, c.l, c.s, c.e, c.ev, c.causal, dt), func(t *testing.T) {
				tensor.ManualSeed(7)
				q := tensor.Randn(c.b, 2, c.l, c.e).AsType(dt)
				k := tensor.Randn(c.b, 2, c.s, c.e).AsType(dt)
				v := tensor.Randn(c.b, 2, c.s, c.ev).AsType(dt)
				w := tensor.Randn(c.b, 2, c.l, c.ev).AsType(dt)
				run := func(d tensor.Device, extra ...tensor.AttentionOption) []*tensor.Tensor {
					xs := []*tensor.Tensor{q.To(d).SetRequiresGrad(true), k.To(d).SetRequiresGrad(true), v.To(d).SetRequiresGrad(true)}
					var opts []tensor.AttentionOption
					if c.causal {
						opts = append(opts, tensor.Causal())
					}
					out := tensor.ScaledDotProductAttention(xs[0], xs[1], xs[2], append(opts, extra...)...)
					if out.Device() != d {
						t.Fatalf("output on %v", out.Device())
					}
					if fused := out.GradFn() == "ScaledDotProductAttention"; fused != (len(extra) == 0) {
						t.Fatalf("on %v with %d options: recorded by %s", d, len(extra), out.GradFn())
					}
					out.Mul(w.To(d)).Sum().Backward()
					return []*tensor.Tensor{out.CPU(), xs[0].Grad().CPU(), xs[1].Grad().CPU(), xs[2].Grad().CPU()}
				}
				fused := run(dev)
				for _, want := range [][]*tensor.Tensor{run(dev, tensor.AttnComposed()), run(tensor.CPU)} {
					for i, name := range []string{"output", "dq", "dk", "dv"} {
						assertClose(t, name, fused[i], want[i])
					}
				}
			})
		}
	}
}
