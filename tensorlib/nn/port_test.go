package nn

import (
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
	"github.com/gotensor/gotensor/tensorlib/tensorio"
)

// The fixtures of testdata/gen_port.py: PyTorch 1.13's modules and losses
// called as a PyTorch user calls them.
var portFixtures = sync.OnceValues(func() (map[string]*tensor.Tensor, error) {
	ts, _, err := tensorio.LoadSafetensors("testdata/port.safetensors")
	return ts, err
})

// portIn returns the inputs of case c by name: float ones as leaves
// requiring grad, masks and labels as they are.
func portIn(t *testing.T, c string) map[string]*tensor.Tensor {
	t.Helper()
	ts, err := portFixtures()
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]*tensor.Tensor{}
	for name, v := range ts {
		if k, ok := strings.CutPrefix(name, c+".in."); ok {
			v = v.Clone()
			if _, grad := ts[c+".grad.in."+k]; grad {
				v.SetRequiresGrad(true)
			}
			in[k] = v
		}
	}
	if len(in) == 0 {
		t.Fatalf("case %q has no inputs; run /usr/bin/python3 testdata/gen_port.py", c)
	}
	return in
}

// portFx returns the fixture tensor name.
func portFx(t *testing.T, name string) *tensor.Tensor {
	t.Helper()
	ts, err := portFixtures()
	if err != nil {
		t.Fatal(err)
	}
	v, ok := ts[name]
	if !ok {
		t.Fatalf("fixture %q missing; run /usr/bin/python3 testdata/gen_port.py", name)
	}
	return v
}

// runPortCase loads PyTorch's state_dict of case c into m with nn.Load
// (every name and shape must match), puts m in evaluation mode, runs call
// on the case's inputs, backpropagates the case's upstream gradient, and
// compares the output, the inputs' gradients and every parameter's
// gradient with PyTorch's.
func runPortCase(t *testing.T, c string, m Forwarder, call func(in map[string]*tensor.Tensor) *tensor.Tensor) {
	t.Helper()
	if err := Load(filepath.Join("testdata", "port", c+".safetensors"), m); err != nil {
		t.Fatalf("%s: %v", c, err)
	}
	SetTraining(m, false)
	in := portIn(t, c)
	y := call(in)
	const rtol, atol = 1e-4, 2e-5
	assertClose(t, c+" output", y, portFx(t, c+".y"), rtol, atol)
	y.BackwardWith(portFx(t, c+".gout"))
	for k, x := range in {
		if x.RequiresGrad() {
			assertClose(t, c+" grad of input "+k, x.Grad(), portFx(t, c+".grad.in."+k), rtol, atol)
		}
	}
	sd := StateDict(m)
	ts, _ := portFixtures()
	n := 0
	for name, p := range sd {
		want, ok := ts[c+".grad."+name]
		if !ok {
			continue // a buffer
		}
		n++
		assertClose(t, c+" grad of "+name, p.Grad(), want, rtol, atol)
	}
	var params int
	for name := range ts {
		if strings.HasPrefix(name, c+".grad.") && !strings.HasPrefix(name, c+".grad.in.") {
			params++
		}
	}
	if n != params {
		t.Errorf("%s: compared %d parameter gradients, PyTorch has %d", c, n, params)
	}
}

// TestLayerMasksMatchTorch passes masks as PyTorch's layers take them
// (Bool true = may not attend; float added) and compares with PyTorch.
func TestLayerMasksMatchTorch(t *testing.T) {
	mha := NewMultiheadAttention(8, 2)
	runPortCase(t, "mha_bool_masks", mha, func(in map[string]*tensor.Tensor) *tensor.Tensor {
		x := in["x"]
		return mha.Attend(x, x, x, AttnMask(in["attn_mask"]), KeyPaddingMask(in["key_padding_mask"]))
	})
	mha = NewMultiheadAttention(8, 2)
	runPortCase(t, "mha_cross_float", mha, func(in map[string]*tensor.Tensor) *tensor.Tensor {
		return mha.Attend(in["q"], in["kv"], in["kv"], AttnMask(in["attn_mask"]), KeyPaddingMask(in["key_padding_mask"]))
	})
	mha = NewMultiheadAttention(8, 2)
	runPortCase(t, "mha_float_padding", mha, func(in map[string]*tensor.Tensor) *tensor.Tensor {
		x := in["x"]
		return mha.Attend(x, x, x, KeyPaddingMask(in["key_padding_mask"]))
	})
	enc := NewTransformerEncoderLayer(8, 2, 16)
	runPortCase(t, "encoder_layer_causal_pad", enc, func(in map[string]*tensor.Tensor) *tensor.Tensor {
		return enc.ForwardMask(in["x"], SrcMask(in["src_mask"]), SrcKeyPaddingMask(in["src_key_padding_mask"]))
	})
	pre := NewTransformerEncoderLayer(8, 4, 12, Activation("gelu"), NormFirst())
	runPortCase(t, "encoder_layer_pre_float", pre, func(in map[string]*tensor.Tensor) *tensor.Tensor {
		return pre.ForwardMask(in["x"], SrcMask(in["src_mask"]))
	})
}

// TestPortedCausalMask is the bug of issue 34: the causal mask a PyTorch
// user writes, torch.triu(torch.ones(T, T), 1).bool(), must hide the
// future, as IsCausal and the Causal field do, and the SDPA convention
// (tensor.AttnMask, true = may attend) must stay SDPA's.
func TestPortedCausalMask(t *testing.T) {
	tensor.ManualSeed(3)
	const T = 5
	l := NewTransformerEncoderLayer(8, 2, 16)
	SetTraining(l, false)
	x := tensor.Randn(2, T, 8)
	future := tensor.Ones(T, T).Triu(1).AsType(tensor.Bool)
	ported := l.ForwardMask(x, SrcMask(future))
	causal := l.ForwardMask(x, IsCausal())
	assertClose(t, "SrcMask(triu) against IsCausal", ported, causal, 1e-6, 1e-6)
	l.Causal = true
	assertClose(t, "SrcMask(triu) against Causal", ported, l.Forward(x), 1e-6, 1e-6)
	l.Causal = false
	// The first position's output must not depend on later positions.
	x2 := tensor.Cat(1, x.Narrow(1, 0, T-1), tensor.Zeros(2, 1, 8))
	y2 := l.ForwardMask(x2, SrcMask(future))
	assertClose(t, "first positions after changing the last", y2.Narrow(1, 0, T-1), ported.Narrow(1, 0, T-1), 1e-6, 1e-6)
	// SDPA: true = may attend.
	q := tensor.Randn(1, 2, T, 4)
	allowed := tensor.Ones(T, T).Tril(0).AsType(tensor.Bool)
	assertClose(t, "tensor.AttnMask(tril) against tensor.Causal",
		tensor.ScaledDotProductAttention(q, q, q, tensor.AttnMask(allowed)),
		tensor.ScaledDotProductAttention(q, q, q, tensor.Causal()), 1e-6, 1e-6)
	// Misuse: a mask of the wrong shape, an option the layer does not take.
	for i, f := range []func(){
		func() { l.ForwardMask(x, SrcMask(tensor.Ones(T, T+1).AsType(tensor.Bool))) },
		func() { l.ForwardMask(x, SrcKeyPaddingMask(tensor.Ones(3, T).AsType(tensor.Bool))) },
		func() { l.ForwardMask(x, SrcMask(future.AsType(tensor.Int64))) },
		func() { l.ForwardMask(x, AttnMask(future)) },
	} {
		if !panics(f) {
			t.Errorf("misuse %d did not panic", i)
		}
	}
	if m := GenerateSquareSubsequentMask(3).Float32s(); !slices.Equal(m[:3], []float32{0, float32(math.Inf(-1)), float32(math.Inf(-1))}) || m[3] != 0 || m[4] != 0 {
		t.Errorf("GenerateSquareSubsequentMask(3) = %v", m)
	}
}

// TestTransformerStacksMatchTorch builds the encoder and decoder stacks
// and nn.Transformer with PyTorch's arguments, loads PyTorch's state_dict
// under its names with nn.Load, and compares outputs and gradients with
// masks passed through the stack.
func TestTransformerStacksMatchTorch(t *testing.T) {
	enc := NewTransformerEncoder(NewTransformerEncoderLayer(8, 2, 16), 2, Norm(NewLayerNorm(8)))
	runPortCase(t, "encoder_stack", enc, func(in map[string]*tensor.Tensor) *tensor.Tensor {
		return enc.ForwardMask(in["x"], SrcMask(in["mask"]), SrcKeyPaddingMask(in["src_key_padding_mask"]))
	})
	dl := NewTransformerDecoderLayer(8, 2, 16)
	runPortCase(t, "decoder_layer", dl, func(in map[string]*tensor.Tensor) *tensor.Tensor {
		return dl.ForwardMemory(in["tgt"], in["memory"], TgtMask(in["tgt_mask"]), MemoryKeyPaddingMask(in["memory_key_padding_mask"]))
	})
	pre := NewTransformerDecoderLayer(8, 4, 12, Activation("gelu"), NormFirst())
	runPortCase(t, "decoder_layer_pre_float", pre, func(in map[string]*tensor.Tensor) *tensor.Tensor {
		return pre.ForwardMemory(in["tgt"], in["memory"], TgtMask(in["tgt_mask"]), MemoryMask(in["memory_mask"]),
			TgtKeyPaddingMask(in["tgt_key_padding_mask"]))
	})
	dec := NewTransformerDecoder(NewTransformerDecoderLayer(8, 2, 16), 2, Norm(NewLayerNorm(8)))
	runPortCase(t, "decoder_stack", dec, func(in map[string]*tensor.Tensor) *tensor.Tensor {
		return dec.ForwardMemory(in["tgt"], in["memory"], TgtMask(in["tgt_mask"]))
	})
	tr := NewTransformer(8, 2, 2, 1, 16)
	runPortCase(t, "transformer", tr, func(in map[string]*tensor.Tensor) *tensor.Tensor {
		return tr.ForwardSrcTgt(in["src"], in["tgt"], TgtMask(in["tgt_mask"]),
			SrcKeyPaddingMask(in["src_key_padding_mask"]), MemoryKeyPaddingMask(in["memory_key_padding_mask"]))
	})
	tr = NewTransformer(8, 4, 1, 2, 12, Activation("gelu"), NormFirst())
	runPortCase(t, "transformer_pre_gelu", tr, func(in map[string]*tensor.Tensor) *tensor.Tensor {
		return tr.ForwardSrcTgt(in["src"], in["tgt"], SrcMask(in["src_mask"]), MemoryMask(in["memory_mask"]))
	})
}

// TestTransformerStackParts checks what the fixtures do not: the layers
// of a stack are deep copies that start equal, TgtIsCausal is the
// subsequent mask, nn.Transformer initialises its matrices
// Xavier-uniform, the reprs, and misuse.
func TestTransformerStackParts(t *testing.T) {
	tensor.ManualSeed(7)
	layer := NewTransformerEncoderLayer(8, 2, 16)
	enc := NewTransformerEncoder(layer, 3)
	if len(enc.Layers) != 3 || enc.Layers[0] == layer || enc.Layers[0].Linear1.Weight == enc.Layers[1].Linear1.Weight {
		t.Fatal("the layers are not copies")
	}
	if !slices.Equal(enc.Layers[2].SelfAttn.InProjWeight.Float32s(), layer.SelfAttn.InProjWeight.Float32s()) {
		t.Error("a copy starts with other weights")
	}
	if got := len(enc.Parameters()); got != 3*len(layer.Parameters()) {
		t.Errorf("%d parameters, want %d", got, 3*len(layer.Parameters()))
	}
	dec := NewTransformerDecoder(NewTransformerDecoderLayer(8, 2, 16), 2)
	SetTraining(dec, false)
	tgt, mem := tensor.Randn(2, 5, 8), tensor.Randn(2, 3, 8)
	assertClose(t, "TgtIsCausal against the subsequent mask", dec.ForwardMemory(tgt, mem, TgtIsCausal()),
		dec.ForwardMemory(tgt, mem, TgtMask(GenerateSquareSubsequentMask(5))), 1e-5, 1e-6)
	tr := NewTransformer(16, 2, 1, 1, 32)
	w := tr.Encoder.Layers[0].Linear1.Weight.Float64s() // [32 16]: Xavier bound √(6/48)
	lo, hi := slices.Min(w), slices.Max(w)
	if bound := math.Sqrt(6.0 / 48); hi > bound || lo < -bound || hi < bound/2 {
		t.Errorf("linear1 weights in [%v, %v], want Xavier-uniform within ±%v", lo, hi, bound)
	}
	for _, want := range []string{"Transformer(\n  (encoder): TransformerEncoder(\n    (layers): ModuleList(\n      (0): TransformerEncoderLayer(",
		"(norm): LayerNorm((16,), eps=1e-05, elementwise_affine=True)", "(multihead_attn): MultiheadAttention("} {
		if !strings.Contains(tr.String(), want) {
			t.Errorf("repr lacks %q:\n%s", want, tr)
		}
	}
	for i, f := range []func(){
		func() { tr.Forward(tgt) },
		func() { dec.ForwardMemory(tgt, mem, SrcMask(GenerateSquareSubsequentMask(5))) },
		func() { NewTransformerEncoder(layer, 0) },
		func() { NewTransformerEncoder(layer, 2, NormFirst()) },
	} {
		if !panics(f) {
			t.Errorf("misuse %d did not panic", i)
		}
	}
}

// TestTransformerSaveIntoTorch saves an nn.Transformer made in Go, loads
// the file into PyTorch's nn.Transformer with load_state_dict(strict=True)
// and compares the outputs with masks.
func TestTransformerSaveIntoTorch(t *testing.T) {
	tensor.ManualSeed(11)
	m := NewTransformer(8, 2, 2, 2, 16, NormFirst())
	SetTraining(m, false)
	src, tgt := tensor.Randn(2, 5, 8), tensor.Randn(2, 4, 8)
	pad := tensor.FromFloat32s([]float32{0, 0, 0, 0, 0, 0, 0, 0, 1, 1}, 2, 5).AsType(tensor.Bool)
	want := m.ForwardSrcTgt(src, tgt, TgtMask(GenerateSquareSubsequentMask(4)), SrcKeyPaddingMask(pad), MemoryKeyPaddingMask(pad))
	ys := torchOfSaved(t, m, map[string]*tensor.Tensor{"src": src, "tgt": tgt, "pad": pad}, `
m = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=2, dim_feedforward=16,
                   norm_first=True, batch_first=True)
m.load_state_dict(sd, strict=True)
m.eval()
with torch.no_grad():
    out["y"] = m(x["src"], x["tgt"], tgt_mask=nn.Transformer.generate_square_subsequent_mask(4),
                 src_key_padding_mask=x["pad"], memory_key_padding_mask=x["pad"])
`)
	assertClose(t, "PyTorch's output of the Go model", ys["y"], want, 1e-4, 1e-5)
}

// torchOfSaved saves m with nn.Save and the inputs, and runs script in
// PyTorch with sd (the saved state_dict) and x (the inputs) as dicts of
// torch tensors; it returns what script puts in the dict out. It skips
// the test in -short mode or without python3-torch.
func torchOfSaved(t *testing.T, m Forwarder, inputs map[string]*tensor.Tensor, script string) map[string]*tensor.Tensor {
	t.Helper()
	if testing.Short() {
		t.Skip("runs PyTorch")
	}
	if err := exec.Command("/usr/bin/python3", "-c", "import torch, numpy").Run(); err != nil {
		t.Skipf("python3-torch is not available: %v", err)
	}
	dir := t.TempDir()
	if err := Save(filepath.Join(dir, "m.safetensors"), m); err != nil {
		t.Fatal(err)
	}
	if err := tensorio.SaveSafetensors(filepath.Join(dir, "x.safetensors"), inputs, nil); err != nil {
		t.Fatal(err)
	}
	prelude := `
import sys, os, torch, torch.nn as nn
sys.path.insert(0, "testdata")
import st
d = sys.argv[1]
sd = {k: torch.from_numpy(v) for k, v in st.load(os.path.join(d, "m.safetensors")).items()}
x = {k: torch.from_numpy(v) for k, v in st.load(os.path.join(d, "x.safetensors")).items()}
out = {}
`
	post := `
st.save(os.path.join(d, "y.safetensors"), {k: v.detach().numpy() for k, v in out.items()}, {})
`
	res, err := exec.Command("/usr/bin/python3", "-c", prelude+script+post, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("PyTorch: %v\n%s", err, res)
	}
	ys, _, err := tensorio.LoadSafetensors(filepath.Join(dir, "y.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	return ys
}

// TestLossesPortMatchTorch calls the losses with PyTorch's shapes and
// keyword arguments and compares the loss and its gradient with PyTorch.
func TestLossesPortMatchTorch(t *testing.T) {
	for _, tc := range []struct {
		c    string
		loss func(in map[string]*tensor.Tensor) *tensor.Tensor
	}{
		{"ce_kdim", func(in map[string]*tensor.Tensor) *tensor.Tensor { return CrossEntropy(in["input"], in["target"]) }},
		{"ce_weight_ignore_smooth", func(in map[string]*tensor.Tensor) *tensor.Tensor {
			return CrossEntropy(in["input"], in["target"], Weight(in["weight"]), IgnoreIndex(2), LabelSmoothing(0.1))
		}},
		{"ce_kdim_none_smooth", func(in map[string]*tensor.Tensor) *tensor.Tensor {
			return CrossEntropy(in["input"], in["target"], Weight(in["weight"]), LabelSmoothing(0.2), Reduction("none"))
		}},
		{"ce_sum_ignore", func(in map[string]*tensor.Tensor) *tensor.Tensor {
			return CrossEntropy(in["input"], in["target"], IgnoreIndex(-1), Reduction("sum"))
		}},
		{"ce_prob", func(in map[string]*tensor.Tensor) *tensor.Tensor {
			return CrossEntropy(in["input"], in["target"], Weight(in["weight"]), LabelSmoothing(0.1))
		}},
		{"ce_unbatched", func(in map[string]*tensor.Tensor) *tensor.Tensor { return CrossEntropy(in["input"], in["target"]) }},
		{"ce_default_pad", func(in map[string]*tensor.Tensor) *tensor.Tensor { return CrossEntropy(in["input"], in["target"]) }},
		{"nll_kdim_weight", func(in map[string]*tensor.Tensor) *tensor.Tensor {
			return NLLLoss(in["input"], in["target"], Weight(in["weight"]), IgnoreIndex(1))
		}},
		{"nll_none", func(in map[string]*tensor.Tensor) *tensor.Tensor {
			return NLLLoss(in["input"], in["target"], Reduction("none"))
		}},
		{"bce_weights", func(in map[string]*tensor.Tensor) *tensor.Tensor {
			return BCEWithLogits(in["input"], in["target"], Weight(in["weight"]), PosWeight(in["pos_weight"]))
		}},
		{"bce_none", func(in map[string]*tensor.Tensor) *tensor.Tensor {
			return BCEWithLogits(in["input"], in["target"], Reduction("none"))
		}},
		{"bce_sum_pos", func(in map[string]*tensor.Tensor) *tensor.Tensor {
			return BCEWithLogits(in["input"], in["target"], PosWeight(in["pos_weight"]), Reduction("sum"))
		}},
		{"mse_sum", func(in map[string]*tensor.Tensor) *tensor.Tensor {
			return MSELoss(in["input"], in["target"], Reduction("sum"))
		}},
		{"mse_none", func(in map[string]*tensor.Tensor) *tensor.Tensor {
			return MSELoss(in["input"], in["target"], Reduction("none"))
		}},
	} {
		in := portIn(t, tc.c)
		y := tc.loss(in)
		assertClose(t, tc.c+" loss", y, portFx(t, tc.c+".y"), 1e-5, 1e-6)
		y.BackwardWith(portFx(t, tc.c+".gout"))
		assertClose(t, tc.c+" grad", in["input"].Grad(), portFx(t, tc.c+".grad.in.input"), 1e-5, 1e-6)
	}
}

func TestLossMisuse(t *testing.T) {
	logits := tensor.Randn(2, 3, 4)
	for _, tc := range []struct {
		f    func()
		want string
	}{
		{func() { CrossEntropy(logits, tensor.Zeros(2, 3).AsType(tensor.Int64)) }, "want a target of [2 4]"},
		{func() { CrossEntropy(logits, tensor.Full(3, 2, 4).AsType(tensor.Int64)) }, "target 3 is outside [0, 3)"},
		{func() { CrossEntropy(logits.Select(2, 0), tensor.FromInt64s([]int64{0, -100}), Reduction("avg")) }, `Reduction("avg")`},
		{func() { CrossEntropy(logits.Select(2, 0), tensor.FromInt64s([]int64{0, 1}), Weight(tensor.Ones(2))) }, "want one weight per class, [3]"},
		{func() { MSELoss(logits, logits, IgnoreIndex(0)) }, "nn.MSELoss does not take IgnoreIndex; it takes Reduction"},
		{func() { NLLLoss(logits, tensor.Zeros(2, 4).AsType(tensor.Int64), LabelSmoothing(0.1)) }, "does not take LabelSmoothing"},
	} {
		msg := func() (msg string) {
			defer func() { msg = fmt.Sprint(recover()) }()
			tc.f()
			return ""
		}()
		if !strings.Contains(msg, tc.want) {
			t.Errorf("panic %q, want one containing %q", msg, tc.want)
		}
	}
	// The fused path and the composed one agree, -100 labels aside.
	x, y := tensor.Randn(5, 4), tensor.FromInt64s([]int64{0, 3, 1, 1, 2})
	assertClose(t, "fused against composed", CrossEntropy(x, y), CrossEntropy(x, y, Reduction("mean")), 1e-6, 1e-7)
}

// TestAttentionWeightsMatchTorch compares MultiheadAttention's weights,
// averaged over the heads (PyTorch's default) and per head, and their
// gradient, and the weights of every layer of an encoder from one pass,
// with PyTorch's.
func TestAttentionWeightsMatchTorch(t *testing.T) {
	mha := NewMultiheadAttention(8, 2)
	var avg, heads *tensor.Tensor
	runPortCase(t, "mha_weights", mha, func(in map[string]*tensor.Tensor) *tensor.Tensor {
		opts := []ForwardOption{AttnMask(in["attn_mask"]), KeyPaddingMask(in["key_padding_mask"])}
		out, w := mha.AttendWithWeights(in["q"], in["kv"], in["kv"], opts...)
		avg = w
		heads = mha.Weights(in["q"], in["kv"], append(opts, AverageAttnWeights(false))...)
		return out
	})
	assertClose(t, "averaged weights", avg, portFx(t, "mha_weights.out.weights"), 1e-5, 1e-6)
	assertClose(t, "per-head weights", heads, portFx(t, "mha_weights.out.weights_heads"), 1e-5, 1e-6)
	mha = NewMultiheadAttention(8, 2)
	runPortCase(t, "mha_weights_grad", mha, func(in map[string]*tensor.Tensor) *tensor.Tensor {
		_, w := mha.AttendWithWeights(in["x"], in["x"], in["x"], AttnMask(in["attn_mask"]))
		return w
	})
	enc := NewTransformerEncoder(NewTransformerEncoderLayer(8, 2, 16, NormFirst()), 3)
	var ws []*tensor.Tensor
	runPortCase(t, "encoder_weights", enc, func(in map[string]*tensor.Tensor) *tensor.Tensor {
		var y *tensor.Tensor
		y, ws = enc.ForwardWithWeights(in["x"], SrcMask(in["mask"]), SrcKeyPaddingMask(in["src_key_padding_mask"]))
		return y
	})
	for i, w := range ws {
		assertClose(t, fmt.Sprintf("layer %d's weights", i), w, portFx(t, fmt.Sprintf("encoder_weights.out.w%d", i)), 1e-5, 1e-6)
	}
	if len(ws) != 3 {
		t.Errorf("%d layers' weights, want 3", len(ws))
	}
}
