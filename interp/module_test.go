package interp

import (
	"strings"
	"testing"
)

// TestCellModule checks that a module declared in a cell works everywhere a
// built-in layer does: inside Sequential, with nn.SetTraining reaching the
// BatchNorm inside it through its SetTraining method, with Save/Load names
// from its Children method, and printed through its String method.
func TestCellModule(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, `
type Block struct {
	Conv *nn.Conv2d
	BN   *nn.BatchNorm
}

func (b *Block) Forward(x *tensor.Tensor) *tensor.Tensor { return b.BN.Forward(b.Conv.Forward(x)).ReLU() }
func (b *Block) Parameters() []*tensor.Tensor { return append(b.Conv.Parameters(), b.BN.Parameters()...) }
func (b *Block) Children() []nn.Child {
	return []nn.Child{{Name: "conv", Module: b.Conv}, {Name: "bn", Module: b.BN}}
}
func (b *Block) SetTraining(on bool) { nn.SetTraining(b.BN, on) }
func (b *Block) String() string     { return "Block(conv, bn)" }

blk := &Block{Conv: nn.NewConv2d(2, 2, 3, nn.Padding(1)), BN: nn.NewBatchNorm2d(2)}
model := nn.NewSequential(nn.NewReLU())
model.Add(blk)
`)
	for i, tc := range []struct{ code, want string }{
		{"model.Forward(tensor.Ones(1, 2, 4, 4)).Shape()", "[1 2 4 4]"},
		{"nn.SetTraining(model, false); blk.BN.Training", "false"},
		{"nn.SetTraining(model, true); blk.BN.Training", "true"},
		{`names := []string{}
for k := range nn.StateDict(model) { names = append(names, k) }
sort.Strings(names)
strings.Join(names, " ")`, "1.bn.bias 1.bn.num_batches_tracked 1.bn.running_mean 1.bn.running_var 1.bn.weight 1.conv.bias 1.conv.weight"},
		{"strings.Contains(model.String(), \"Block(conv, bn)\")", "true"},
	} {
		code := tc.code
		if strings.Contains(code, "sort.") {
			code = "import (\"sort\"; \"strings\")\n" + code
		} else if strings.Contains(code, "strings.") {
			code = "import \"strings\"\n" + code
		}
		got, _ := mustRun(t, s, code)
		if got != tc.want {
			t.Errorf("%d: %s\n got %s\nwant %s", i, tc.code, got, tc.want)
		}
	}
}

// TestCellModuleOnDevice declares a module in a cell, with only Forward
// and Parameters, moves it with nn.To to the emulated CUDA device after
// the optimizer was made, and trains a step there: every parameter and
// BatchNorm buffer moves in place (the optimizer's tensors are the
// model's), the loss falls, and SetTraining, Save and Load reach the
// BatchNorm through its weight.
func TestCellModuleOnDevice(t *testing.T) {
	s := newSession(t)
	if res, _ := mustRun(t, s, "cuda.UseEmulator(cuda.EmulatorConfig{Memory: 64 << 20})"); res != "<nil>" && !strings.Contains(res, "already in use") {
		t.Fatalf("UseEmulator: %s", res)
	}
	mustRun(t, s, `
type Net struct {
	fc  *nn.Linear
	bn  *nn.BatchNorm
	out *nn.Linear
}

func (n *Net) Forward(x *tensor.Tensor) *tensor.Tensor {
	return n.out.Forward(n.bn.Forward(n.fc.Forward(x)).ReLU())
}

func (n *Net) Parameters() []*tensor.Tensor {
	return append(append(n.fc.Parameters(), n.bn.Parameters()...), n.out.Parameters()...)
}

tensor.ManualSeed(1)
net := &Net{fc: nn.NewLinear(4, 8), bn: nn.NewBatchNorm1d(8), out: nn.NewLinear(8, 3)}
opt := optim.NewSGD(net.Parameters(), 0.5)
w := net.fc.Weight
x, y := tensor.Randn(16, 4), tensor.RandInt(0, 3, 16)
`)
	mustRun(t, s, "nn.To(net, tensor.CUDA(0))")
	for i, tc := range []struct{ code, want string }{
		{"net.fc.Weight == w", "true"},
		{"net.fc.Weight.Device().String() + \" \" + net.out.Bias.Device().String()", "cuda:0 cuda:0"},
		{"net.bn.RunningMean.Device().String() + \" \" + net.bn.NumBatchesTracked.Device().String()", "cuda:0 cuda:0"},
		{`step := func() float64 {
	loss := nn.CrossEntropy(net.Forward(x.To(tensor.CUDA(0))), y.To(tensor.CUDA(0)))
	opt.ZeroGrad()
	loss.Backward()
	opt.Step()
	return loss.Item()
}
first := step()
for i := 0; i < 5; i++ { step() }
step() < first`, "true"},
		{"net.fc.Weight.Grad().Device().String()", "cuda:0"},
		{"net.bn.NumBatchesTracked.Item()", "7"},
		{"nn.SetTraining(net, false); net.bn.Training", "false"},
		{`import "path/filepath"
p := filepath.Join(` + "`" + t.TempDir() + "`" + `, "net.safetensors")
err := nn.Save(p, net)
other := &Net{fc: nn.NewLinear(4, 8), bn: nn.NewBatchNorm1d(8), out: nn.NewLinear(8, 3)}
err = nn.Load(p, other)
fmt.Sprint(err, " ", other.bn.NumBatchesTracked.Item(), " ", other.fc.Weight.Sub(net.fc.Weight.CPU()).Abs().Max(0).Max(0).Item())`, "<nil> 7 0"},
	} {
		got, _ := mustRun(t, s, tc.code)
		if got != tc.want {
			t.Errorf("%d: %s\n got %s\nwant %s", i, tc.code, got, tc.want)
		}
	}
}

// TestCellModuleFields declares modules in cells with only their fields
// and Forward, as PyTorch modules declare attributes, and trains one a
// step: nn derives their parameters, children, state names and modes from
// the fields of the value the interpreter hands compiled code. It also
// records what reflection sees of a cell's struct type, the facts nn's
// rule relies on (tensorlib/nn/fields.go): an unnamed type built with
// reflect.StructOf, unexported fields renamed "X"+name, and a field of
// another cell type as a pointer to an unnamed struct.
func TestCellModuleFields(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, `
type Block struct {
	FC     *nn.Linear
	Drop   *nn.Dropout
	Gain   *tensor.Tensor
	hidden *nn.Linear
}

func (b *Block) Forward(x *tensor.Tensor) *tensor.Tensor {
	return b.Drop.Forward(b.FC.Forward(x)).Mul(b.Gain).ReLU()
}

type Net struct {
	Blocks []*Block
	Extra  nn.Forwarder
	Head   *nn.Linear
	Steps  int
}

func (n *Net) Forward(x *tensor.Tensor) *tensor.Tensor {
	for _, b := range n.Blocks {
		x = b.Forward(x)
	}
	return n.Head.Forward(n.Extra.Forward(x))
}

func newBlock() *Block {
	return &Block{FC: nn.NewLinear(4, 4), Drop: nn.NewDropout(0.2), Gain: tensor.Ones(4).SetRequiresGrad(true), hidden: nn.NewLinear(1, 1)}
}

tensor.ManualSeed(1)
net := &Net{Blocks: []*Block{newBlock(), newBlock()}, Extra: newBlock(), Head: nn.NewLinear(4, 3)}
x, y := tensor.Randn(16, 4), tensor.RandInt(0, 3, 16)
`)
	for i, tc := range []struct{ code, want string }{
		{`import "reflect"
bt := reflect.TypeOf(net).Elem()
fmt.Sprint(bt.Name() == "", " ", bt.Field(0).Type.Elem().Elem().Name() == "", " ", reflect.TypeOf(newBlock()).Elem().Field(3).Name)`,
			"true true Xhidden"},
		{`import ("sort"; "strings")
names := []string{}
for k := range nn.StateDict(net) { names = append(names, k) }
sort.Strings(names)
strings.Join(names, " ")`, "blocks.0.fc.bias blocks.0.fc.weight blocks.0.gain blocks.1.fc.bias blocks.1.fc.weight blocks.1.gain extra.fc.bias extra.fc.weight extra.gain head.bias head.weight"},
		{"len(nn.Parameters(net))", "11"},
		{"nn.Eval(net); fmt.Sprint(net.Blocks[0].Drop.Training, net.Blocks[1].Drop.Training, net.Extra.(*Block).Drop.Training)", "false false false"},
		{"nn.Train(net); net.Blocks[1].Drop.Training", "true"},
		{`opt := optim.NewSGD(nn.Parameters(net), 0.1)
nn.Eval(net)
g0 := net.Blocks[0].Gain.Clone()
loss := nn.CrossEntropy(net.Forward(x), y)
opt.ZeroGrad()
loss.Backward()
opt.Step()
after := nn.CrossEntropy(net.Forward(x), y)
fmt.Sprint(net.Blocks[0].Gain.Sub(g0).Abs().Sum().Item() > 0, net.Head.Weight.Grad() != nil, after.Item() < loss.Item())`, "true true true"},
		{`import "path/filepath"
p := filepath.Join(` + "`" + t.TempDir() + "`" + `, "net.safetensors")
err := nn.Save(p, net)
other := &Net{Blocks: []*Block{newBlock(), newBlock()}, Extra: newBlock(), Head: nn.NewLinear(4, 3)}
err = nn.Load(p, other)
fmt.Sprint(err, " ", other.Blocks[0].Gain.Sub(net.Blocks[0].Gain).Abs().Sum().Item())`, "<nil> 0"},
	} {
		got, _ := mustRun(t, s, tc.code)
		if got != tc.want {
			t.Errorf("%d: %s\n got %s\nwant %s", i, tc.code, got, tc.want)
		}
	}
}

// TestCellModuleParametersMethod declares in a cell a module of fields and
// Forward made a Module by a Parameters method that calls nn.Parameters
// on the module itself, and one whose Children method adds to
// nn.Children of itself: nn reads the fields from inside those methods
// rather than call them back. The Module goes to a function written
// against nn.Module, which trains it; a struct of fields and Forward alone
// (a Forwarder) goes where nn takes modules: a Sequential, a Child, an
// encoder's Norm.
func TestCellModuleParametersMethod(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, `
type MLP struct {
	FC1, FC2 *nn.Linear
	Drop     *nn.Dropout
}

func (m *MLP) Forward(x *tensor.Tensor) *tensor.Tensor {
	return m.FC2.Forward(m.Drop.Forward(m.FC1.Forward(x).ReLU()))
}

func (m *MLP) Parameters() []*tensor.Tensor { return nn.Parameters(m) }

type Wide struct {
	Body  *MLP
	extra *nn.Linear
}

func (w *Wide) Forward(x *tensor.Tensor) *tensor.Tensor { return w.extra.Forward(w.Body.Forward(x)) }

func (w *Wide) Children() []nn.Child {
	return append(nn.Children(w), nn.Child{Name: "extra", Module: w.extra})
}

type Plain struct{ FC *nn.Linear }

func (p *Plain) Forward(x *tensor.Tensor) *tensor.Tensor { return p.FC.Forward(x) }

func train(m nn.Module, x, y *tensor.Tensor, steps int) (first, last float64) {
	opt := optim.NewAdam(m.Parameters(), 1e-2)
	for i := 0; i < steps; i++ {
		loss := nn.CrossEntropy(m.Forward(x), y)
		opt.ZeroGrad()
		loss.Backward()
		opt.Step()
		if i == 0 {
			first = loss.Item()
		}
		last = loss.Item()
	}
	return first, last
}

tensor.ManualSeed(1)
mlp := &MLP{FC1: nn.NewLinear(4, 8), FC2: nn.NewLinear(8, 3), Drop: nn.NewDropout(0.1)}
x, y := tensor.Randn(16, 4), tensor.RandInt(0, 3, 16)
`)
	for i, tc := range []struct{ code, want string }{
		{"ps := mlp.Parameters(); fmt.Sprint(len(ps), ps[0] == mlp.FC1.Weight, ps[1] == mlp.FC1.Bias, ps[2] == mlp.FC2.Weight, ps[3] == mlp.FC2.Bias)", "4 true true true true"},
		{"var m nn.Module = mlp; len(m.Parameters()) + len(nn.Parameters(mlp))", "8"},
		{"nn.Eval(mlp); mlp.Drop.Training", "false"},
		{"w0 := mlp.FC1.Weight.Clone(); first, last := train(mlp, x, y, 20); fmt.Sprint(last < first, mlp.FC1.Weight.Sub(w0).Abs().Sum().Item() > 0)", "true true"},
		{`import ("sort"; "strings")
w := &Wide{Body: mlp, extra: nn.NewLinear(3, 2)}
names := []string{}
for k := range nn.StateDict(w) { names = append(names, k) }
sort.Strings(names)
fmt.Sprint(strings.Join(names, " "), " ", len(nn.Parameters(w)), " ", len(nn.Children(w)))`,
			"body.fc1.bias body.fc1.weight body.fc2.bias body.fc2.weight extra.bias extra.weight 6 2"},
		{`p := &Plain{FC: nn.NewLinear(3, 3)}
seq := nn.NewSequential(nn.NewReLU())
seq.Add(p)
c := nn.Child{Name: "p"}
c.Module = p // yaegi v0.16.1 cannot put a cell's value in the literal
enc := nn.NewTransformerEncoder(nn.NewTransformerEncoderLayer(4, 2, 8), 1, nn.Norm(&Plain{FC: nn.NewLinear(4, 4)}))
_, ok := nn.StateDict(enc)["norm.fc.weight"]
fmt.Sprint(len(nn.Parameters(seq)), " ", nn.Parameters(c.Module)[0] == p.FC.Weight, " ", ok, " ", seq.Forward(tensor.Ones(2, 3)).Shape())`,
			"2 true true [2 3]"},
	} {
		got, _ := mustRun(t, s, tc.code)
		if got != tc.want {
			t.Errorf("%d: %s\n got %s\nwant %s", i, tc.code, got, tc.want)
		}
	}
}
