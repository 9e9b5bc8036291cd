package nn

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// runModuleCase loads case c's PyTorch state_dict into m with
// LoadStateDict (so the names must be PyTorch's), runs the fixture input
// forward and backward, and compares the output and every gradient.
func runModuleCase(t *testing.T, c string, m Module) {
	t.Helper()
	ts, err := fixtures()
	if err != nil {
		t.Fatal(err)
	}
	state := map[string]*tensor.Tensor{}
	for name := range ts {
		if k, ok := strings.CutPrefix(name, c+".sd."); ok {
			state[k] = fx(t, name)
		}
	}
	if got, want := keys(StateDict(m)), keys(state); !slices.Equal(got, want) {
		t.Fatalf("%s: StateDict names %v, PyTorch's %v", c, got, want)
	}
	if err := LoadStateDict(m, state); err != nil {
		t.Fatal(err)
	}
	SetTraining(m, false)
	x := fxParam(t, c+".x")
	y := m.Forward(x)
	const rtol, atol = 1e-4, 1e-5
	assertClose(t, c+" output", y, fx(t, c+".y"), rtol, atol)
	y.BackwardWith(fx(t, c+".gout"))
	assertClose(t, c+" grad x", x.Grad(), fx(t, c+".grad_x"), rtol, atol)
	for name, p := range StateDict(m) {
		assertClose(t, c+" grad "+name, p.Grad(), fx(t, c+".grad."+name), rtol, atol)
	}
}

func TestMultiheadAttentionMatchesTorch(t *testing.T) {
	runModuleCase(t, "mha", NewMultiheadAttention(8, 2))
	m := NewMultiheadAttention(12, 3)
	m.Causal = true
	runModuleCase(t, "mha_causal", m)
}

func TestTransformerEncoderLayerMatchesTorch(t *testing.T) {
	runModuleCase(t, "encoder_post_relu", NewTransformerEncoderLayer(8, 2, 16))
	l := NewTransformerEncoderLayer(8, 4, 12, Activation("gelu"), NormFirst())
	l.Causal = true
	runModuleCase(t, "encoder_pre_gelu_causal", l)
}

func TestMultiheadAttentionWeights(t *testing.T) {
	tensor.ManualSeed(2)
	m := NewMultiheadAttention(8, 2)
	x := tensor.Randn(2, 5, 8)
	if avg := m.Weights(x, x, IsCausal()); !slices.Equal(avg.Shape(), []int{2, 5, 5}) {
		t.Fatalf("averaged weights' shape %v", avg.Shape())
	}
	w := m.Weights(x, x, IsCausal(), AverageAttnWeights(false))
	if !slices.Equal(w.Shape(), []int{2, 2, 5, 5}) {
		t.Fatalf("shape %v", w.Shape())
	}
	// Rows sum to 1 and nothing attends to the future.
	sums := w.Sum(-1).Float64s()
	for i, s := range sums {
		if s < 1-1e-5 || s > 1+1e-5 {
			t.Fatalf("row %d sums to %v", i, s)
		}
	}
	if f := w.Triu(1).Abs().Sum().Item(); f != 0 {
		t.Errorf("weight %v on future keys", f)
	}
}

func TestTransformerOptionsAndRepr(t *testing.T) {
	l := NewTransformerEncoderLayer(8, 2, 16, DropoutP(0.2))
	if l.Drop.P != 0.2 || l.SelfAttn.Dropout != 0.2 || l.NormFirst || l.Activation != "relu" {
		t.Errorf("options not applied: %+v", l)
	}
	if !strings.Contains(l.String(), "(self_attn): MultiheadAttention(") {
		t.Errorf("repr:\n%s", l)
	}
	for _, f := range []func(){
		func() { NewMultiheadAttention(10, 3) },
		func() { NewTransformerEncoderLayer(8, 2, 16, Activation("tanh")) },
		func() { NewMultiheadAttention(8, 2, Padding(1)) },
	} {
		if !panics(f) {
			t.Error("bad constructor call did not panic")
		}
	}
}

func panics(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}

// TestTransformerSaveLoadPyTorch saves a two-block model in Go, loads it
// into the same PyTorch modules with load_state_dict(strict=True) and
// compares outputs.
func TestTransformerSaveLoadPyTorch(t *testing.T) {
	tensor.ManualSeed(5)
	m := NewSequential(NewTransformerEncoderLayer(8, 2, 16), NewTransformerEncoderLayer(8, 4, 8, NormFirst(), Activation("gelu")))
	SetTraining(m, false)
	x := tensor.Randn(2, 3, 8)
	want := m.Forward(x)
	ys := torchOfSaved(t, m, map[string]*tensor.Tensor{"x": x}, `
m = nn.Sequential(nn.TransformerEncoderLayer(8, 2, 16, batch_first=True),
                  nn.TransformerEncoderLayer(8, 4, 8, norm_first=True, activation="gelu", batch_first=True))
m.load_state_dict(sd, strict=True)
m.eval()
with torch.no_grad():
    out["y"] = m(x["x"])
`)
	assertClose(t, "PyTorch's output of the Go model", ys["y"], want, 1e-4, 1e-5)
	names := keys(StateDict(m))
	sort.Strings(names)
	if names[0] != "0.linear1.bias" || !slices.Contains(names, "1.self_attn.in_proj_weight") {
		t.Errorf("names %v", names)
	}
}
