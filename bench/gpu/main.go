package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gotensor/gotensor/cuda"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// options are the command's flags.
type options struct {
	sizes   string // n of the SGEMMs
	only    string // parts to run
	python  string
	script  string
	emulate bool // run on the emulated device
	small   bool // the small sizes
	noRef   bool // skip PyTorch
	profile int  // kernels to list for each training step (0: no profile)
}

func main() {
	var o options
	flag.StringVar(&o.sizes, "sizes", "1024,2048,4096,8192", "comma-separated n of the n×n SGEMMs")
	flag.StringVar(&o.only, "only", "gemm,bandwidth,ops,train,gemm16,amp,flash", "comma-separated parts to run: gemm, bandwidth, ops, train, gemm16 (bfloat16, float16 and TF32 GEMMs), amp (training steps under autocast, peak memory), flash (attention)")
	flag.StringVar(&o.python, "python", "python3", "Python interpreter with a CUDA build of PyTorch")
	flag.StringVar(&o.script, "script", "bench/gpu/reference_torch.py", "the PyTorch side of the benchmark")
	flag.BoolVar(&o.emulate, "emulate", false, "run on the CUDA emulator (no GPU; times mean nothing, the code paths are the GPU's); PyTorch runs on the CPU")
	flag.BoolVar(&o.small, "small", false, "tiny sizes (with -emulate: a check that the bench runs)")
	flag.BoolVar(&o.noRef, "noref", false, "do not run PyTorch")
	flag.IntVar(&o.profile, "profile", 0, "list the kernels that took the most time (cuda.StartProfile): up to 6 after each op's row, this many after each training step's")
	flag.Parse()
	if err := run(os.Stdout, o); err != nil {
		fmt.Fprintln(os.Stderr, "bench/gpu:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, o options) error {
	if o.emulate {
		if err := cuda.UseEmulator(cuda.EmulatorConfig{}); err != nil {
			return err
		}
	}
	devs := cuda.Devices()
	if len(devs) == 0 {
		return fmt.Errorf("no CUDA device: build with -tags cuda on a machine with an NVIDIA GPU (go run -tags cuda ./bench/gpu), or pass -emulate")
	}
	parts := map[string]bool{}
	for _, p := range strings.Split(o.only, ",") {
		parts[strings.TrimSpace(p)] = true
	}
	dev := tensor.CUDA(0)
	s := fullSizes
	if o.small {
		s = smallSizes
	}
	var ns []int
	for _, f := range strings.Split(o.sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("-sizes: %q is not a size", f)
		}
		ns = append(ns, n)
	}
	loopSeconds = 0.5
	if o.small {
		loopSeconds = 0.01
	}
	ref := &reference{Torch: "not run", Device: "-"}
	if !o.noRef {
		device := "cuda"
		if o.emulate {
			device = "cpu"
		}
		r, err := runReference(o.python, o.script, device, ns, s, o.only)
		if err != nil {
			return err
		}
		ref = r
	}
	fmt.Fprintf(w, "%v; %s %s/%s; PyTorch %s on %s\n", devs[0], runtime.Version(), runtime.GOOS, runtime.GOARCH, ref.Torch, ref.Device)
	fmt.Fprintf(w, "cuDNN: %s\n", cuda.ConvLibrary())
	if o.emulate {
		fmt.Fprintln(w, "(emulated device: the times are the CPU emulator's and mean nothing; this run checks that the bench works)")
	}
	sync := cuda.Synchronize
	if parts["gemm"] {
		benchGemm(w, dev, ref, ns)
	}
	if parts["bandwidth"] {
		benchBandwidth(w, dev, ref, s.Elems)
	}
	if parts["ops"] {
		benchOps(w, dev, s, ref, sync, min(o.profile, 6))
	}
	if parts["train"] {
		if err := benchTrain(w, dev, s, ref, sync, o.profile); err != nil {
			return err
		}
	}
	if parts["gemm16"] {
		benchGemm16(w, dev, ref, ns)
	}
	if parts["amp"] {
		if err := benchAMP(w, dev, s, ref, sync, o.profile); err != nil {
			return err
		}
	}
	if parts["flash"] {
		fs := flashFull
		if o.small {
			fs = flashSmall
		}
		fref := &flashRef{Torch: "not run", Backend: "-"}
		if !o.noRef {
			device := "cuda"
			if o.emulate {
				device = "cpu"
			}
			r, err := runFlashRef(o.python, filepath.Join(filepath.Dir(o.script), "flash_torch.py"), device, fs)
			if err != nil {
				return err
			}
			fref = r
		}
		benchFlash(w, dev, fs, fref, sync)
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, cuda.Report())
	return nil
}

// loopSeconds is how long timeLoop times each operation.
var loopSeconds = 0.5

// timeLoop runs f once to warm up, then enough times for about
// loopSeconds (at least 3), synchronizing the device before reading the
// clock, and returns the seconds per call.
func timeLoop(f, sync func()) float64 {
	f()
	sync()
	start := time.Now()
	f()
	sync()
	one := time.Since(start).Seconds()
	iters := max(3, int(loopSeconds/max(one, 1e-6)))
	start = time.Now()
	for i := 0; i < iters; i++ {
		f()
	}
	sync()
	return time.Since(start).Seconds() / float64(iters)
}
