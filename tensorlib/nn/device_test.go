//go:build cgo

package nn

import (
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// TestPortOnEmulatedDevice runs the ported paths on the emulated CUDA
// device and compares them with the CPU: an encoder stack with PyTorch's
// masks and its weights, CrossEntropy with -100 labels (the fused op's
// fallback) and with options, and a module of fields moved with To.
func TestPortOnEmulatedDevice(t *testing.T) {
	if testing.Short() {
		t.Skip("emulated CUDA is slow")
	}
	if err := UseTestEmulator(); err != nil {
		t.Skipf("no emulated CUDA device: %v", err)
	}
	gpu := tensor.CUDA(0)
	tensor.ManualSeed(21)
	m := newFieldNet()
	Eval(m)
	idx := tensor.FromInt64s([]int64{1, 5, 9, 0, 3, 3, 2, 7}, 2, 4)
	want := m.Forward(idx)
	pad := tensor.FromFloat32s([]float32{0, 0, 0, 0, 0, 0, 1, 1}, 2, 4).AsType(tensor.Bool)
	x := m.Tok.Forward(idx)
	_, wantW := m.Blocks[0].ForwardWithWeights(x, SrcMask(m.Causal), SrcKeyPaddingMask(pad))
	labels := tensor.FromInt64s([]int64{1, -100, 9, 0, 3, -100, 2, 7})
	logits := want.Reshape(8, 10)
	wantCE := CrossEntropy(logits, labels)
	cw := tensor.Rand(10)
	wantSmooth := CrossEntropy(want.Permute(0, 2, 1), labels.Reshape(2, 4), LabelSmoothing(0.1), Weight(cw))

	p := m.Pos
	To(m, gpu)
	m.Causal = m.Causal.To(gpu) // a plain tensor field: not moved, as PyTorch
	if m.Pos != p || m.Pos.Device() != gpu || m.Scale.Device() != gpu || m.Blocks[1].Norm2.Weight.Device() != gpu {
		t.Fatal("To did not move the fields' tensors in place")
	}
	got := m.Forward(idx.To(gpu))
	assertClose(t, "output on the device", got.CPU(), want, 1e-4, 1e-5)
	_, gotW := m.Blocks[0].ForwardWithWeights(m.Tok.Forward(idx.To(gpu)), SrcMask(m.Causal), SrcKeyPaddingMask(pad.To(gpu)))
	assertClose(t, "weights on the device", gotW.CPU(), wantW, 1e-4, 1e-5)
	assertClose(t, "CrossEntropy with -100 labels", CrossEntropy(got.Reshape(8, 10), labels.To(gpu)).CPU(), wantCE, 1e-4, 1e-5)
	gotSmooth := CrossEntropy(got.Permute(0, 2, 1), labels.Reshape(2, 4).To(gpu), LabelSmoothing(0.1), Weight(cw.To(gpu)))
	assertClose(t, "CrossEntropy with options", gotSmooth.CPU(), wantSmooth, 1e-4, 1e-5)
}
