// Command mnist measures how fast gotensor trains MNIST models, against
// PyTorch with the same model, optimizer (Adam, learning rate 1e-3), batch
// size (128) and data in the same run. -model picks the models:
//
//   - mlp: the design's multilayer perceptron, 784-256-10 with ReLU;
//   - cnn: 5×5 convolutions 1→16 and 16→32, each with ReLU and 2×2
//     max-pooling, then 512-128-10;
//   - cnn-bn: notebooks/mnist.ipynb's CNN, convolutions 1→8 and 8→16 with
//     batch norm, then 256-64-10.
//
// It trains with gotensor
// first, then runs bench/mnist/mnist_torch.py: on the CPU once per PyTorch
// thread count (torch.set_num_threads), on a GPU once on the same device.
// It prints the epoch times, the test accuracies and the ratios. With
// -rounds N the frameworks take turns N times (gotensor, then PyTorch with
// each thread count, then gotensor again, ...) and each one's round with
// the shortest mean epoch is reported, so that a busy spell on a shared
// machine does not fall on one side only.
//
// Run it from the repository root:
//
//	go run ./bench/mnist
//	go run ./bench/mnist -epochs 3 -threads 1,2 -cpuprofile /tmp/mnist.prof
//	go run ./bench/mnist -model mlp,cnn,cnn-bn
//	go run ./bench/mnist -model mlp -rounds 3
//	go run -tags cuda ./bench/mnist -device cuda -python ~/venv/bin/python
//
// On a GPU the training and test sets are moved to the device once, as in
// PyTorch's side, and every epoch's time ends with cuda.Synchronize.
//
// An epoch's time covers the training steps only (shuffling, batching,
// forward, cross-entropy, zero_grad, backward, step), not the test-set
// evaluation after it. MNIST is read from -dir (default: where
// data.LoadMNIST looks); fetch it with `go run ./cmd/gotensor data mnist`.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/gotensor/gotensor/cuda"
	"github.com/gotensor/gotensor/tensorlib/data"
	"github.com/gotensor/gotensor/tensorlib/nn"
	"github.com/gotensor/gotensor/tensorlib/optim"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// result is one framework's run: the seconds of each epoch and the test
// accuracy after each. mnist_torch.py prints it as JSON.
type result struct {
	Torch        string    `json:"torch"`
	Threads      int       `json:"threads"`
	Device       string    `json:"device"`
	EpochSeconds []float64 `json:"epoch_seconds"`
	Accuracy     []float64 `json:"accuracy"`
}

// mean returns the mean epoch time, leaving out the first epoch when there
// are more than two (it pays for warming caches and the allocator).
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

func main() {
	dir := flag.String("dir", "", "MNIST directory (default: data.DefaultDir(\"mnist\"))")
	epochs := flag.Int("epochs", 2, "epochs each framework trains")
	threads := flag.String("threads", "1,2", "comma-separated PyTorch thread counts; empty: skip PyTorch")
	python := flag.String("python", "/usr/bin/python3", "Python interpreter with PyTorch")
	script := flag.String("script", "bench/mnist/mnist_torch.py", "the PyTorch side of the benchmark")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of gotensor's training to this file")
	device := flag.String("device", "cpu", "cpu, or cuda for the first GPU (needs a build with -tags cuda)")
	modelList := flag.String("model", "mlp", "comma-separated models: mlp, cnn, cnn-bn")
	rounds := flag.Int("rounds", 1, "times the frameworks take turns; each one's fastest round is reported")
	flag.Parse()
	for _, m := range strings.Split(*modelList, ",") {
		m = strings.TrimSpace(m)
		if models[m] == nil {
			fmt.Fprintf(os.Stderr, "bench/mnist: -model %q: use mlp, cnn or cnn-bn\n", m)
			os.Exit(2)
		}
		if err := run(m, *dir, *device, *epochs, max(1, *rounds), *threads, *python, *script, *cpuprofile); err != nil {
			fmt.Fprintln(os.Stderr, "bench/mnist:", err)
			os.Exit(1)
		}
		*cpuprofile = "" // one profile: the first model's
	}
}

// models builds each benchmark model, as mnist_torch.py's functions of the
// same names do.
var models = map[string]func() *nn.Sequential{
	"mlp": func() *nn.Sequential {
		return nn.NewSequential(nn.NewFlatten(), nn.NewLinear(784, 256), nn.NewReLU(), nn.NewLinear(256, 10))
	},
	"cnn": func() *nn.Sequential {
		return nn.NewSequential(
			nn.NewConv2d(1, 16, 5), nn.NewReLU(), nn.NewMaxPool2d(2),
			nn.NewConv2d(16, 32, 5), nn.NewReLU(), nn.NewMaxPool2d(2),
			nn.NewFlatten(), nn.NewLinear(512, 128), nn.NewReLU(), nn.NewLinear(128, 10))
	},
	"cnn-bn": func() *nn.Sequential {
		return nn.NewSequential(
			nn.NewConv2d(1, 8, 5), nn.NewBatchNorm2d(8), nn.NewReLU(), nn.NewMaxPool2d(2),
			nn.NewConv2d(8, 16, 5), nn.NewBatchNorm2d(16), nn.NewReLU(), nn.NewMaxPool2d(2),
			nn.NewFlatten(), nn.NewLinear(256, 64), nn.NewReLU(), nn.NewLinear(64, 10))
	},
}

var modelNames = map[string]string{
	"mlp":    "MLP 784-256-10, ReLU",
	"cnn":    "CNN conv 1→16 5×5, ReLU, pool, conv 16→32 5×5, ReLU, pool, 512-128-10",
	"cnn-bn": "the notebook's CNN (conv 1→8, 8→16 with batch norm, 256-64-10)",
}

func run(model, dir, device string, epochs, rounds int, threads, python, script, cpuprofile string) error {
	var dev tensor.Device
	switch device {
	case "cpu":
		dev = tensor.CPU
	case "cuda":
		if len(cuda.Devices()) == 0 {
			return fmt.Errorf("-device cuda: %s", strings.TrimSpace(cuda.Report()))
		}
		dev = tensor.CUDA(0)
	default:
		return fmt.Errorf("-device %q: use cpu or cuda", device)
	}
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

	where := fmt.Sprintf("CPU (%d cores, GOMAXPROCS %d)", runtime.NumCPU(), runtime.GOMAXPROCS(0))
	if dev != tensor.CPU {
		where = cuda.Devices()[0].String()
	}
	fmt.Printf("MNIST %s, Adam 1e-3, batch 128, %d epochs, %s", modelNames[model], epochs, where)
	if rounds > 1 {
		fmt.Printf(", fastest of %d rounds", rounds)
	}
	fmt.Println()
	var prof *os.File
	if cpuprofile != "" {
		if prof, err = os.Create(cpuprofile); err != nil {
			return err
		}
		defer prof.Close()
	}
	// The sides: gotensor, then PyTorch on the GPU or with each CPU
	// thread count.
	sides := []func() (result, error){func() (result, error) {
		p := prof
		prof = nil // one profile: the first round's
		// Seed before the model: its initial weights are random.
		tensor.ManualSeed(0)
		return trainGo(models[model](), dev, train, test, epochs, p)
	}}
	switch {
	case dev != tensor.CPU && python != "":
		sides = append(sides, func() (result, error) {
			// Give the device memory back before PyTorch runs beside us.
			runtime.GC()
			cuda.EmptyCache()
			return trainTorch(python, script, model, dir, "cuda:0", 0, epochs)
		})
	case dev == tensor.CPU:
		for _, f := range strings.Split(threads, ",") {
			if f = strings.TrimSpace(f); f == "" {
				continue
			}
			n, err := strconv.Atoi(f)
			if err != nil || n < 1 {
				return fmt.Errorf("-threads: %q is not a thread count", f)
			}
			sides = append(sides, func() (result, error) {
				return trainTorch(python, script, model, dir, "cpu", n, epochs)
			})
		}
	}
	best := make([]result, len(sides))
	for r := 0; r < rounds; r++ {
		for i, train := range sides {
			res, err := train()
			if err != nil {
				return err
			}
			if r == 0 || res.mean() < best[i].mean() {
				best[i] = res
			}
		}
	}
	g := best[0]
	report("gotensor", g, g)
	for _, r := range best[1:] {
		name := fmt.Sprintf("PyTorch %s, %s", r.Torch, r.Device)
		if dev == tensor.CPU {
			name = fmt.Sprintf("PyTorch %s, %d thread", r.Torch, r.Threads)
			if r.Threads != 1 {
				name += "s"
			}
		}
		report(name, r, g)
	}
	return nil
}

// report prints one framework's line: its epoch times, their mean, the
// final accuracy and gotensor's time as a multiple of its time.
func report(name string, r, g result) {
	var times []string
	for _, s := range r.EpochSeconds {
		times = append(times, fmt.Sprintf("%.2f", s))
	}
	fmt.Printf("%-26s epochs %s s  mean %.2f s  test accuracy %.2f%%  gotensor/this %.2f\n",
		name, strings.Join(times, " "), r.mean(), 100*r.Accuracy[len(r.Accuracy)-1], g.mean()/r.mean())
}

// trainGo trains the model with gotensor on dev and times each epoch; prof,
// when not nil, receives a CPU profile of the training steps.
func trainGo(model *nn.Sequential, dev tensor.Device, train, test *data.Dataset, epochs int, prof *os.File) (result, error) {
	model.To(dev)
	if dev != tensor.CPU {
		train = data.NewTensorDataset(train.Images.To(dev), train.Labels.To(dev))
		test = data.NewTensorDataset(test.Images.To(dev), test.Labels.To(dev))
	}
	opt := optim.NewAdam(model.Parameters(), 1e-3)
	loader := data.NewLoader(train, 128, data.Shuffle(0))
	r := result{Threads: runtime.GOMAXPROCS(0)}
	for e := 0; e < epochs; e++ {
		if prof != nil {
			if err := pprof.StartCPUProfile(prof); err != nil {
				return r, err
			}
		}
		start := time.Now()
		for loader.Next() {
			x, y := loader.Batch()
			loss := nn.CrossEntropy(model.Forward(x), y)
			opt.ZeroGrad()
			loss.Backward()
			opt.Step()
		}
		cuda.Synchronize() // GPU ops return once queued
		r.EpochSeconds = append(r.EpochSeconds, time.Since(start).Seconds())
		if prof != nil {
			pprof.StopCPUProfile()
			prof = nil // one profile: the first epoch
		}
		r.Accuracy = append(r.Accuracy, accuracy(model, test))
	}
	return r, nil
}

// accuracy returns the fraction of ds that m classifies correctly.
func accuracy(m nn.Module, ds *data.Dataset) float64 {
	n, correct := ds.Len(), 0.0
	nn.SetTraining(m, false)
	defer nn.SetTraining(m, true)
	tensor.NoGrad(func() {
		for lo := 0; lo < n; lo += 1000 {
			k := min(1000, n-lo)
			out := m.Forward(ds.Images.Narrow(0, lo, k))
			correct += out.Argmax(1).Eq(ds.Labels.Narrow(0, lo, k)).Sum().Item()
		}
	})
	return correct / float64(n)
}

// trainTorch runs the PyTorch side on device ("cpu" with the given thread
// count, or "cuda:0").
func trainTorch(python, script, model, dir, device string, threads, epochs int) (result, error) {
	var r result
	args := []string{script, "--model", model, "--dir", dir, "--device", device, "--epochs", strconv.Itoa(epochs)}
	if threads > 0 {
		args = append(args, "--threads", strconv.Itoa(threads))
	}
	cmd := exec.Command(python, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return r, fmt.Errorf("%s %s: %v\n%s(PyTorch comes from Debian's python3-torch: apt-get install python3-torch)", python, script, err, stderr.String())
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return r, fmt.Errorf("%s: output is not the expected JSON (%v): %s", script, err, out)
	}
	if len(r.EpochSeconds) == 0 || len(r.Accuracy) == 0 {
		return r, fmt.Errorf("%s: no epochs in its output: %s", script, out)
	}
	return r, nil
}
