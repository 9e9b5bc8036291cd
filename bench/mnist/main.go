// Command mnist measures how fast gotensor trains the MNIST multilayer
// perceptron of the design's notebook (784-256-10, ReLU, Adam with
// learning rate 1e-3, batches of 128) on the CPU, against PyTorch with the
// same model, optimizer, batch size and data in the same run. It trains
// with gotensor first, then runs bench/mnist/mnist_torch.py with Debian's
// /usr/bin/python3 once per PyTorch thread count (torch.set_num_threads),
// and prints the epoch times, the test accuracies and the ratios.
//
// Run it from the repository root:
//
//	go run ./bench/mnist
//	go run ./bench/mnist -epochs 3 -threads 1,2 -cpuprofile /tmp/mnist.prof
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
	flag.Parse()
	if err := run(*dir, *epochs, *threads, *python, *script, *cpuprofile); err != nil {
		fmt.Fprintln(os.Stderr, "bench/mnist:", err)
		os.Exit(1)
	}
}

func run(dir string, epochs int, threads, python, script, cpuprofile string) error {
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

	fmt.Printf("MNIST MLP 784-256-10, ReLU, Adam 1e-3, batch 128, %d epochs, CPU (%d cores, GOMAXPROCS %d)\n",
		epochs, runtime.NumCPU(), runtime.GOMAXPROCS(0))
	var prof *os.File
	if cpuprofile != "" {
		if prof, err = os.Create(cpuprofile); err != nil {
			return err
		}
		defer prof.Close()
	}
	g, err := trainGo(train, test, epochs, prof)
	if err != nil {
		return err
	}
	rows := []struct {
		name string
		r    result
	}{{"gotensor", g}}
	report(rows[0].name, g, g)

	for _, f := range strings.Split(threads, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return fmt.Errorf("-threads: %q is not a thread count", f)
		}
		r, err := trainTorch(python, script, dir, n, epochs)
		if err != nil {
			return err
		}
		name := fmt.Sprintf("PyTorch %s, %d thread", r.Torch, r.Threads)
		if r.Threads != 1 {
			name += "s"
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

// trainGo trains the model with gotensor and times each epoch; prof, when
// not nil, receives a CPU profile of the training steps.
func trainGo(train, test *data.Dataset, epochs int, prof *os.File) (result, error) {
	tensor.ManualSeed(0)
	model := nn.NewSequential(
		nn.NewFlatten(),
		nn.NewLinear(784, 256), nn.NewReLU(),
		nn.NewLinear(256, 10),
	)
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
	tensor.NoGrad(func() {
		for lo := 0; lo < n; lo += 1000 {
			k := min(1000, n-lo)
			out := m.Forward(ds.Images.Narrow(0, lo, k))
			correct += out.Argmax(1).Eq(ds.Labels.Narrow(0, lo, k)).Sum().Item()
		}
	})
	return correct / float64(n)
}

// trainTorch runs the PyTorch side with the given thread count.
func trainTorch(python, script, dir string, threads, epochs int) (result, error) {
	var r result
	cmd := exec.Command(python, script, "--dir", dir, "--threads", strconv.Itoa(threads), "--epochs", strconv.Itoa(epochs))
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
