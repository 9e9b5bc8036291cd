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
	Extra  nn.Module
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
