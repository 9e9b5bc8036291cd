//go:build cuda

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
// times, on the same GPU (reference_torch.py).
type reference struct {
	Torch  string             `json:"torch"`
	Device string             `json:"device"`
	Gemm   map[string]float64 `json:"gemm"` // n → seconds of an n×n×n SGEMM
	Add    float64            `json:"add"`
	Clone  float64            `json:"clone"`
	Copy   float64            `json:"copy"`
}

// runReference runs reference_torch.py with python for the same sizes.
func runReference(python, script string, sizes []int, elems int) (*reference, error) {
	var ns []string
	for _, n := range sizes {
		ns = append(ns, strconv.Itoa(n))
	}
	cmd := exec.Command(python, script, "--sizes", strings.Join(ns, ","), "--elems", strconv.Itoa(elems))
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
