//go:build cuda

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/gotensor/gotensor/cuda"
	"github.com/gotensor/gotensor/tensorlib/data"
	"github.com/gotensor/gotensor/tensorlib/nn"
	"github.com/gotensor/gotensor/tensorlib/optim"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// result is one framework's MNIST run; mnist_torch.py prints it as JSON.
type result struct {
	Torch        string    `json:"torch"`
	Device       string    `json:"device"`
	EpochSeconds []float64 `json:"epoch_seconds"`
	Accuracy     []float64 `json:"accuracy"`
}

// mean returns the mean epoch time without the first epoch when there are
// more than two (it loads kernels and fills the allocator's cache).
func (r result) mean() float64 {
	s := r.EpochSeconds
	if len(s) > 2 {
		s = s[1:]
	}
	var sum float64
	for _, v := range s {
		sum += v
	}
	return sum / float64(len(s))
}

// benchMNIST trains the MLP on dev with gotensor, then with PyTorch on the
// same GPU, and prints both.
func benchMNIST(dev tensor.Device, dir string, epochs int, python, script string) error {
	if epochs < 1 {
		return fmt.Errorf("-epochs %d: train at least one epoch", epochs)
	}
	if dir == "" {
		d, err := data.DefaultDir("mnist")
		if err != nil {
			return err
		}
		dir = d
	}
	train, test, err := data.LoadMNIST(dir)
	if err != nil {
		return err
	}
	fmt.Printf("\nMNIST MLP 784-256-10, ReLU, Adam 1e-3, batch 128, data on the GPU, %d epochs\n", epochs)
	g := trainGo(dev, train, test, epochs)
	report("gotensor", g, g)
	if python == "" {
		return nil
	}
	r, err := trainTorch(python, script, dir, epochs)
	if err != nil {
		return err
	}
	report("PyTorch "+r.Torch+" ("+r.Device+")", r, g)
	return nil
}

// trainGo trains on dev and times each epoch, up to a synchronized device.
func trainGo(dev tensor.Device, train, test *data.Dataset, epochs int) result {
	tensor.ManualSeed(0)
	model := nn.NewSequential(
		nn.NewFlatten(),
		nn.NewLinear(784, 256), nn.NewReLU(),
		nn.NewLinear(256, 10),
	)
	model.To(dev)
	opt := optim.NewAdam(model.Parameters(), 1e-3)
	onDev := data.NewTensorDataset(train.Images.To(dev), train.Labels.To(dev))
	testDev := data.NewTensorDataset(test.Images.To(dev), test.Labels.To(dev))
	loader := data.NewLoader(onDev, 128, data.Shuffle(0))
	r := result{Device: dev.String()}
	for e := 0; e < epochs; e++ {
		cuda.Synchronize()
		start := time.Now()
		for loader.Next() {
			x, y := loader.Batch()
			loss := nn.CrossEntropy(model.Forward(x), y)
			opt.ZeroGrad()
			loss.Backward()
			opt.Step()
		}
		cuda.Synchronize()
		r.EpochSeconds = append(r.EpochSeconds, time.Since(start).Seconds())
		r.Accuracy = append(r.Accuracy, accuracy(model, testDev))
	}
	return r
}

// accuracy returns the fraction of ds that m classifies correctly.
func accuracy(m nn.Module, ds *data.Dataset) float64 {
	n, correct := ds.Len(), 0.0
	tensor.NoGrad(func() {
		for lo := 0; lo < n; lo += 1000 {
			k := min(1000, n-lo)
			out := m.Forward(ds.Images.Narrow(0, lo, k))
			correct += out.Argmax(1).Eq(ds.Labels.Narrow(0, lo, k)).Sum().Item()
		}
	})
	return correct / float64(n)
}

// report prints one framework's line and gotensor's time as a multiple of
// its time.
func report(name string, r, g result) {
	var times []string
	for _, s := range r.EpochSeconds {
		times = append(times, fmt.Sprintf("%.2f", s))
	}
	fmt.Printf("  %-30s epochs %s s  mean %.2f s  test accuracy %.2f%%  gotensor/this %.2f\n",
		name, strings.Join(times, " "), r.mean(), 100*r.Accuracy[len(r.Accuracy)-1], g.mean()/r.mean())
}

// trainTorch runs the PyTorch side on cuda:0.
func trainTorch(python, script, dir string, epochs int) (result, error) {
	var r result
	cmd := exec.Command(python, script, "--dir", dir, "--epochs", strconv.Itoa(epochs), "--device", "cuda:0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return r, fmt.Errorf("%s %s: %v\n%s(it needs a PyTorch built with CUDA; pass its interpreter with -python, or -python '' to skip)", python, script, err, stderr.String())
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return r, fmt.Errorf("%s: output is not the expected JSON (%v): %s", script, err, out)
	}
	if len(r.EpochSeconds) == 0 || len(r.Accuracy) == 0 {
		return r, fmt.Errorf("%s: no epochs in its output: %s", script, out)
	}
	return r, nil
}
