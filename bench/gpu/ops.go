package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/gotensor/gotensor/cuda"
	"github.com/gotensor/gotensor/tensorlib/nn"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// An opCase is one row of the per-op table: f computes the op from
// inputs, the tensors (and the parameters of a layer) that backward
// differentiates.
type opCase struct {
	name  string // the row's name, reference_torch.py's key
	shape string // the input's shape
	grads []*tensor.Tensor
	f     func() *tensor.Tensor
}

// opCases builds the table's ops on dev, as reference_torch.py does.
func opCases(dev tensor.Device, s sizes) []opCase {
	B, H, T, Dh, D := s.B, s.H, s.T, s.Dh, s.D()
	N, C, HW := s.N, s.C, s.HW
	randn := func(shape ...int) *tensor.Tensor { return tensor.RandnOn(dev, shape...) }
	layer := func(m nn.Module) nn.Module { nn.To(m, dev); return m }
	var cases []opCase
	add := func(name string, in []*tensor.Tensor, params []*tensor.Tensor, f func() *tensor.Tensor) {
		cases = append(cases, opCase{name: name, shape: fmt.Sprint(in[0].Shape()), grads: append(in, params...), f: f})
	}
	x := randn(B, H, T, T)
	add("x.Sum()", []*tensor.Tensor{x}, nil, func() *tensor.Tensor { return x.Sum() })
	add("x.Softmax(-1)", []*tensor.Tensor{x}, nil, func() *tensor.Tensor { return x.Softmax(-1) })
	h := randn(B, T, D)
	ln := layer(nn.NewLayerNorm(D))
	add(fmt.Sprintf("nn.LayerNorm(%d)", D), []*tensor.Tensor{h}, nn.Parameters(ln), func() *tensor.Tensor { return ln.Forward(h) })
	img := randn(N, C, HW, HW)
	bn := layer(nn.NewBatchNorm2d(C))
	add(fmt.Sprintf("nn.BatchNorm2d(%d) training", C), []*tensor.Tensor{img}, nn.Parameters(bn), func() *tensor.Tensor { return bn.Forward(img) })
	pool := nn.NewMaxPool2d(2)
	add("nn.MaxPool2d(2)", []*tensor.Tensor{img}, nil, func() *tensor.Tensor { return pool.Forward(img) })
	q, k := randn(B, H, T, Dh), randn(B, H, T, Dh)
	add("q.MatMul(k.Transpose(-2, -1))", []*tensor.Tensor{q, k}, nil, func() *tensor.Tensor { return q.MatMul(k.Transpose(-2, -1)) })
	heads := randn(B, T, H, Dh)
	add("Permute(0, 2, 1, 3).Reshape", []*tensor.Tensor{heads}, nil, func() *tensor.Tensor {
		return heads.Permute(0, 2, 1, 3).Reshape(B, H, T*Dh)
	})
	cin := randn(N, C, HW/2, HW/2)
	conv := layer(nn.NewConv2d(C, 2*C, 3, nn.Padding(1)))
	add(fmt.Sprintf("nn.Conv2d(%d, %d, 3, pad 1)", C, 2*C), []*tensor.Tensor{cin}, nn.Parameters(conv), func() *tensor.Tensor { return conv.Forward(cin) })
	g := randn(B, T, 4*D)
	add("x.GELU()", []*tensor.Tensor{g}, nil, func() *tensor.Tensor { return g.GELU() })
	a, b := randn(s.Elems), randn(s.Elems)
	add("a.Add(b)", []*tensor.Tensor{a, b}, nil, func() *tensor.Tensor { return a.Add(b) })
	return cases
}

// benchOps times each op forward (inside NoGrad, the result freed) and
// forward then out.Sum().Backward() (gradients cleared before each),
// and prints milliseconds against PyTorch's, and how many times Go's
// collector ran during the forward + backward loop (device memory paces
// it: see cuda's allocator). With profile > 0 each row is followed by
// the kernels of one forward + backward, the most time first (at most
// profile of them).
func benchOps(w io.Writer, dev tensor.Device, s sizes, ref *reference, sync func(), profile int) {
	fmt.Fprintf(w, "\nOps, ms per call (forward; forward + out.Sum().Backward())\n")
	fmt.Fprintf(w, "  %-34s %-18s %9s %9s %7s %10s %10s %7s %5s\n", "op", "input", "gotensor", "PyTorch", "ratio", "fwd+bwd", "PyTorch", "ratio", "GCs")
	cases := opCases(dev, s)
	for _, c := range cases {
		fwd := timeLoop(func() {
			tensor.NoGrad(func() { c.f().Free() })
		}, sync)
		for _, t := range c.grads {
			t.SetRequiresGrad(true)
		}
		var ms0 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		step := func() {
			for _, t := range c.grads {
				t.ZeroGrad()
			}
			out := c.f()
			out.Sum().Backward()
			out.Free()
		}
		bwd := timeLoop(step, sync)
		var ms1 runtime.MemStats
		runtime.ReadMemStats(&ms1)
		var kernels string
		if profile > 0 {
			cuda.StartProfile()
			step()
			for i, e := range cuda.StopProfile() {
				if i == profile {
					break
				}
				kernels += fmt.Sprintf(" %s %.0fµs", e.Name, e.Time.Seconds()*1e6)
			}
		}
		for _, t := range c.grads {
			t.ZeroGrad()
			if t.IsLeaf() {
				t.SetRequiresGrad(false)
			}
		}
		r := ref.op(c.name)
		fmt.Fprintf(w, "  %-34s %-18s %9.3f %9s %7s %10.3f %10s %7s %5d\n", c.name, c.shape,
			1e3*fwd, ms(r.Fwd), ratio(fwd, r.Fwd), 1e3*bwd, ms(r.Bwd), ratio(bwd, r.Bwd), ms1.NumGC-ms0.NumGC)
		if kernels != "" {
			fmt.Fprintf(w, "      fwd+bwd kernels:%s\n", kernels)
		}
	}
	for _, c := range cases {
		for _, t := range c.grads {
			t.Free() // idempotent: inputs are shared by rows
		}
	}
}

// ms formats seconds as milliseconds, "-" for no reference.
func ms(sec float64) string {
	if sec <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", 1e3*sec)
}

// rate formats amount/sec, "-" for no reference.
func rate(amount, sec float64) string {
	if sec <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", amount/sec)
}

// speedup formats want/got (a speed ratio from times), "-" for no
// reference.
func speedup(got, want float64) string {
	if want <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", want/got)
}

// ratio formats got/want, "-" for no reference.
func ratio(got, want float64) string {
	if want <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", got/want)
}
