//go:build cgo

package cuda

import (
	"fmt"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/nn"
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
					if fused := out.GradFn() == "ScaledDotProductAttention"; d == dev && fused != (len(extra) > 0) {
						t.Fatalf("on %v with %d options (AttnFused: the fused kernel; none: the composed ops): recorded by %s", d, len(extra), out.GradFn())
					}
					out.Mul(w.To(d)).Sum().Backward()
					return []*tensor.Tensor{out.CPU(), xs[0].Grad().CPU(), xs[1].Grad().CPU(), xs[2].Grad().CPU()}
				}
				fused := run(dev, tensor.AttnFused())
				for _, want := range [][]*tensor.Tensor{run(dev), run(tensor.CPU)} {
					for i, name := range []string{"output", "dq", "dk", "dv"} {
						assertClose(t, name, fused[i], want[i])
					}
				}
			})
		}
	}
}

// TestTransformerLayerOnDevice runs the notebook's block, a pre-norm
// causal nn.TransformerEncoderLayer, forward and backward on the device
// and on the CPU from the same weights, and a top-k sampling step.
func TestTransformerLayerOnDevice(t *testing.T) {
	dev := tensor.CUDA(0)
	tensor.ManualSeed(3)
	cpu := nn.NewTransformerEncoderLayer(16, 4, 32, nn.NormFirst(), nn.Activation("gelu"), nn.DropoutP(0))
	cpu.Causal = true
	gpu := nn.NewTransformerEncoderLayer(16, 4, 32, nn.NormFirst(), nn.Activation("gelu"), nn.DropoutP(0))
	gpu.Causal = true
	if err := nn.LoadStateDict(gpu, nn.StateDict(cpu)); err != nil {
		t.Fatal(err)
	}
	nn.To(gpu, dev)
	x := tensor.Randn(3, 11, 16)
	w := tensor.Randn(3, 11, 16)
	want := cpu.Forward(x)
	want.Mul(w).Sum().Backward()
	got := gpu.Forward(x.To(dev))
	got.Mul(w.To(dev)).Sum().Backward()
	assertClose(t, "output", got.CPU(), want)
	sd, sg := nn.StateDict(cpu), nn.StateDict(gpu)
	for name, p := range sd {
		assertClose(t, "grad of "+name, sg[name].Grad().CPU(), p.Grad())
	}
	// Sampling: top-k on the device keeps the same candidates as the CPU.
	logits := want.Select(1, -1).Detach()
	_, ic := logits.TopK(5, -1)
	_, ig := logits.To(dev).TopK(5, -1)
	assertClose(t, "top-k indices", ig.CPU(), ic)
	s := tensor.Multinomial(logits.To(dev).Softmax(-1), 4, true)
	if s.Device() != dev || fmt.Sprint(s.Shape()) != "[3 4]" {
		t.Errorf("Multinomial on the device: %v %v", s.Device(), s.Shape())
	}
}
