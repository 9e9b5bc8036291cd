package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// flashSizes are the attention part's shapes: q, k and v are [B, H, T,
// Dh] for each T, causal (the setting: B 32, 8 heads of 64, T 256
// and 1024).
type flashSizes struct {
	B, H, Dh int
	T        []int
}

var (
	flashFull  = flashSizes{B: 32, H: 8, Dh: 64, T: []int{256, 1024}}
	flashSmall = flashSizes{B: 1, H: 2, Dh: 64, T: []int{40, 70}}
)

// flashRef is flash_torch.py's output: seconds per forward + backward
// for each T, of PyTorch's scaled_dot_product_attention in bfloat16
// (with the flash backend forced on a GPU) and in float32 (its default
// backend).
type flashRef struct {
	Torch   string                        `json:"torch"`
	Device  string                        `json:"device"`
	Backend string                        `json:"backend"`
	Times   map[string]map[string]float64 `json:"times"` // T → "bf16", "f32" → seconds
}

// runFlashRef runs flash_torch.py with python on device for s.
func runFlashRef(python, script, device string, s flashSizes) (*flashRef, error) {
	var ts []string
	for _, t := range s.T {
		ts = append(ts, strconv.Itoa(t))
	}
	cmd := exec.Command(python, script, "--device", device, "--b", strconv.Itoa(s.B), "--h", strconv.Itoa(s.H),
		"--dh", strconv.Itoa(s.Dh), "--t", strings.Join(ts, ","), "--loop-seconds", strconv.FormatFloat(loopSeconds, 'g', -1, 64))
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		return nil, fmt.Errorf("%s %s: %v\n%s", python, script, err, msg)
	}
	r := &flashRef{}
	if err := json.Unmarshal(out, r); err != nil {
		return nil, fmt.Errorf("%s: output is not the expected JSON (%v): %s", script, err, out)
	}
	return r, nil
}

// benchFlash times attention forward + out.Sum().Backward(), causal, for
// each T of s: gotensor's tensor-core kernel on BFloat16 tensors (their
// default) and on Float32 ones (AttnFlash: rounded to bfloat16 in the
// kernel), and its float32 default (the composed MatMul, Softmax,
// MatMul), against PyTorch's scaled_dot_product_attention in bfloat16
// with the flash backend and in float32. The ratio is gotensor's
// bfloat16 time over PyTorch's.
func benchFlash(w io.Writer, dev tensor.Device, s flashSizes, ref *flashRef, sync func()) {
	fmt.Fprintf(w, "\nAttention forward + backward, causal, B %d, %d heads of %d, ms (PyTorch %s, SDPA backend %s)\n",
		s.B, s.H, s.Dh, ref.Torch, ref.Backend)
	fmt.Fprintf(w, "  %6s %10s %10s %12s %14s %14s %8s\n", "T", "bf16", "f32 flash", "f32 default", "PyTorch bf16", "PyTorch f32", "ratio")
	for _, t := range s.T {
		tensor.ManualSeed(1)
		var times []float64
		for _, c := range []struct {
			dt   tensor.DType
			opts []tensor.AttentionOption
		}{{tensor.BFloat16, nil}, {tensor.Float32, []tensor.AttentionOption{tensor.AttnFlash()}}, {tensor.Float32, nil}} {
			xs := make([]*tensor.Tensor, 3)
			for i := range xs {
				xs[i] = tensor.RandnOn(dev, s.B, s.H, t, s.Dh).AsType(c.dt).SetRequiresGrad(true)
			}
			step := func() {
				for _, x := range xs {
					x.ZeroGrad()
				}
				out := tensor.ScaledDotProductAttention(xs[0], xs[1], xs[2], append(c.opts, tensor.Causal())...)
				out.Sum().Backward()
				out.Free()
			}
			times = append(times, timeLoop(step, sync))
			for _, x := range xs {
				x.ZeroGrad()
				x.Free()
			}
		}
		r := ref.Times[strconv.Itoa(t)]
		fmt.Fprintf(w, "  %6d %10.3f %10.3f %12.3f %14s %14s %8s\n", t, 1e3*times[0], 1e3*times[1], 1e3*times[2],
			ms(r["bf16"]), ms(r["f32"]), ratio(times[0], r["bf16"]))
	}
}
