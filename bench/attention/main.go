// Command attention measures scaled dot-product attention, forward and
// backward, in gotensor against PyTorch on the same device: gotensor's
// kernel (the blocked kernel on the CPU, its default from 2M scores; the
// fused kernel of kernels/attention.cu, tensor.AttnFused, on a GPU, where
// the default is the composed ops) against its composed ops (MatMul,
// Softmax, MatMul), and PyTorch's composed form and its own fused
// attention (F.scaled_dot_product_attention, or the private
// F._scaled_dot_product_attention of torch 1.13) from attention_torch.py,
// run with -python (Debian's /usr/bin/python3 by default).
//
// Run it from the repository root:
//
//	go run ./bench/attention                          # CPU, a small setting
//	go run ./bench/attention -b 32 -t 256,1024        # the setting
//	go run -tags cuda ./bench/attention -device cuda -python python3  # on the GPU
//
// Shapes are [B, heads, T, D/heads] for q, k and v, causal. Each figure is
// the best of three steps in each of -rounds runs, the sides alternating, so that a busy
// spell on a shared machine does not fall on one side only. The output is
// a table with milliseconds per forward+backward and the ratios.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	_ "github.com/gotensor/gotensor/cuda" // the CUDA device, for -device cuda
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

func main() {
	b := flag.Int("b", 4, "batch size")
	ts := flag.String("t", "256,1024", "sequence lengths, comma-separated")
	d := flag.Int("d", 512, "model width (heads × head size)")
	heads := flag.Int("heads", 8, "attention heads")
	device := flag.String("device", "cpu", "cpu or cuda")
	rounds := flag.Int("rounds", 3, "rounds; each figure is the best")
	noTorch := flag.Bool("notorch", false, "skip PyTorch")
	python := flag.String("python", "/usr/bin/python3", "Python interpreter with PyTorch (a CUDA build for -device cuda)")
	script := flag.String("script", "bench/attention/attention_torch.py", "the PyTorch side of the benchmark")
	flag.Parse()
	dev := tensor.CPU
	if *device == "cuda" {
		dev = tensor.CUDA(0)
	}
	fmt.Printf("attention forward+backward, causal, float32, B=%d, D=%d, %d heads, on %v (GOMAXPROCS %d)\n",
		*b, *d, *heads, dev, runtime.GOMAXPROCS(0))
	fmt.Printf("%6s %14s %14s %14s %14s %9s %9s\n", "T", "gotensor ms", "composed ms", "torch ms", "torch sdpa ms", "comp/ours", "ours/sdpa")
	for _, f := range strings.Split(*ts, ",") {
		t, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			fmt.Fprintln(os.Stderr, "bad -t:", err)
			os.Exit(2)
		}
		ours, comp := 1e18, 1e18
		torchPlain, torchSDPA := 1e18, 1e18
		for r := 0; r < *rounds; r++ {
			// Alternate which side goes first: the first allocations of a
			// run are slower.
			if r%2 == 0 {
				ours = min(ours, run(dev, *b, *heads, t, *d / *heads, false))
				comp = min(comp, run(dev, *b, *heads, t, *d / *heads, true))
			} else {
				comp = min(comp, run(dev, *b, *heads, t, *d / *heads, true))
				ours = min(ours, run(dev, *b, *heads, t, *d / *heads, false))
			}
			if !*noTorch {
				p, s := runTorch(*python, *script, *device, *b, *heads, t, *d / *heads)
				torchPlain, torchSDPA = min(torchPlain, p), min(torchSDPA, s)
			}
		}
		fmt.Printf("%6d %14.1f %14.1f %14.1f %14.1f %9.2f %9.2f\n", t, ours, comp, torchPlain, torchSDPA, comp/ours, ours/torchSDPA)
	}
}

// run returns the milliseconds of one forward and backward.
func run(dev tensor.Device, b, h, t, e int, composed bool) float64 {
	tensor.ManualSeed(1)
	q := tensor.RandnOn(dev, b, h, t, e).SetRequiresGrad(true)
	k := tensor.RandnOn(dev, b, h, t, e).SetRequiresGrad(true)
	v := tensor.RandnOn(dev, b, h, t, e).SetRequiresGrad(true)
	opts := []tensor.AttentionOption{tensor.Causal()}
	if composed {
		opts = append(opts, tensor.AttnComposed())
	} else if dev != tensor.CPU {
		opts = append(opts, tensor.AttnFused())
	}
	step := func() {
		out := tensor.ScaledDotProductAttention(q, k, v, opts...)
		out.Sum().Backward()
		_ = q.Grad().Sum().Item() // waits for the device
		q.ZeroGrad()
		k.ZeroGrad()
		v.ZeroGrad()
	}
	step() // warm up
	best := 1e18
	for i := 0; i < 3; i++ {
		start := time.Now()
		step()
		best = min(best, float64(time.Since(start).Microseconds())/1000)
	}
	return best
}

// runTorch returns PyTorch's milliseconds for the composed form and its
// fused attention.
func runTorch(python, script, device string, b, h, t, e int) (plain, sdpa float64) {
	script, err := filepath.Abs(script)
	if err != nil {
		fmt.Fprintln(os.Stderr, "PyTorch:", err)
		return 0, 0
	}
	cmd := exec.Command(python, script, device, strconv.Itoa(b), strconv.Itoa(h), strconv.Itoa(t), strconv.Itoa(e),
		strconv.Itoa(runtime.GOMAXPROCS(0)))
	cmd.Dir = os.TempDir() // not a directory whose files shadow Python modules
	out, err := cmd.Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "PyTorch:", err)
		return 0, 0
	}
	var r struct{ Plain, SDPA float64 }
	if err := json.Unmarshal(out, &r); err != nil {
		fmt.Fprintln(os.Stderr, "PyTorch output:", err, string(out))
	}
	return r.Plain, r.SDPA
}
