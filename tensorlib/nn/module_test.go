package nn

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/internal/testenv"
	"github.com/gotensor/gotensor/tensorlib/tensor"
	"github.com/gotensor/gotensor/tensorlib/tensorio"
)

// block is a user's own module, as a notebook user would write it:
// relu(bn(conv(x)) + x). It names its children (Container), which gives
// PyTorch's names "conv.weight", "bn.running_mean".
type block struct {
	Conv *Conv2d
	BN   *BatchNorm
}

func newBlock(c int) *block {
	return &block{Conv: NewConv2d(c, c, 3, Padding(1), NoBias()), BN: NewBatchNorm2d(c)}
}

func (b *block) Forward(x *tensor.Tensor) *tensor.Tensor {
	return b.BN.Forward(b.Conv.Forward(x)).Add(x).ReLU()
}

func (b *block) Parameters() []*tensor.Tensor {
	return append(b.Conv.Parameters(), b.BN.Parameters()...)
}

func (b *block) Children() []Child {
	return []Child{{Name: "conv", Module: b.Conv}, {Name: "bn", Module: b.BN}}
}

// scale is a user's module with only the two Module methods.
type scale struct{ W *tensor.Tensor }

func (s *scale) Forward(x *tensor.Tensor) *tensor.Tensor { return x.Mul(s.W) }
func (s *scale) Parameters() []*tensor.Tensor            { return []*tensor.Tensor{s.W} }

// net is a user's module with unexported fields and without Children:
// nn reaches its layers only through its Parameters method.
type net struct {
	features *Sequential // with a Dropout, reached through the Linear beside it
	bn       *BatchNorm  // reached through its weight
	head     *Linear
	drop     *Dropout // owns nothing: not reached
}

func newNet() *net {
	return &net{
		features: NewSequential(NewLinear(4, 6), NewBatchNorm1d(6, NoAffine()), NewReLU(), NewDropout(0.5)),
		bn:       NewBatchNorm1d(6),
		head:     NewLinear(6, 2),
		drop:     NewDropout(0.5),
	}
}

func (n *net) Forward(x *tensor.Tensor) *tensor.Tensor {
	return n.head.Forward(n.drop.Forward(n.bn.Forward(n.features.Forward(x))))
}

func (n *net) Parameters() []*tensor.Tensor {
	return append(append(n.features.Parameters(), n.bn.Parameters()...), n.head.Parameters()...)
}

// interopModel is the model of testdata/torch_interop.py.
func interopModel() *Sequential {
	return NewSequential(
		NewConv2d(1, 4, 3, Padding(1)),
		NewBatchNorm2d(4),
		NewReLU(),
		NewMaxPool2d(2),
		newBlock(4),
		NewAvgPool2d(2),
		NewFlatten(),
		NewDropout(0.5),
		NewLinear(16, 8),
		NewLayerNorm(8),
		NewGELU(),
		NewLinear(8, 3),
	)
}

func TestStateDictNames(t *testing.T) {
	m := interopModel()
	var names []string
	for k := range StateDict(m) {
		names = append(names, k)
	}
	sort.Strings(names)
	want := []string{ // sorted(torch_interop.model().state_dict())
		"0.bias", "0.weight",
		"1.bias", "1.num_batches_tracked", "1.running_mean", "1.running_var", "1.weight",
		"11.bias", "11.weight",
		"4.bn.bias", "4.bn.num_batches_tracked", "4.bn.running_mean", "4.bn.running_var", "4.bn.weight",
		"4.conv.weight",
		"8.bias", "8.weight", "9.bias", "9.weight",
	}
	if !slices.Equal(names, want) {
		t.Errorf("StateDict names:\n got %v\nwant %v", names, want)
	}
	if got := len(m.Parameters()); got != 13 {
		t.Errorf("%d parameters, want 13", got)
	}
	// A module that is not a Container, with a tensor of its own: named by its index.
	s := NewSequential(&scale{W: tensor.Ones(2)}, NewLinear(2, 2))
	sd := StateDict(s)
	if _, ok := sd["0.0"]; !ok || len(sd) != 3 {
		t.Errorf("StateDict of a plain user module: %v, want 0.0, 1.weight, 1.bias", keys(sd))
	}
}

func keys(m map[string]*tensor.Tensor) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func TestSetTraining(t *testing.T) {
	m := interopModel()
	sc := &scale{W: tensor.Ones(1)}
	if m.Add(sc) != m || m.Len() != 13 || m.At(-1) != Module(sc) {
		t.Fatal("Add did not append the layer")
	}
	SetTraining(m, false)
	blk := m.At(4).(*block)
	if m.At(1).(*BatchNorm).Training || blk.BN.Training || m.At(7).(*Dropout).Training {
		t.Error("SetTraining(false) left a layer in training mode")
	}
	m.Train()
	if !m.At(1).(*BatchNorm).Training || !blk.BN.Training || !m.At(-6).(*Dropout).Training {
		t.Error("Train() left a layer in evaluation mode")
	}
	// A user's container directly.
	SetTraining(blk, false)
	if blk.BN.Training {
		t.Error("SetTraining did not reach a user module's children")
	}
}

// TestSetTrainingThroughParameters checks what SetTraining reaches of a
// module that has only Forward and Parameters, and unexported fields.
func TestSetTrainingThroughParameters(t *testing.T) {
	n := newNet()
	SetTraining(n, false)
	if n.bn.Training || n.features.At(1).(*BatchNorm).Training || n.features.At(3).(*Dropout).Training {
		t.Error("SetTraining(false) did not reach the BatchNorm through its weight, or the Sequential's layers through its Linear")
	}
	if !n.drop.Training {
		t.Error("SetTraining reached a Dropout that owns nothing and is listed nowhere")
	}
	// Tensors of a layer shared with another model do not pull that
	// model's other layers in.
	other := NewSequential(n.head, NewDropout(0.1))
	other.Parameters()
	SetTraining(n, true)
	if !other.At(1).(*Dropout).Training {
		t.Fatal("the other model's Dropout starts in training mode")
	}
	SetTraining(NewSequential(n.head), false)
	if !n.bn.Training || n.head.String() == "" {
		t.Error("SetTraining of a model sharing only the head reached the rest of n")
	}
	SetTraining(n, false)
	if !other.At(1).(*Dropout).Training {
		t.Error("SetTraining(n) reached a Dropout of another model that shares n's head")
	}
}

func TestUserModuleInSequential(t *testing.T) {
	tensor.ManualSeed(1)
	m := interopModel()
	x := tensor.Randn(2, 1, 8, 8)
	y := m.Forward(x)
	if !slices.Equal(y.Shape(), []int{2, 3}) {
		t.Fatalf("output shape %v, want [2 3]", y.Shape())
	}
	CrossEntropy(y, tensor.FromInts([]int{0, 2})).Backward()
	for name, p := range StateDict(m) {
		if p.RequiresGrad() && p.Grad() == nil {
			t.Errorf("%s has no gradient after Backward", name)
		}
	}
	ZeroGrad(m)
	for _, p := range m.Parameters() {
		if p.Grad() != nil {
			t.Fatal("ZeroGrad left a gradient")
		}
	}
	if n := NumParameters(m); n != (4*9+4)+8+(4*4*9)+8+(16*8+8)+16+(8*3+3) {
		t.Errorf("NumParameters = %d", n)
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	tensor.ManualSeed(2)
	a := interopModel()
	x := tensor.Randn(4, 1, 8, 8)
	a.Forward(x) // move the running statistics
	a.Eval()
	path := filepath.Join(t.TempDir(), "m.safetensors")
	if err := Save(path, a); err != nil {
		t.Fatal(err)
	}
	tensor.ManualSeed(3)
	b := interopModel()
	before := b.At(0).(*Conv2d).Weight
	if err := Load(path, b); err != nil {
		t.Fatal(err)
	}
	if b.At(0).(*Conv2d).Weight != before {
		t.Error("Load replaced a parameter instead of copying into it")
	}
	b.Eval()
	assertClose(t, "output after Load", b.Forward(x), a.Forward(x), 0, 0)
	if n := b.At(1).(*BatchNorm).NumBatchesTracked.Item(); n != 1 {
		t.Errorf("num_batches_tracked after Load = %v, want 1", n)
	}
}

func TestLoadMismatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.safetensors")
	if err := Save(path, NewSequential(NewLinear(4, 3), NewReLU(), NewLinear(3, 2))); err != nil {
		t.Fatal(err)
	}
	m := NewSequential(NewLinear(4, 5), NewReLU(), NewLinear(5, 2, NoBias()), NewBatchNorm1d(2))
	w := m.At(0).(*Linear).Weight.Clone()
	err := Load(path, m)
	if err == nil {
		t.Fatal("Load into a different model gave no error")
	}
	for _, want := range []string{"nn: Load", "missing 3.weight, 3.bias, 3.running_mean, 3.running_var, 3.num_batches_tracked",
		"unexpected 2.bias", "0.weight is [3 4] in the file and [5 4] in the model"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	assertClose(t, "weight after a failed Load", m.At(0).(*Linear).Weight, w, 0, 0)
	if err := Load(filepath.Join(t.TempDir(), "absent.safetensors"), m); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load of a missing file: %v, want an os.ErrNotExist error", err)
	}
}

// TestSaveLoadPyTorch saves a model in Go and loads it into the same
// PyTorch model (testdata/torch_interop.py), and the reverse, comparing
// outputs.
func TestSaveLoadPyTorch(t *testing.T) {
	if testing.Short() {
		t.Skip("runs PyTorch")
	}
	if err := exec.Command("/usr/bin/python3", "-c", "import torch, numpy").Run(); err != nil {
		testenv.Missing(t, "Debian's python3-torch is not available (scripts/setup.sh installs it): %v", err)
	}
	dir := t.TempDir()
	tensor.ManualSeed(4)
	g := interopModel()
	for _, p := range g.Parameters() { // move away from the initial values
		Normal(p, 0, 0.5)
	}
	for i := 0; i < 3; i++ {
		g.Forward(tensor.Randn(5, 1, 8, 8).MulScalar(2).AddScalar(1))
	}
	g.Eval()
	x := tensor.Randn(3, 1, 8, 8)
	if err := Save(filepath.Join(dir, "go_model.safetensors"), g); err != nil {
		t.Fatal(err)
	}
	if err := tensorio.SaveSafetensors(filepath.Join(dir, "go_input.safetensors"), map[string]*tensor.Tensor{"x": x}, nil); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/usr/bin/python3", "testdata/torch_interop.py", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("torch_interop.py: %v\n%s", err, out)
	}
	read := func(name string) map[string]*tensor.Tensor {
		ts, _, err := tensorio.LoadSafetensors(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return ts
	}
	assertClose(t, "PyTorch output of the Go model", read("torch_of_go.safetensors")["y"], g.Forward(x), 1e-5, 1e-5)

	tensor.ManualSeed(5)
	m := interopModel()
	if err := Load(filepath.Join(dir, "torch_model.safetensors"), m); err != nil {
		t.Fatal(err)
	}
	if n := m.At(1).(*BatchNorm).NumBatchesTracked.Item(); n != 3 {
		t.Errorf("num_batches_tracked from PyTorch = %v, want 3", n)
	}
	SetTraining(m, false)
	io := read("torch_io.safetensors")
	assertClose(t, "Go output of the PyTorch model", m.Forward(io["x"]), io["y"], 1e-5, 1e-5)
}

func TestStrings(t *testing.T) {
	for _, tc := range []struct {
		m    fmt.Stringer
		want string
	}{
		{NewLinear(784, 256), "Linear(in_features=784, out_features=256, bias=True)"},
		{NewLinear(3, 2, NoBias()), "Linear(in_features=3, out_features=2, bias=False)"},
		{NewConv2d(1, 32, 3), "Conv2d(1, 32, kernel_size=(3, 3), stride=(1, 1))"},
		{NewConv2d(2, 4, 3, Stride(2), Padding(1), DilationHW(2, 1), NoBias()),
			"Conv2d(2, 4, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), dilation=(2, 1), bias=False)"},
		{NewMaxPool2d(2), "MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)"},
		{NewAvgPool2d(3, StrideHW(1, 2)), "AvgPool2d(kernel_size=3, stride=(1, 2), padding=0)"},
		{NewFlatten(), "Flatten(start_dim=1, end_dim=-1)"},
		{NewGELU(), "GELU(approximate='none')"},
		{NewDropout(0.5), "Dropout(p=0.5, inplace=False)"},
		{NewDropout(0), "Dropout(p=0.0, inplace=False)"},
		{NewBatchNorm2d(32), "BatchNorm2d(32, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)"},
		{NewBatchNorm1d(8, NoAffine(), Momentum(0.2), Eps(1e-3)), "BatchNorm1d(8, eps=0.001, momentum=0.2, affine=False, track_running_stats=True)"},
		{NewLayerNorm(512), "LayerNorm((512,), eps=1e-05, elementwise_affine=True)"},
		{NewLayerNorm(4, 5), "LayerNorm((4, 5), eps=1e-05, elementwise_affine=True)"},
		{NewEmbedding(10, 3), "Embedding(10, 3)"},
		{NewSequential(), "Sequential()"},
		// str(nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.ReLU()), scale())) in PyTorch: a module
		// without String shows its type's name and its children.
		{NewSequential(NewLinear(2, 3), NewSequential(NewReLU()), &scale{}),
			"Sequential(\n  (0): Linear(in_features=2, out_features=3, bias=True)\n  (1): Sequential(\n    (0): ReLU()\n  )\n  (2): scale()\n)"},
	} {
		if got := tc.m.String(); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}

func TestOptionsAndArgs(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"Dilation on a pool", func() { NewMaxPool2d(2, Dilation(2)) }, "NewMaxPool2d does not take option Dilation"},
		{"NoBias on BatchNorm", func() { NewBatchNorm2d(2, NoBias()) }, "NewBatchNorm2d does not take option NoBias"},
		{"bad dropout", func() { NewDropout(1.5) }, "[0, 1]"},
		{"bad pool padding", func() { NewMaxPool2d(2, Padding(2)) }, "half the kernel"},
		{"Linear input", func() { NewLinear(3, 2).Forward(tensor.Zeros(4, 5)) }, "in_features=3"},
		{"Conv input", func() { NewConv2d(3, 2, 3).Forward(tensor.Zeros(1, 1, 5, 5)) }, "want [N, 3, H, W]"},
		{"BatchNorm input", func() { NewBatchNorm2d(3).Forward(tensor.Zeros(2, 3, 4)) }, "want [N, 3, H, W]"},
		{"BatchNorm one value", func() { NewBatchNorm1d(3).Forward(tensor.Zeros(1, 3)) }, "more than 1 value per channel"},
		{"MSELoss shapes", func() { MSELoss(tensor.Zeros(3, 1), tensor.Zeros(3)) }, "differ in shape"},
		{"Embedding dtype", func() { NewEmbedding(3, 2).Forward(tensor.Zeros(2)) }, "Int64"},
		{"At range", func() { NewSequential(NewReLU()).At(1) }, "out of range"},
	} {
		msg := func() (msg string) {
			defer func() { msg = fmt.Sprint(recover()) }()
			tc.f()
			return ""
		}()
		if !strings.Contains(msg, tc.want) {
			t.Errorf("%s: panic %q, want one containing %q", tc.name, msg, tc.want)
		}
	}
	if err := tensor.Try(func() { NewLinear(3, 2).Forward(tensor.Zeros(4, 5)) }); err == nil {
		t.Error("tensor.Try does not catch a Linear shape error")
	}
}

func TestTo(t *testing.T) {
	m := interopModel()
	w := m.At(0).(*Conv2d).Weight
	m.To(tensor.CPU)
	To(newBlock(2), tensor.CPU)
	if m.At(0).(*Conv2d).Weight != w {
		t.Error("To(CPU) on a CPU model replaced its parameters")
	}
}

// TestStateDictThroughParameters checks the names of a module without
// Children or exported fields: its tensors grouped by layer, buffers
// included.
func TestStateDictThroughParameters(t *testing.T) {
	got := keys(StateDict(newNet()))
	want := []string{"0.bias", "0.weight", // Features' Linear
		"1.num_batches_tracked", "1.running_mean", "1.running_var", "1.weight", "1.bias", // BN
		"2.bias", "2.weight"} // Head
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("StateDict names:\n got %v\nwant %v", got, want)
	}
}
