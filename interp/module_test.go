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
