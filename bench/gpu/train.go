package main

import (
	"fmt"
	"io"
	"math"
	"runtime"

	"github.com/gotensor/gotensor/cuda"
	"github.com/gotensor/gotensor/tensorlib/nn"
	"github.com/gotensor/gotensor/tensorlib/optim"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// block is one pre-norm transformer block written with tensor ops, as
// reference_torch.py's Block: x + attn(ln1(x)), then + mlp(ln2(·)), with
// causal self-attention over H heads.
type block struct {
	s              sizes
	ln1, ln2       *nn.LayerNorm
	wq, wk, wv, wo *nn.Linear
	fc1, fc2       *nn.Linear
	mask           *tensor.Tensor // [T, T]: 0 on and below the diagonal, -Inf above
	scale          float64
	params         []*tensor.Tensor
	sdpa           bool // attention by tensor.ScaledDotProductAttention (causal) rather than composed
}

func newBlock(dev tensor.Device, s sizes) *block {
	D, T := s.D(), s.T
	b := &block{s: s, ln1: nn.NewLayerNorm(D), ln2: nn.NewLayerNorm(D),
		wq: nn.NewLinear(D, D), wk: nn.NewLinear(D, D), wv: nn.NewLinear(D, D), wo: nn.NewLinear(D, D),
		fc1: nn.NewLinear(D, 4*D), fc2: nn.NewLinear(4*D, D), scale: 1 / math.Sqrt(float64(s.Dh))}
	m := make([]float32, T*T)
	for i := 0; i < T; i++ {
		for j := i + 1; j < T; j++ {
			m[i*T+j] = float32(math.Inf(-1))
		}
	}
	b.mask = tensor.FromFloat32s(m, T, T).To(dev)
	for _, l := range []nn.Module{b.ln1, b.ln2, b.wq, b.wk, b.wv, b.wo, b.fc1, b.fc2} {
		nn.To(l, dev)
		b.params = append(b.params, nn.Parameters(l)...)
	}
	return b
}

// heads splits [B, T, D] into [B, H, T, Dh].
func (b *block) heads(x *tensor.Tensor) *tensor.Tensor {
	return x.Reshape(b.s.B, b.s.T, b.s.H, b.s.Dh).Permute(0, 2, 1, 3)
}

func (b *block) Forward(x *tensor.Tensor) *tensor.Tensor {
	B, T, D := b.s.B, b.s.T, b.s.D()
	h := b.ln1.Forward(x)
	q, k, v := b.heads(b.wq.Forward(h)), b.heads(b.wk.Forward(h)), b.heads(b.wv.Forward(h))
	var y *tensor.Tensor
	if b.sdpa {
		y = tensor.ScaledDotProductAttention(q, k, v, tensor.Causal())
	} else {
		y = q.MatMul(k.Transpose(-2, -1)).MulScalar(b.scale).Add(b.mask).Softmax(-1).MatMul(v)
	}
	y = y.Permute(0, 2, 1, 3).Reshape(B, T, D)
	x = x.Add(b.wo.Forward(y))
	return x.Add(b.fc2.Forward(b.fc1.Forward(b.ln2.Forward(x)).GELU()))
}

func (b *block) Parameters() []*tensor.Tensor { return b.params }

// convNet is reference_torch.py's ConvNet: two Conv2d 3×3 pad 1,
// BatchNorm2d, ReLU, MaxPool2d(2) stages, then Linear to 10 classes.
func convNet(dev tensor.Device, s sizes) nn.Module {
	side := s.ConvHW / 4
	m := nn.NewSequential(
		nn.NewConv2d(3, s.ConvC1, 3, nn.Padding(1)), nn.NewBatchNorm2d(s.ConvC1), nn.NewReLU(), nn.NewMaxPool2d(2),
		nn.NewConv2d(s.ConvC1, s.ConvC2, 3, nn.Padding(1)), nn.NewBatchNorm2d(s.ConvC2), nn.NewReLU(), nn.NewMaxPool2d(2),
		nn.NewFlatten(), nn.NewLinear(s.ConvC2*side*side, 10))
	nn.To(m, dev)
	return m
}

// benchTrain times one training step of each model (zero the gradients,
// forward, loss, backward, optimizer step) and prints milliseconds
// against PyTorch's, and the last loss, which must be finite. With
// profile > 0 it then lists the profile kernels that took the most time
// in three more steps of each model.
func benchTrain(w io.Writer, dev tensor.Device, s sizes, ref *reference, sync func(), profile int) error {
	fmt.Fprintf(w, "\nTraining steps, ms per step                                        gotensor    PyTorch   ratio   last loss   GCs\n")
	row := func(name string, step func() float64, want float64) error {
		var loss float64
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		got := timeLoop(func() { loss = step() }, sync)
		runtime.ReadMemStats(&ms1)
		fmt.Fprintf(w, "  %-64s %9.3f %10s %7s   %-9.4g %5d\n", name, 1e3*got, ms(want), ratio(got, want), loss, ms1.NumGC-ms0.NumGC)
		if math.IsNaN(loss) || math.IsInf(loss, 0) {
			return fmt.Errorf("%s: the loss is %v", name, loss)
		}
		if profile > 0 {
			const steps = 3
			cuda.StartProfile()
			for i := 0; i < steps; i++ {
				step()
			}
			p := cuda.StopProfile()
			fmt.Fprintf(w, "\n  profile of %d steps (each kernel timed alone, so the sum exceeds %d steps' time):\n", steps, steps)
			p.WriteTable(w, profile)
			fmt.Fprintln(w)
		}
		return nil
	}

	_, step := blockStep(dev, s, false, false)
	if err := row(fmt.Sprintf("transformer block B %d T %d D %d, %d heads, AdamW", s.B, s.T, s.D(), s.H), step, ref.Train["transformer"]); err != nil {
		return err
	}
	return row(convName(s), convStep(dev, s, false), ref.Train["convnet"])
}

// inScope runs f, under bfloat16 autocast when amp is set.
func inScope(amp bool, f func()) {
	if amp {
		tensor.Autocast(tensor.BFloat16, f)
		return
	}
	f()
}

// blockStep returns a transformer block on dev and one training step of
// it (AdamW, loss out.Mul(out).Mean()): the forward under bfloat16
// autocast when amp is set, the attention by ScaledDotProductAttention
// when sdpa is.
func blockStep(dev tensor.Device, s sizes, amp, sdpa bool) (*block, func() float64) {
	blk := newBlock(dev, s)
	blk.sdpa = sdpa
	x := tensor.RandnOn(dev, s.B, s.T, s.D())
	adamw := optim.NewAdamW(blk.Parameters(), 1e-4)
	return blk, func() float64 {
		adamw.ZeroGrad()
		var loss *tensor.Tensor
		inScope(amp, func() {
			out := blk.Forward(x)
			loss = out.Mul(out).Mean()
		})
		loss.Backward()
		adamw.Step()
		return loss.Item()
	}
}

// convStep returns one training step of the conv net on dev (SGD with
// momentum, cross-entropy on random labels), its forward under bfloat16
// autocast when amp is set.
func convStep(dev tensor.Device, s sizes, amp bool) func() float64 {
	net := convNet(dev, s)
	imgs := tensor.RandnOn(dev, s.ConvN, 3, s.ConvHW, s.ConvHW)
	labels := tensor.RandIntOn(dev, 0, 10, s.ConvN)
	sgd := optim.NewSGD(nn.Parameters(net), 0.01, optim.Momentum(0.9))
	return func() float64 {
		sgd.ZeroGrad()
		var loss *tensor.Tensor
		inScope(amp, func() { loss = nn.CrossEntropy(net.Forward(imgs), labels) })
		loss.Backward()
		sgd.Step()
		return loss.Item()
	}
}

func convName(s sizes) string {
	return fmt.Sprintf("conv net 3→%d→%d on %d×%d, batch %d, SGD momentum", s.ConvC1, s.ConvC2, s.ConvHW, s.ConvHW, s.ConvN)
}
