package nn

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// fieldNet declares only its fields and Forward, as a PyTorch module
// declares attributes: nn derives everything else from the fields.
type fieldNet struct {
	Tok    *Embedding
	Pos    *tensor.Tensor // a parameter of its own
	Blocks []*TransformerEncoderLayer
	Heads  map[string]*Linear
	Norm   *LayerNorm
	LMHead *Linear
	Scale  *tensor.Tensor `nn:",buffer"`
	Drop   *Dropout       // no tensors, still reached by Eval
	Cache  *tensor.Tensor // no grad, no tag: not state, as a plain tensor attribute
	Skip   *Linear        `nn:"-"`
	hidden *Linear
	Causal *tensor.Tensor // the Bool mask, no grad
}

func newFieldNet() *fieldNet {
	return &fieldNet{
		Tok: NewEmbedding(10, 8), Pos: tensor.Randn(4, 8).MulScalar(0.1).SetRequiresGrad(true),
		Blocks: []*TransformerEncoderLayer{NewTransformerEncoderLayer(8, 2, 16), NewTransformerEncoderLayer(8, 2, 16)},
		Heads:  map[string]*Linear{"b": NewLinear(8, 3), "a": NewLinear(8, 3)},
		Norm:   NewLayerNorm(8), LMHead: NewLinear(8, 10),
		Scale: tensor.Rand(8).AddScalar(0.5), Drop: NewDropout(0.1), Cache: tensor.Zeros(3),
		Skip: NewLinear(2, 2), hidden: NewLinear(2, 2),
		Causal: tensor.Ones(4, 4).Triu(1).AsType(tensor.Bool),
	}
}

func (m *fieldNet) Forward(idx *tensor.Tensor) *tensor.Tensor {
	T := idx.Shape()[1]
	h := m.Tok.Forward(idx).Add(m.Pos.Narrow(0, 0, T))
	for _, b := range m.Blocks {
		h = b.ForwardMask(h, SrcMask(m.Causal.Narrow(0, 0, T).Narrow(1, 0, T)))
	}
	h = m.Norm.Forward(h).Mul(m.Scale)
	return m.LMHead.Forward(m.Drop.Forward(h)).Add(m.Heads["a"].Forward(h).SumKeep(-1)).Sub(m.Heads["b"].Forward(h).SumKeep(-1))
}

// TestFieldsDeriveModule checks Parameters, Children, StateDict, Eval,
// Train, To and Save/Load of a module that has only fields and Forward.
func TestFieldsDeriveModule(t *testing.T) {
	tensor.ManualSeed(1)
	m := newFieldNet()
	var names []string
	for _, c := range Children(m) {
		names = append(names, c.Name)
	}
	want := []string{"tok", "pos", "blocks.0", "blocks.1", "heads.a", "heads.b", "norm", "lm_head", "scale", "drop"}
	if !slices.Equal(names, want) {
		t.Errorf("Children %v, want %v", names, want)
	}
	ps := Parameters(m)
	if n := len(m.Tok.Parameters()) + 1 + 2*len(m.Blocks[0].Parameters()) + 4 + 2 + 2; len(ps) != n {
		t.Errorf("%d parameters, want %d", len(ps), n)
	}
	if ps[0] != m.Pos || ps[1] != m.Tok.Weight {
		t.Error("Parameters: want the module's own parameters first, then its children's, as PyTorch's parameters()")
	}
	sd := StateDict(m)
	for _, k := range []string{"pos", "tok.weight", "blocks.1.self_attn.in_proj_weight", "heads.a.bias", "lm_head.weight", "scale", "norm.bias"} {
		if _, ok := sd[k]; !ok {
			t.Errorf("StateDict lacks %q: %v", k, keys(sd))
		}
	}
	for _, k := range keys(sd) {
		if strings.HasPrefix(k, "cache") || strings.HasPrefix(k, "skip") || strings.HasPrefix(k, "hidden") || strings.HasPrefix(k, "causal") {
			t.Errorf("StateDict has %q", k)
		}
	}
	Eval(m)
	if m.Drop.Training || m.Blocks[1].Drop1.Training {
		t.Error("Eval did not reach the Dropouts")
	}
	Train(m)
	if !m.Drop.Training || !m.Blocks[0].SelfAttn.Training {
		t.Error("Train did not reach the layers")
	}
	To(m, tensor.CPU)
	path := filepath.Join(t.TempDir(), "m.safetensors")
	if err := Save(path, m); err != nil {
		t.Fatal(err)
	}
	m2 := newFieldNet()
	if err := Load(path, m2); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m2.Scale.Float32s(), m.Scale.Float32s()) || !slices.Equal(m2.Pos.Float32s(), m.Pos.Float32s()) {
		t.Error("Load did not restore the buffer and the parameter of its own")
	}
	if !strings.HasPrefix(Summary(m).String(), "Layer") || !strings.Contains(Summary(m).String(), "(lm_head) Linear") {
		t.Errorf("Summary:\n%s", Summary(m))
	}
	if !strings.HasPrefix(describe(m), "fieldNet(\n  (tok): Embedding(10, 8)") {
		t.Errorf("repr:\n%s", describe(m))
	}
}

// TestFieldsAgainstTorch saves the field-derived module, loads it into
// the same PyTorch module (attributes tok, pos, blocks as a ModuleList,
// heads as a ModuleDict, norm, lm_head, a buffer scale, drop) with
// load_state_dict(strict=True), and compares the output and every
// gradient.
func TestFieldsAgainstTorch(t *testing.T) {
	tensor.ManualSeed(2)
	m := newFieldNet()
	Eval(m)
	idx := tensor.FromInt64s([]int64{1, 5, 9, 0, 3, 3, 2, 7}, 2, 4)
	y := m.Forward(idx)
	gout := tensor.Randn(y.Shape()...)
	y.BackwardWith(gout)
	ys := torchOfSaved(t, m, map[string]*tensor.Tensor{"idx": idx, "gout": gout}, `
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(10, 8)
        self.pos = nn.Parameter(torch.zeros(4, 8))
        self.blocks = nn.ModuleList([nn.TransformerEncoderLayer(8, 2, 16, batch_first=True) for _ in range(2)])
        self.heads = nn.ModuleDict({"a": nn.Linear(8, 3), "b": nn.Linear(8, 3)})
        self.norm = nn.LayerNorm(8)
        self.lm_head = nn.Linear(8, 10)
        self.register_buffer("scale", torch.ones(8))
        self.drop = nn.Dropout(0.1)

    def forward(self, idx):
        T = idx.shape[1]
        h = self.tok(idx) + self.pos[:T]
        causal = torch.triu(torch.ones(T, T), 1).bool()
        for b in self.blocks:
            h = b(h, src_mask=causal)
        h = self.norm(h) * self.scale
        return self.lm_head(self.drop(h)) + self.heads["a"](h).sum(-1, keepdim=True) - self.heads["b"](h).sum(-1, keepdim=True)

m = Net()
m.load_state_dict(sd, strict=True)
m.eval()
y = m(x["idx"])
y.backward(x["gout"])
out["y"] = y
for k, p in m.named_parameters():
    out["grad." + k] = p.grad
`)
	assertClose(t, "output", y, ys["y"], 1e-4, 1e-5)
	n := 0
	for _, p := range Parameters(m) {
		for k, q := range StateDict(m) {
			if q == p {
				assertClose(t, "grad of "+k, p.Grad(), ys["grad."+k], 1e-4, 1e-5)
				n++
			}
		}
	}
	if n != len(ys)-1 {
		t.Errorf("compared %d gradients, PyTorch has %d", n, len(ys)-1)
	}
}

// frozen overrides the parameters its fields give with a Parameters
// method: the embedding is frozen.
type frozen struct {
	Emb  *Embedding
	Head *Linear
}

func (f *frozen) Forward(x *tensor.Tensor) *tensor.Tensor { return f.Head.Forward(f.Emb.Forward(x)) }
func (f *frozen) Parameters() []*tensor.Tensor            { return f.Head.Parameters() }

func TestFieldsOverride(t *testing.T) {
	f := &frozen{Emb: NewEmbedding(4, 2), Head: NewLinear(2, 3)}
	if ps := Parameters(f); len(ps) != 2 || ps[0] != f.Head.Weight {
		t.Errorf("Parameters did not take the module's own method: %d tensors", len(ps))
	}
	if got := keys(StateDict(f)); !slices.Equal(got, []string{"emb.weight", "head.bias", "head.weight"}) {
		t.Errorf("StateDict %v: names come from the fields, the frozen embedding included", got)
	}
	// Children overrides the fields' names.
	c := &block{Conv: NewConv2d(1, 1, 3), BN: NewBatchNorm2d(1)}
	if got := keys(StateDict(c)); got[0] != "bn.bias" || len(got) != 7 {
		t.Errorf("StateDict of a Container %v", got)
	}
}

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{"SelfAttn": "self_attn", "LMHead": "lm_head", "FC1": "fc1", "Norm1": "norm1",
		"InProjWeight": "in_proj_weight", "Pos": "pos", "BN": "bn", "TokEmb": "tok_emb", "Layer2Norm": "layer2_norm", "X": "x"} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

// cellWrapper has the shape of the wrapper the interpreter (yaegi) gives
// compiled code for a module declared in a cell: IValue holds the value,
// W-fields its methods.
type cellWrapper struct {
	IValue   interface{}
	WForward func(x *tensor.Tensor) *tensor.Tensor
}

func (w cellWrapper) Forward(x *tensor.Tensor) *tensor.Tensor { return w.WForward(x) }

// TestFieldsOfCellStruct builds a value as the interpreter builds one of
// a cell's struct type (reflect.StructOf, unexported fields renamed
// "X"+name, a field of another cell struct type), wraps it as the
// interpreter does, and checks what nn derives. interp's TestCellModuleFields
// does the same with the interpreter itself.
func TestFieldsOfCellStruct(t *testing.T) {
	inner := reflect.StructOf([]reflect.StructField{
		{Name: "W", Type: tensorType},
		{Name: "Xb", Type: tensorType}, // unexported "b"
	})
	outer := reflect.StructOf([]reflect.StructField{
		{Name: "FC", Type: reflect.TypeFor[*Linear]()},
		{Name: "Sub", Type: reflect.PointerTo(inner)},
		{Name: "Xdrop", Type: reflect.TypeFor[*Dropout]()},  // unexported "drop"
		{Name: "XGate", Type: reflect.TypeFor[*Dropout]()},  // exported "XGate"
		{Name: "Xavier", Type: reflect.TypeFor[*Dropout]()}, // "Xavier" or unexported "avier": ignored
	})
	sub := reflect.New(inner)
	sub.Elem().Field(0).Set(reflect.ValueOf(tensor.Ones(2).SetRequiresGrad(true)))
	sub.Elem().Field(1).Set(reflect.ValueOf(tensor.Ones(2).SetRequiresGrad(true)))
	v := reflect.New(outer)
	fc, drop, xgate, xavier := NewLinear(2, 2), NewDropout(0.5), NewDropout(0.5), NewDropout(0.5)
	v.Elem().Field(0).Set(reflect.ValueOf(fc))
	v.Elem().Field(1).Set(sub)
	v.Elem().Field(2).Set(reflect.ValueOf(drop))
	v.Elem().Field(3).Set(reflect.ValueOf(xgate))
	v.Elem().Field(4).Set(reflect.ValueOf(xavier))
	m := cellWrapper{IValue: v.Interface(), WForward: func(x *tensor.Tensor) *tensor.Tensor { return x }}
	if got := keys(StateDict(m)); !slices.Equal(got, []string{"fc.bias", "fc.weight", "sub.w"}) {
		t.Errorf("StateDict %v", got)
	}
	if len(Parameters(m)) != 3 {
		t.Errorf("%d parameters, want 3", len(Parameters(m)))
	}
	Eval(m)
	if !drop.Training || xgate.Training || !xavier.Training {
		t.Error("Eval: want the exported XGate reached and the renamed drop and the ambiguous Xavier left alone")
	}
	var sm Forwarder
	for _, c := range Children(m) {
		if c.Name == "sub" {
			sm = c.Module
		}
	}
	if sm == nil || !panics(func() { sm.Forward(tensor.Ones(2)) }) {
		t.Error("a cell struct child: want a module whose Forward panics")
	}
}
