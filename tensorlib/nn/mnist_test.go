package nn_test

import (
	"testing"
	"time"

	"github.com/gotensor/gotensor/internal/testenv"
	"github.com/gotensor/gotensor/tensorlib/data"
	"github.com/gotensor/gotensor/tensorlib/nn"
	"github.com/gotensor/gotensor/tensorlib/optim"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// loadMNISTOrSkip returns MNIST, skipping the test with -short or when
// the files are absent.
func loadMNISTOrSkip(t *testing.T) (train, test *data.Dataset) {
	t.Helper()
	if testing.Short() {
		t.Skip("trains on MNIST for a while; skipped with -short")
	}
	train, test, err := data.LoadMNIST("")
	if err != nil {
		testenv.Missing(t, "MNIST is not available (%v); fetch it with `go run ./cmd/gotensor data mnist` (or set $GOTENSOR_DATA)", err)
	}
	return train, test
}

// testAccuracy returns the fraction of ds that m classifies correctly,
// in evaluation mode and without building a graph.
func testAccuracy(m nn.Module, ds *data.Dataset) float64 {
	nn.SetTraining(m, false)
	defer nn.SetTraining(m, true)
	n, correct := ds.Len(), 0.0
	tensor.NoGrad(func() {
		for lo := 0; lo < n; lo += 1000 {
			k := min(1000, n-lo)
			x, y := ds.Images.Narrow(0, lo, k), ds.Labels.Narrow(0, lo, k)
			correct += m.Forward(x).Argmax(1).Eq(y).Sum().Item()
		}
	})
	return correct / float64(n)
}

// trainUntil trains m with opt on batches of 128 one epoch at a time
// until its test accuracy reaches target, for at most maxEpochs epochs,
// and logs the time and accuracy of each epoch. A non-nil sched steps
// after every batch.
func trainUntil(t *testing.T, name string, m nn.Module, loader *data.Loader, test *data.Dataset,
	opt optim.Optimizer, sched *optim.CosineLR, target float64, maxEpochs int) {
	t.Helper()
	total := time.Duration(0)
	for epoch := 1; epoch <= maxEpochs; epoch++ {
		start := time.Now()
		var loss float64
		for loader.Next() {
			x, y := loader.Batch()
			l := nn.CrossEntropy(m.Forward(x), y)
			opt.ZeroGrad()
			l.Backward()
			opt.Step()
			if sched != nil {
				sched.Step()
			}
			loss = l.Item()
		}
		took := time.Since(start)
		total += took
		acc := testAccuracy(m, test)
		t.Logf("%s epoch %d: %.2fs, last batch loss %.4f, test accuracy %.2f%%", name, epoch, took.Seconds(), loss, 100*acc)
		if acc >= target {
			t.Logf("%s: %.2f%% after %d epochs, %.2fs of training (%.2fs an epoch)",
				name, 100*acc, epoch, total.Seconds(), total.Seconds()/float64(epoch))
			return
		}
	}
	t.Errorf("%s: test accuracy below %.2f%% after %d epochs", name, 100*target, maxEpochs)
}

// TestMNISTMLP trains the multilayer perceptron of bench/mnist and the
// design's notebook (784-256-10, ReLU, Adam 1e-3, batches of 128) to at
// least 97% test accuracy. PyTorch 1.13 needs 3 to 4 epochs for that with
// the same setting (about 94.5% after one, 96% after two), and so does
// gotensor.
func TestMNISTMLP(t *testing.T) {
	train, test := loadMNISTOrSkip(t)
	tensor.ManualSeed(1)
	model := nn.NewSequential(
		nn.NewFlatten(),
		nn.NewLinear(784, 256), nn.NewReLU(),
		nn.NewLinear(256, 10),
	)
	opt := optim.NewAdam(model.Parameters(), 1e-3)
	loader := data.NewLoader(train, 128, data.Shuffle(1))
	trainUntil(t, "MLP", model, loader, test, opt, nil, 0.97, 6)
}

// TestMNISTCNN trains a small convolutional network with batch
// normalisation to at least 98.5% test accuracy in 2 epochs: Adam with a
// learning rate annealed from 3e-3 to 0 along a cosine over the 2 epochs'
// batches. (Without batch normalisation, or with a constant learning
// rate, networks this small reach about 98.2% in 2 epochs, in PyTorch
// too.)
func TestMNISTCNN(t *testing.T) {
	train, test := loadMNISTOrSkip(t)
	tensor.ManualSeed(1)
	model := nn.NewSequential(
		nn.NewConv2d(1, 8, 5), nn.NewBatchNorm2d(8), nn.NewReLU(), nn.NewMaxPool2d(2), // [N 8 12 12]
		nn.NewConv2d(8, 16, 5), nn.NewBatchNorm2d(16), nn.NewReLU(), nn.NewMaxPool2d(2), // [N 16 4 4]
		nn.NewFlatten(),
		nn.NewLinear(256, 64), nn.NewReLU(),
		nn.NewLinear(64, 10),
	)
	const epochs = 2
	opt := optim.NewAdam(model.Parameters(), 3e-3)
	loader := data.NewLoader(train, 128, data.Shuffle(1))
	sched := optim.NewCosineLR(opt, epochs*loader.Len(), 0)
	trainUntil(t, "CNN", model, loader, test, opt, sched, 0.985, epochs)
}
