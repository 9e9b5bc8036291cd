//go:build cgo

package cuda

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gotensor/gotensor/kernels"
	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// roundBF16 rounds x to bfloat16 (to nearest, ties to even), written
// apart from the kernels' conversion so that the tests check it.
func roundBF16(x float64) float64 {
	b := math.Float32bits(float32(x))
	hi, lo := b>>16, b&0xffff
	if lo > 0x8000 || lo == 0x8000 && hi&1 == 1 {
		hi++
	}
	return float64(math.Float32frombits(hi << 16))
}

// roundF16 rounds x to IEEE half (to nearest, ties to even) through its
// spacing: 2^(e-10) for |x| in [2^e, 2^(e+1)), 2^-24 below 2^-14.
func roundF16(x float64) float64 {
	x = float64(float32(x))
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	_, exp := math.Frexp(x) // |x| in [2^(exp-1), 2^exp)
	e := max(exp-1, -14)
	ulp := math.Ldexp(1, e-10)
	r := math.RoundToEven(x/ulp) * ulp
	if math.Abs(r) > 65504 {
		return math.Copysign(math.Inf(1), x)
	}
	return r
}

// TestMMAFragments runs one mma.sync m16n8k16 (kernels/flash.cu's
// mma_check_bf16_f32 and mma_check_f16_f32) on known matrices and compares D = A·B
// + C with a float64 product of the operands rounded on the CPU. On the
// emulator it checks the emulated instruction; on a GPU
// (GOTENSOR_TEST_GPU=1) it checks mma.cuh's fragment layout against the
// hardware's.
func TestMMAFragments(t *testing.T) {
	b := cudaBackend(t)
	if !b.dev.tensorCores() {
		t.Skipf("%v has no bf16 tensor cores (compute capability 8.0)", b.dev.props)
	}
	for _, c := range []struct {
		name  string
		round func(float64) float64
	}{{"bf16", roundBF16}, {"f16", roundF16}} {
		t.Run(c.name, func(t *testing.T) {
			// Distinct values everywhere, so that a misplaced element shows;
			// a and b mix magnitudes, and some products round.
			a, bm, cm := make([]float32, 16*16), make([]float32, 16*8), make([]float32, 16*8)
			for i := range a {
				a[i] = float32(math.Sin(float64(i)*1.7) * math.Pow(2, float64(i%5-2)))
			}
			for i := range bm {
				bm[i] = float32(math.Cos(float64(i)*0.9) + float64(i)/64)
			}
			for i := range cm {
				cm[i] = float32(i) / 8
			}
			sa, sb, sc := b.FromHost(a).(*storage), b.FromHost(bm).(*storage), b.FromHost(cm).(*storage)
			var sd *storage
			d := b.dev
			d.do(func() {
				sd = d.newStorage(tensor.Float32, 16*8)
				args := d.newArgs().Ptr(sa.ptr).Ptr(sb.ptr).Ptr(sc.ptr).Ptr(sd.ptr)
				d.launch(kernelKey(kernels.MmaCheck, c.name+"_f32"), 1, 32, args)
			})
			got := b.ToHost(sd, backend.Contiguous([]int{16, 8})).([]float32)
			for r := 0; r < 16; r++ {
				for n := 0; n < 8; n++ {
					want := float64(cm[r*8+n])
					for k := 0; k < 16; k++ {
						want += c.round(float64(a[r*16+k])) * c.round(float64(bm[k*8+n]))
					}
					if g := float64(got[r*8+n]); math.Abs(g-want) > 1e-6*(1+math.Abs(want)) {
						t.Fatalf("D[%d][%d] = %v, want %v", r, n, g, want)
					}
				}
			}
		})
	}
}

// attnRef is attention in float64 on the CPU, forward and backward for
// the output's gradient dout: q, dout [B, L, E], k, v [B, S, E].
func attnRef(q, k, v, dout []float64, B, L, S, E int, scale float64, causal bool) (out, dq, dk, dv []float64) {
	out, dq = make([]float64, B*L*E), make([]float64, B*L*E)
	dk, dv = make([]float64, B*S*E), make([]float64, B*S*E)
	p, dp := make([]float64, S), make([]float64, S)
	dot := func(x, y []float64) (s float64) {
		for i := range x {
			s += x[i] * y[i]
		}
		return s
	}
	for b := 0; b < B; b++ {
		for i := 0; i < L; i++ {
			qi, gi := q[(b*L+i)*E:][:E], dout[(b*L+i)*E:][:E]
			m, sum := math.Inf(-1), 0.0
			for j := 0; j < S; j++ {
				p[j] = math.Inf(-1)
				if !causal || j <= i {
					p[j] = scale * dot(qi, k[(b*S+j)*E:][:E])
				}
				m = max(m, p[j])
			}
			for j := range p {
				p[j] = math.Exp(p[j] - m)
				sum += p[j]
			}
			var pdp float64
			for j := range p {
				p[j] /= sum
				vj := v[(b*S+j)*E:][:E]
				for e := 0; e < E; e++ {
					out[(b*L+i)*E+e] += p[j] * vj[e]
				}
				dp[j] = dot(gi, vj)
				pdp += p[j] * dp[j]
			}
			for j := range p {
				ds := p[j] * (dp[j] - pdp)
				for e := 0; e < E; e++ {
					dq[(b*L+i)*E+e] += scale * ds * k[(b*S+j)*E+e]
					dk[(b*S+j)*E+e] += scale * ds * qi[e]
					dv[(b*S+j)*E+e] += p[j] * gi[e]
				}
			}
		}
	}
	return out, dq, dk, dv
}

// flashCase is one shape of TestFlashAttention: B batch × heads, L
// queries, S keys, head size E.
type flashCase struct {
	B, L, S, E int
	Causal     bool
}

func (c flashCase) String() string {
	return fmt.Sprintf("B%d_L%d_S%d_E%d_causal%v", c.B, c.L, c.S, c.E, c.Causal)
}

// flashCases cross the tile size (64) with lengths that are not multiples
// of it, run past the last tile with cross attention (L ≠ S, both ways,
// under causal too), and cover both head sizes: small enough for the
// emulator on two cores.
var flashCases = []flashCase{
	{2, 80, 80, 64, false},
	{2, 80, 80, 64, true},
	{1, 70, 70, 128, false},
	{1, 70, 70, 128, true},
	{1, 33, 100, 64, true},
	{1, 100, 45, 64, true},
	{1, 21, 130, 128, false},
}

// relErr returns ‖got − want‖ / ‖want‖ and the largest |got − want|
// relative to the largest |want|.
func relErr(got []float32, want []float64) (norm, peak float64) {
	var d2, w2, dmax, wmax float64
	for i, w := range want {
		d := float64(got[i]) - w
		d2 += d * d
		w2 += w * w
		dmax = max(dmax, math.Abs(d))
		wmax = max(wmax, math.Abs(w))
	}
	return math.Sqrt(d2 / w2), dmax / wmax
}

// flashInputs returns the case's q, k, v and the output's gradient as
// float32, seeded.
func flashInputs(c flashCase) (q, k, v, w []float32) {
	tensor.ManualSeed(int64(c.L*1000 + c.S + c.E))
	q = tensor.Randn(c.B, c.L, c.E).MulScalar(1.5).Float32s() // sharper softmax
	k = tensor.Randn(c.B, c.S, c.E).Float32s()
	v = tensor.Randn(c.B, c.S, c.E).Float32s()
	w = tensor.Randn(c.B, c.L, c.E).Float32s()
	return
}

func widen(x []float32, round func(float64) float64) []float64 {
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = round(float64(v))
	}
	return y
}

// flashTol are the bounds on relErr for results of kernels that round
// operands to a 16-bit format, against attention in float64 of the same
// rounded operands: norm for the whole tensor, peak for any element
// (relative to the largest). What remains is the rounding of the
// softmax weights and their gradients to 16 bits before their products,
// and for BFloat16 and Float16 tensors that of the results: measured on
// the emulator over flashCases, bf16 gives norms up to 2.9e-3 and peaks
// up to 4.8e-3, f16 3.5e-4 and 6.7e-4.
var flashTol = map[flashFormat]struct{ norm, peak float64 }{
	flashBF16: {6e-3, 1e-2},
	flashF16:  {8e-4, 1.5e-3},
}

// TestFlashAttention runs the flash kernels (kernels/flash.cu) through
// ScaledDotProductAttention with AttnFlash (bfloat16) and through the
// backend with float16, forward and backward, and compares the output and
// the gradients of q, k and v with attention in float64 on the CPU of the
// same operands rounded to 16 bits, within flashTol.
func TestFlashAttention(t *testing.T) {
	be := cudaBackend(t)
	if !be.dev.tensorCores() {
		t.Skipf("%v has no bf16 tensor cores (compute capability 8.0)", be.dev.props)
	}
	for _, c := range flashCases {
		q, k, v, w := flashInputs(c)
		scale := 1 / math.Sqrt(float64(c.E))
		t.Run(c.String()+"_bf16", func(t *testing.T) {
			checkFlash(t, c, flashBF16, runFlash(t, c, tensor.Float32, q, k, v, w), q, k, v, w, scale)
		})
		t.Run(c.String()+"_f16", func(t *testing.T) {
			st := func(x []float32) backend.Storage { return be.FromHost(x) }
			sq, sk, sv, sw := st(q), st(k), st(v), st(w)
			o, lse := be.flashForward(sq, sk, sv, c.B, c.L, c.S, c.E, scale, c.Causal, flashF16)
			dq, dk, dv := be.flashBackward(sq, sk, sv, o, lse, sw, c.B, c.L, c.S, c.E, scale, c.Causal, flashF16)
			host := func(s backend.Storage, rows int) []float32 {
				return be.ToHost(s, backend.Contiguous([]int{c.B * rows * c.E})).([]float32)
			}
			got := [][]float32{host(o, c.L), host(dq, c.L), host(dk, c.S), host(dv, c.S)}
			checkFlash(t, c, flashF16, got, q, k, v, w, scale)
		})
	}
}

// runFlash returns the output of ScaledDotProductAttention on the device
// and the gradients of q, k and v for the output's gradient w, with the
// operands of dtype dt (Float32 with AttnFlash, BFloat16 and Float16 as
// they are), and fails t unless the flash kernel ran.
func runFlash(t *testing.T, c flashCase, dt tensor.DType, q, k, v, w []float32) [][]float32 {
	t.Helper()
	dev := tensor.CUDA(0)
	in := func(x []float32, n int) *tensor.Tensor { return tensor.FromFloat32s(x, c.B, n, c.E).AsType(dt).To(dev) }
	xs := []*tensor.Tensor{in(q, c.L).SetRequiresGrad(true), in(k, c.S).SetRequiresGrad(true), in(v, c.S).SetRequiresGrad(true)}
	var opts []tensor.AttentionOption
	if dt == tensor.Float32 {
		opts = append(opts, tensor.AttnFlash())
	}
	if c.Causal {
		opts = append(opts, tensor.Causal())
	}
	out := tensor.ScaledDotProductAttention(xs[0], xs[1], xs[2], opts...)
	if out.GradFn() != "ScaledDotProductAttention" || out.DType() != dt {
		t.Fatalf("%v with %d options did not take the flash kernel: recorded by %s, %v", dt, len(opts), out.GradFn(), out.DType())
	}
	out.Mul(in(w, c.L)).Sum().Backward()
	return [][]float32{out.Float32s(), xs[0].Grad().Float32s(), xs[1].Grad().Float32s(), xs[2].Grad().Float32s()}
}

// checkFlash compares got (out, dq, dk, dv) with attnRef of the inputs
// rounded to f's format.
func checkFlash(t *testing.T, c flashCase, f flashFormat, got [][]float32, q, k, v, w []float32, scale float64) {
	t.Helper()
	round := roundBF16
	if f == flashF16 {
		round = roundF16
	}
	out, dq, dk, dv := attnRef(widen(q, round), widen(k, round), widen(v, round), widen(w, round), c.B, c.L, c.S, c.E, scale, c.Causal)
	// What a user of float32 sees: the error to the unrounded operands'.
	exact := func(x float64) float64 { return x }
	xout, xdq, xdk, xdv := attnRef(widen(q, exact), widen(k, exact), widen(v, exact), widen(w, exact), c.B, c.L, c.S, c.E, scale, c.Causal)
	tol := flashTol[f]
	for i, want := range [][]float64{out, dq, dk, dv} {
		name := []string{"output", "dq", "dk", "dv"}[i]
		norm, peak := relErr(got[i], want)
		if testing.Verbose() {
			xnorm, xpeak := relErr(got[i], [][]float64{xout, xdq, xdk, xdv}[i])
			t.Logf("%s: relative error %.2e, largest %.2e (to float32 operands: %.2e, %.2e)", name, norm, peak, xnorm, xpeak)
		}
		if !(norm <= tol.norm && peak <= tol.peak) {
			t.Errorf("%s: relative error %.2e (at most %.1e), largest %.2e of the largest value (at most %.1e)",
				name, norm, tol.norm, peak, tol.peak)
		}
	}
}

// TestFlashAttentionHalf runs BFloat16 and Float16 tensors through
// ScaledDotProductAttention, whose default they take the flash kernels
// for, and compares as TestFlashAttention does; the results are rounded
// to 16 bits too, which flashTol allows for.
func TestFlashAttentionHalf(t *testing.T) {
	be := cudaBackend(t)
	if !be.dev.tensorCores() {
		t.Skipf("%v has no bf16 tensor cores (compute capability 8.0)", be.dev.props)
	}
	for _, c := range flashCases[:4] {
		q, k, v, w := flashInputs(c)
		scale := 1 / math.Sqrt(float64(c.E))
		for _, dt := range []tensor.DType{tensor.BFloat16, tensor.Float16} {
			t.Run(fmt.Sprintf("%v_%v", c, dt), func(t *testing.T) {
				checkFlash(t, c, flashFormatOf(dt), runFlash(t, c, dt, q, k, v, w), q, k, v, w, scale)
			})
		}
	}
}

// TestFlashAttentionPyTorch compares the bfloat16 flash kernels with
// PyTorch's attention (softmax(q kᵀ scale) v in float64, autograd for the
// gradients) of the same operands rounded to bfloat16 by PyTorch, run by
// /usr/bin/python3 at test time (python3-torch 1.13 has no
// F.scaled_dot_product_attention; its math form is what that function
// computes).
func TestFlashAttentionPyTorch(t *testing.T) {
	if testing.Short() {
		t.Skip("runs PyTorch")
	}
	if err := exec.Command("/usr/bin/python3", "-c", "import torch").Run(); err != nil {
		t.Skipf("python3-torch is not available: %v", err)
	}
	be := cudaBackend(t)
	if !be.dev.tensorCores() {
		t.Skipf("%v has no bf16 tensor cores (compute capability 8.0)", be.dev.props)
	}
	type input struct {
		flashCase
		Q, K, V, W []float32
	}
	var ins []input
	var gots [][][]float32
	for _, c := range flashCases[:5] {
		q, k, v, w := flashInputs(c)
		ins = append(ins, input{c, q, k, v, w})
		gots = append(gots, runFlash(t, c, tensor.Float32, q, k, v, w))
	}
	dir := t.TempDir()
	b, err := json.Marshal(ins)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "in.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	script := `
import json, math, sys, torch
cases = json.load(open(sys.argv[1]))
res = []
for c in cases:
    B, L, S, E = c["B"], c["L"], c["S"], c["E"]
    t = lambda x, n: torch.tensor(x, dtype=torch.float32).reshape(B, n, E).to(torch.bfloat16).to(torch.float64)
    q, k, v = t(c["Q"], L).requires_grad_(), t(c["K"], S).requires_grad_(), t(c["V"], S).requires_grad_()
    w = t(c["W"], L)
    s = q @ k.transpose(-2, -1) / math.sqrt(E)
    if c["Causal"]:
        s = s.masked_fill(~torch.ones(L, S, dtype=torch.bool).tril(), float("-inf"))
    out = torch.softmax(s, -1) @ v
    (out * w).sum().backward()
    res.append([x.detach().flatten().tolist() for x in (out, q.grad, k.grad, v.grad)])
json.dump(res, open(sys.argv[2], "w"))
`
	if msg, err := exec.Command("/usr/bin/python3", "-c", script, filepath.Join(dir, "in.json"), filepath.Join(dir, "out.json")).CombinedOutput(); err != nil {
		t.Fatalf("PyTorch: %v\n%s", err, msg)
	}
	b, err = os.ReadFile(filepath.Join(dir, "out.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want [][][]float64
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	tol := flashTol[flashBF16]
	for i, c := range ins {
		for j, name := range []string{"output", "dq", "dk", "dv"} {
			norm, peak := relErr(gots[i][j], want[i][j])
			if !(norm <= tol.norm && peak <= tol.peak) {
				t.Errorf("%v %s: relative error to PyTorch %.2e (at most %.1e), largest %.2e (at most %.1e)",
					c.flashCase, name, norm, tol.norm, peak, tol.peak)
			}
		}
	}
}

// TestFlashAttentionFallback checks where AttnFlash does not apply: the
// call takes the other paths with float32's precision, and without
// AttnFlash float32 never takes the flash kernel.
func TestFlashAttentionFallback(t *testing.T) {
	dev := tensor.CUDA(0)
	tensor.ManualSeed(2)
	q, k, v := tensor.Randn(1, 20, 32).To(dev), tensor.Randn(1, 20, 32).To(dev), tensor.Randn(1, 20, 32).To(dev)
	q64, k64, v64 := tensor.Randn(1, 20, 64).To(dev), tensor.Randn(1, 20, 64).To(dev), tensor.Randn(1, 20, 64).To(dev)
	for _, x := range []*tensor.Tensor{q, k, v, q64, k64, v64} {
		x.SetRequiresGrad(true)
	}
	mask := tensor.Ones(20, 20).Gt(tensor.Scalar(0)).To(dev)
	for _, c := range []struct {
		name    string
		q, k, v *tensor.Tensor
		opts    []tensor.AttentionOption
		grad    string
	}{
		{"head size 32", q, k, v, []tensor.AttentionOption{tensor.AttnFlash()}, "MatMul"},
		{"head size 32, fused", q, k, v, []tensor.AttentionOption{tensor.AttnFlash(), tensor.AttnFused()}, "ScaledDotProductAttention"},
		{"a mask", q64, k64, v64, []tensor.AttentionOption{tensor.AttnFlash(), tensor.AttnMask(mask)}, "MatMul"},
		{"dropout", q64, k64, v64, []tensor.AttentionOption{tensor.AttnFlash(), tensor.AttnDropout(0.5)}, "MatMul"},
		{"float32 by default", q64, k64, v64, nil, "MatMul"},
		{"float64", q64.AsType(tensor.Float64), k64.AsType(tensor.Float64), v64.AsType(tensor.Float64), []tensor.AttentionOption{tensor.AttnFlash()}, "MatMul"},
	} {
		out := tensor.ScaledDotProductAttention(c.q, c.k, c.v, c.opts...)
		if out.GradFn() != c.grad {
			t.Errorf("%s: recorded by %s, want %s", c.name, out.GradFn(), c.grad)
		}
		if c.name == "float32 by default" {
			// Float32's precision, not bfloat16's.
			want := tensor.ScaledDotProductAttention(c.q.CPU(), c.k.CPU(), c.v.CPU())
			assertClose(t, c.name, out.CPU().Detach(), want.Detach())
		}
	}
}
