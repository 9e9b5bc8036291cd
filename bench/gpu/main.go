//go:build cuda

package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gotensor/gotensor/cuda"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

func main() {
	sizes := flag.String("sizes", "1024,2048,4096,8192", "comma-separated n of the n×n SGEMMs")
	elems := flag.Int("elems", 64<<20, "Float32 elements of the bandwidth test's operands")
	only := flag.String("only", "gemm,bandwidth", "comma-separated parts to run: gemm, bandwidth")
	python := flag.String("python", "python3", "Python interpreter with a CUDA build of PyTorch")
	script := flag.String("script", "bench/gpu/reference_torch.py", "the PyTorch side of the benchmark")
	flag.Parse()
	if err := run(*sizes, *elems, *only, *python, *script); err != nil {
		fmt.Fprintln(os.Stderr, "bench/gpu:", err)
		os.Exit(1)
	}
}

func run(sizes string, elems int, only, python, script string) error {
	devs := cuda.Devices()
	if len(devs) == 0 {
		return fmt.Errorf("no CUDA device")
	}
	parts := map[string]bool{}
	for _, p := range strings.Split(only, ",") {
		parts[strings.TrimSpace(p)] = true
	}
	dev := tensor.CUDA(0)
	var ns []int
	for _, f := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("-sizes: %q is not a size", f)
		}
		ns = append(ns, n)
	}
	ref, err := runReference(python, script, ns, elems)
	if err != nil {
		return err
	}
	fmt.Printf("%v; %s %s/%s; PyTorch %s\n", devs[0], runtime.Version(), runtime.GOOS, runtime.GOARCH, ref.Torch)

	if parts["gemm"] {
		if err := benchGemm(dev, ref, ns); err != nil {
			return err
		}
	}
	if parts["bandwidth"] {
		if err := benchBandwidth(dev, ref, elems); err != nil {
			return err
		}
	}
	fmt.Println()
	fmt.Print(cuda.Report())
	return nil
}

// timeLoop runs f once to warm up, then enough times for about half a
// second (at least 3), synchronizing the device before reading the clock,
// and returns the seconds per call.
func timeLoop(f, sync func()) float64 {
	f()
	sync()
	start := time.Now()
	f()
	sync()
	one := time.Since(start).Seconds()
	iters := max(3, int(0.5/max(one, 1e-6)))
	start = time.Now()
	for i := 0; i < iters; i++ {
		f()
	}
	sync()
	return time.Since(start).Seconds() / float64(iters)
}
