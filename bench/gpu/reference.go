package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// reference holds PyTorch's seconds per call of the operations bench/gpu
// times, on the same device (reference_torch.py). Missing entries are 0.
type reference struct {
	Torch  string             `json:"torch"`
	Device string             `json:"device"`
	Gemm   map[string]float64 `json:"gemm"` // n → seconds of an n×n×n SGEMM
	Add    float64            `json:"add"`
	Clone  float64            `json:"clone"`
	Copy   float64            `json:"copy"`
	Ops    map[string]opTimes `json:"ops"`   // the per-op table's rows
	Train  map[string]float64 `json:"train"` // "transformer", "convnet": seconds per step
	// The 16-bit part (mixed.go): "bf16", "fp16", "tf32" → n → seconds of
	// an n×n×n GEMM; the training steps under autocast, seconds per step;
	// torch.cuda.max_memory_allocated of one step, bytes.
	Gemm16 map[string]map[string]float64 `json:"gemm16"`
	AMP    map[string]float64            `json:"amp"`    // "transformer", "convnet"
	Memory map[string]float64            `json:"memory"` // "transformer", "transformer_amp", "convnet_amp"
}

// opTimes are seconds per forward, and per forward + out.sum().backward().
type opTimes struct {
	Fwd float64 `json:"fwd"`
	Bwd float64 `json:"bwd"`
}

// op returns the reference times of the named op, zero when absent.
func (r *reference) op(name string) opTimes {
	if r == nil {
		return opTimes{}
	}
	return r.Ops[name]
}

// runReference runs reference_torch.py with python on device ("cuda" or
// "cpu") for the same sizes and parts.
func runReference(python, script, device string, gemm []int, s sizes, parts string) (*reference, error) {
	var ns []string
	for _, n := range gemm {
		ns = append(ns, strconv.Itoa(n))
	}
	cfg, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(python, script, "--sizes", strings.Join(ns, ","), "--elems", strconv.Itoa(s.Elems),
		"--config", string(cfg), "--device", device, "--only", parts,
		"--loop-seconds", strconv.FormatFloat(loopSeconds, 'g', -1, 64))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v\n%s(it needs PyTorch with CUDA: pass its interpreter with -python)", python, script, err, stderr.String())
	}
	r := &reference{}
	if err := json.Unmarshal(out, r); err != nil {
		return nil, fmt.Errorf("%s: output is not the expected JSON (%v): %s", script, err, out)
	}
	return r, nil
}
