package main

import (
	"fmt"
	"io"
	"math"
	"runtime"

	"github.com/gotensor/gotensor/cuda"
	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// benchGemm16 times n×n GEMMs on the tensor cores: BFloat16 and Float16
// operands (cuBLAS GemmEx, float32 sums) and Float32 with TF32
// (SetFloat32MatmulPrecision("high")), in TFLOP/s against torch.mm on the
// same GPU with the same dtypes (torch.backends.cuda.matmul.allow_tf32 for
// TF32).
func benchGemm16(w io.Writer, dev tensor.Device, ref *reference, sizes []int) {
	fmt.Fprintf(w, "\nGEMM on tensor cores (n×n·n×n)     gotensor TFLOP/s   PyTorch TFLOP/s   gotensor/PyTorch (speed)\n")
	defer tensor.SetFloat32MatmulPrecision("highest")
	for _, c := range []struct {
		key, name string
		dt        tensor.DType
		precision string
	}{
		{"bf16", "BFloat16", tensor.BFloat16, "highest"},
		{"fp16", "Float16", tensor.Float16, "highest"},
		{"tf32", "Float32 as TF32", tensor.Float32, "high"},
	} {
		tensor.SetFloat32MatmulPrecision(c.precision)
		for _, n := range sizes {
			flop := 2 * float64(n) * float64(n) * float64(n)
			x, y := tensor.RandnOn(dev, n, n).AsType(c.dt), tensor.RandnOn(dev, n, n).AsType(c.dt)
			got := timeLoop(func() { x.MatMul(y).Free() }, cuda.Synchronize)
			x.Free()
			y.Free()
			cuda.EmptyCache()
			want := ref.Gemm16[c.key][fmt.Sprint(n)]
			fmt.Fprintf(w, "  %-16s n = %-5d            %8.2f          %8s          %6s\n", c.name, n, flop/got/1e12, rate(flop/1e12, want), speedup(got, want))
		}
	}
}

// benchAMP times the training steps of benchTrain under bfloat16 autocast
// against PyTorch's under torch.autocast (bfloat16), the transformer
// block's attention by ScaledDotProductAttention (causal) against
// F.scaled_dot_product_attention, and prints each step's peak memory
// (MaxMemoryAllocated of one step) against torch.cuda.max_memory_allocated
// of one step, with the float32 transformer step's too. The flash
// attention rows (forward and backward, T 256 and 1024) belong after
// these, with the kernels that make them fast.
func benchAMP(w io.Writer, dev tensor.Device, s sizes, ref *reference, sync func(), profile int) error {
	fmt.Fprintf(w, "\nTraining steps under bfloat16 autocast, ms per step              gotensor    PyTorch   ratio   last loss\n")
	type peak struct {
		name, key string
		got       int64
	}
	var peaks []peak
	row := func(name, key string, step func() float64, want float64) error {
		var loss float64
		got := timeLoop(func() { loss = step() }, sync)
		fmt.Fprintf(w, "  %-64s %9.3f %10s %7s   %-9.4g\n", name, 1e3*got, ms(want), ratio(got, want), loss)
		if math.IsNaN(loss) || math.IsInf(loss, 0) {
			return fmt.Errorf("%s: the loss is %v", name, loss)
		}
		peaks = append(peaks, peak{name, key, peakOf(step)})
		if profile > 0 {
			cuda.StartProfile()
			step()
			fmt.Fprintf(w, "\n  profile of one step:\n")
			cuda.StopProfile().WriteTable(w, profile)
			fmt.Fprintln(w)
		}
		return nil
	}

	_, f32Step := blockStep(dev, s, false, false)
	// The float32 step's peak, for the memory table.
	peaks = append(peaks, peak{"transformer block, float32 (composed attention)", "transformer", peakOf(f32Step)})
	_, ampStep := blockStep(dev, s, true, true)
	if err := row(fmt.Sprintf("transformer block B %d T %d D %d, %d heads, SDPA, AdamW", s.B, s.T, s.D(), s.H), "transformer_amp",
		ampStep, ref.AMP["transformer"]); err != nil {
		return err
	}
	if err := row(convName(s), "convnet_amp", convStep(dev, s, true), ref.AMP["convnet"]); err != nil {
		return err
	}

	fmt.Fprintf(w, "\nPeak memory of one training step (MaxMemoryAllocated)           gotensor    PyTorch   ratio\n")
	for _, p := range peaks {
		want := ref.Memory[p.key]
		r := "-"
		if want > 0 {
			r = fmt.Sprintf("%.2f", float64(p.got)/want)
		}
		wantS := "-"
		if want > 0 {
			wantS = backend.ByteSize(int64(want))
		}
		fmt.Fprintf(w, "  %-64s %9s %10s %7s\n", p.name, backend.ByteSize(p.got), wantS, r)
	}
	// Flash attention (forward + backward, causal, B 32, 8 heads of 64,
	// T 256 and 1024, bfloat16, against F.scaled_dot_product_attention):
	// its rows go here, with the flash kernels (bench/attention times the
	// current ones).
	return nil
}

// peakOf returns the peak device memory of one call of step: the garbage
// of earlier steps is collected first (tensors dropped without Free give
// their memory back when the garbage collector finalizes them, which
// also counts within the step).
func peakOf(step func() float64) int64 {
	step()
	runtime.GC()
	runtime.GC()
	cuda.Synchronize()
	cuda.ResetPeakMemoryStats(0)
	step()
	cuda.Synchronize()
	return cuda.MaxMemoryAllocated(0)
}
