//go:build cgo

package cuda

import (
	"math"
	"testing"

	"github.com/gotensor/gotensor/internal/testenv"
	"github.com/gotensor/gotensor/tensorlib/data"
	"github.com/gotensor/gotensor/tensorlib/nn"
	"github.com/gotensor/gotensor/tensorlib/optim"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// TestMLPTraining trains a two-layer MLP for a few Adam steps on the CPU
// and on the emulated device from the same start and data (an
// MNIST-shaped batch of synthetic images): the losses agree step by step.
func TestMLPTraining(t *testing.T) {
	tensor.ManualSeed(11)
	const batch, in, hidden, classes, steps = 16, 784, 32, 10, 4
	w1 := tensor.Randn(in, hidden).MulScalar(1 / math.Sqrt(in))
	b1 := tensor.Zeros(hidden)
	w2 := tensor.Randn(hidden, classes).MulScalar(1 / math.Sqrt(hidden))
	b2 := tensor.Zeros(classes)
	// One batch, fitted for a few steps: the loss must fall.
	xb, yb := tensor.Rand(batch, in), tensor.RandInt(0, classes, batch)
	train := func(dev tensor.Device) []float64 {
		params := []*tensor.Tensor{w1.Clone().To(dev), b1.Clone().To(dev), w2.Clone().To(dev), b2.Clone().To(dev)}
		for _, p := range params {
			p.SetRequiresGrad(true)
		}
		opt := optim.NewAdam(params, 3e-3)
		var losses []float64
		for s := 0; s < steps; s++ {
			x, y := xb.To(dev), yb.To(dev)
			h := x.MatMul(params[0]).Add(params[1]).ReLU()
			loss := tensor.CrossEntropy(h.MatMul(params[2]).Add(params[3]), y)
			loss.Backward()
			losses = append(losses, loss.Item())
			opt.Step()
			opt.ZeroGrad()
		}
		return losses
	}
	want, got := train(tensor.CPU), train(tensor.CUDA(0))
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-5*math.Abs(want[i]) {
			t.Errorf("step %d: loss %.7f on cuda, %.7f on cpu", i, got[i], want[i])
		}
	}
	if !(want[steps-1] < want[0]) {
		t.Errorf("the loss did not go down: %v", want)
	}
}

// TestMNISTMLP trains the notebook's MLP (nn.Linear layers moved to the
// device with To, optim.Adam) for a few steps on real MNIST batches, on the
// CPU and on the emulated device from the same initialization: the losses
// agree step by step. It is skipped when MNIST is not downloaded
// (`gotensor data mnist`).
func TestMNISTMLP(t *testing.T) {
	train, _, err := data.LoadMNIST("")
	if err != nil {
		testenv.Missing(t, "no MNIST (go run ./cmd/gotensor data mnist): %v", err)
	}
	const batch, steps = 32, 5
	run := func(dev tensor.Device) []float64 {
		tensor.ManualSeed(0)
		model := nn.NewSequential(nn.NewFlatten(), nn.NewLinear(784, 64), nn.NewReLU(), nn.NewLinear(64, 10))
		model.To(dev)
		opt := optim.NewAdam(model.Parameters(), 1e-3)
		var losses []float64
		for s := 0; s < steps; s++ {
			x := train.Images.Narrow(0, s*batch, batch).To(dev)
			y := train.Labels.Narrow(0, s*batch, batch).To(dev)
			loss := nn.CrossEntropy(model.Forward(x), y)
			opt.ZeroGrad()
			loss.Backward()
			opt.Step()
			losses = append(losses, loss.Item())
		}
		return losses
	}
	want, got := run(tensor.CPU), run(tensor.CUDA(0))
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-5*math.Abs(want[i]) {
			t.Errorf("step %d: loss %.7f on cuda, %.7f on cpu", i, got[i], want[i])
		}
	}
	// Ten classes at a random start: the loss starts near ln 10 = 2.30.
	if want[0] < 2 || want[0] > 2.6 || !(want[steps-1] < want[0]) {
		t.Errorf("cpu losses %v: want a start near 2.30 and a fall", want)
	}
}
