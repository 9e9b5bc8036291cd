package nn

import (
	"math"
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
func runPortCase(t *testing.T, c string, m Module, call func(in map[string]*tensor.Tensor) *tensor.Tensor) {
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
