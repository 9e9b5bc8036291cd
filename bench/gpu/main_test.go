package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestSmallEmulated runs the whole bench (SGEMM, bandwidth, the op table,
// the training steps, attention) with tiny sizes on the emulated device, so that it
// keeps building and running without a GPU; PyTorch on the CPU stands in
// for the reference where python3 or /usr/bin/python3 has it. The times mean nothing here.
func TestSmallEmulated(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the bench on the emulator")
	}
	python, noRef := "", true
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import torch").Run() == nil {
			python, noRef = p, false
			break
		}
	}
	var out strings.Builder
	err := run(&out, options{sizes: "32", only: "gemm,bandwidth,ops,train,gemm16,amp,flash", python: python,
		script: "reference_torch.py", emulate: true, small: true, noRef: noRef})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{"SGEMM", "a.Add(b) (3 transfers", "x.Sum()", "x.Softmax(-1)", "nn.LayerNorm(8)",
		"nn.BatchNorm2d(3) training", "nn.MaxPool2d(2)", "q.MatMul(k.Transpose(-2, -1))", "Permute(0, 2, 1, 3).Reshape",
		"nn.Conv2d(3, 6, 3, pad 1)", "x.GELU()", "transformer block B 2 T 8 D 8", "conv net 3→4→8",
		"BFloat16         n = 32", "Float32 as TF32  n = 32", "under bfloat16 autocast", "2 heads, SDPA, AdamW", "Peak memory of one training step",
		"Attention forward + backward, causal, B 1, 2 heads of 64"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output has no %q:\n%s", want, out.String())
		}
	}
	if !noRef && strings.Contains(out.String(), "PyTorch not run") {
		t.Errorf("PyTorch did not run:\n%s", out.String())
	}
	t.Log("\n" + out.String())
}
