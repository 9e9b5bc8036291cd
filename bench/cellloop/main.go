// Command cellloop measures what the interpreter costs a training loop: the
// MNIST MLP of bench/mnist (784-256-10, ReLU, Adam 1e-3, batch 128) trained
// for one epoch by compiled Go and by the same loop written in a notebook
// cell (an interp.Session, as the kernel runs it), alternately, and prints
// both epoch times and their ratio. Every tensor op is compiled in both; the
// cell pays for interpreting the loop and calling the ops.
//
// Run it from the repository root (after `go run ./cmd/gotensor data mnist`):
//
//	go run ./bench/cellloop
//	go run ./bench/cellloop -rounds 3
//	go run ./bench/cellloop -cpuprofile /tmp/cell.prof
//
// -cpuprofile writes a CPU profile of the cell's epochs (not the compiled
// ones): what the interpreter adds shows there.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"sort"
	"time"

	"github.com/gotensor/gotensor/interp"
	"github.com/gotensor/gotensor/kernel"
	"github.com/gotensor/gotensor/tensorlib/data"
	"github.com/gotensor/gotensor/tensorlib/nn"
	"github.com/gotensor/gotensor/tensorlib/optim"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// setupCell and epochCell are the notebook's cells: the first loads the data
// and builds the model, the second trains one epoch.
const setupCell = `
train, _, err := data.LoadMNIST("")
if err != nil {
	panic(err)
}
tensor.ManualSeed(0)
model := nn.NewSequential(nn.NewFlatten(), nn.NewLinear(784, 256), nn.NewReLU(), nn.NewLinear(256, 10))
opt := optim.NewAdam(model.Parameters(), 1e-3)
loader := data.NewLoader(train, 128, data.Shuffle(0))
`

const epochCell = `
for loader.Next() {
	x, y := loader.Batch()
	loss := nn.CrossEntropy(model.Forward(x), y)
	opt.ZeroGrad()
	loss.Backward()
	opt.Step()
}
`

func main() {
	rounds := flag.Int("rounds", 3, "epochs each side trains; the median is reported")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the cell's epochs to this file")
	flag.Parse()
	if err := run(*rounds, *cpuprofile); err != nil {
		fmt.Fprintln(os.Stderr, "bench/cellloop:", err)
		os.Exit(1)
	}
}

func run(rounds int, cpuprofile string) error {
	train, _, err := data.LoadMNIST("")
	if err != nil {
		return err
	}
	tensor.ManualSeed(0)
	model := nn.NewSequential(nn.NewFlatten(), nn.NewLinear(784, 256), nn.NewReLU(), nn.NewLinear(256, 10))
	opt := optim.NewAdam(model.Parameters(), 1e-3)
	loader := data.NewLoader(train, 128, data.Shuffle(0))
	compiled := func() {
		for loader.Next() {
			x, y := loader.Batch()
			loss := nn.CrossEntropy(model.Forward(x), y)
			opt.ZeroGrad()
			loss.Backward()
			opt.Step()
		}
	}

	s, err := interp.New(interp.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	var out discard
	if _, err := s.Execute(context.Background(), setupCell, out); err != nil {
		return fmt.Errorf("setup cell: %v", err)
	}
	cell := func() error {
		_, err := s.Execute(context.Background(), epochCell, out)
		return err
	}

	// A warm-up epoch each, then alternate so that both see the same
	// machine load.
	compiled()
	if err := cell(); err != nil {
		return fmt.Errorf("epoch cell: %v", err)
	}
	var prof *os.File
	if cpuprofile != "" {
		if prof, err = os.Create(cpuprofile); err != nil {
			return err
		}
		defer prof.Close()
	}
	var tc, ti []float64
	for r := 0; r < rounds; r++ {
		start := time.Now()
		compiled()
		tc = append(tc, time.Since(start).Seconds())
		if prof != nil {
			if err := pprof.StartCPUProfile(prof); err != nil {
				return err
			}
		}
		start = time.Now()
		err := cell()
		ti = append(ti, time.Since(start).Seconds())
		if prof != nil {
			pprof.StopCPUProfile()
			prof = nil // one profile: the first round's cell
		}
		if err != nil {
			return fmt.Errorf("epoch cell: %v", err)
		}
	}
	c, i := median(tc), median(ti)
	fmt.Printf("MNIST MLP epoch (median of %d): compiled loop %.3f s, loop in a cell %.3f s, cell/compiled %.3f\n", rounds, c, i, i/c)
	return nil
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// discard is an kernel.Output that drops everything.
type discard struct{}

func (discard) Stream(name, text string)                        {}
func (discard) Display(b kernel.Bundle, id string, update bool) {}
func (discard) ClearOutput(wait bool)                           {}
func (discard) Input(prompt string, password bool) (string, error) {
	return "", fmt.Errorf("no input in a benchmark")
}
