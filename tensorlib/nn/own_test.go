package nn_test

import (
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/nn"
	"github.com/gotensor/gotensor/tensorlib/optim"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// Every layer of nn is a Module (Forward and Parameters), the documented
// contract, and so a Forwarder.
var _ = []nn.Module{
	(*nn.Linear)(nil), (*nn.Conv2d)(nil), (*nn.MaxPool2d)(nil), (*nn.AvgPool2d)(nil), (*nn.Flatten)(nil),
	(*nn.ReLU)(nil), (*nn.Sigmoid)(nil), (*nn.Tanh)(nil), (*nn.GELU)(nil), (*nn.Dropout)(nil),
	(*nn.BatchNorm)(nil), (*nn.LayerNorm)(nil), (*nn.Embedding)(nil), (*nn.Sequential)(nil),
	(*nn.MultiheadAttention)(nil), (*nn.TransformerEncoderLayer)(nil), (*nn.TransformerEncoder)(nil),
	(*nn.TransformerDecoderLayer)(nil), (*nn.TransformerDecoder)(nil), (*nn.Transformer)(nil),
}

// MLP declares its fields and Forward, and makes itself a Module with a
// Parameters method that returns what its fields derive.
type MLP struct {
	FC1, FC2 *nn.Linear
	Drop     *nn.Dropout
	Gain     *tensor.Tensor
}

func newMLP() *MLP {
	return &MLP{FC1: nn.NewLinear(4, 8), FC2: nn.NewLinear(8, 3), Drop: nn.NewDropout(0.5), Gain: tensor.Ones(8).SetRequiresGrad(true)}
}

func (m *MLP) Forward(x *tensor.Tensor) *tensor.Tensor {
	return m.FC2.Forward(m.Drop.Forward(m.FC1.Forward(x).Mul(m.Gain).ReLU()))
}

func (m *MLP) Parameters() []*tensor.Tensor { return nn.Parameters(m) }

// Stack holds MLPs and one more Linear in an unexported field, which its
// Children method adds to what the fields give.
type Stack struct {
	Blocks []*MLP
	extra  *nn.Linear
}

func (s *Stack) Forward(x *tensor.Tensor) *tensor.Tensor {
	for _, b := range s.Blocks {
		x = b.Forward(x.Narrow(1, 0, 4))
	}
	return s.extra.Forward(x)
}

func (s *Stack) Parameters() []*tensor.Tensor { return nn.Parameters(s) }

func (s *Stack) Children() []nn.Child {
	return append(nn.Children(s), nn.Child{Name: "extra", Module: s.extra})
}

// Pair is a module that is a value, not a pointer.
type Pair struct{ A, B *nn.Linear }

func (p Pair) Forward(x *tensor.Tensor) *tensor.Tensor { return p.B.Forward(p.A.Forward(x)) }
func (p Pair) Parameters() []*tensor.Tensor            { return nn.Parameters(p) }

// train is code written against the documented contract: it takes an
// nn.Module and asks it for its parameters.
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

// TestOwnParametersMethod checks that a Parameters (and Children) method
// written with nn's function of the same name on its own module returns
// what the fields give, without calling itself back, so that a struct of
// fields is a Module for code written against nn.Module.
func TestOwnParametersMethod(t *testing.T) {
	tensor.ManualSeed(3)
	m := newMLP()
	want := []*tensor.Tensor{m.Gain, m.FC1.Weight, m.FC1.Bias, m.FC2.Weight, m.FC2.Bias}
	if got := m.Parameters(); !slices.Equal(got, want) {
		t.Fatalf("m.Parameters(): %d tensors, want gain, fc1.weight, fc1.bias, fc2.weight, fc2.bias", len(got))
	}
	if got := nn.Parameters(m); !slices.Equal(got, want) {
		t.Fatalf("nn.Parameters(m): %d tensors, want the method's", len(got))
	}
	w0 := m.FC1.Weight.Clone()
	x, y := tensor.Randn(16, 4), tensor.RandInt(0, 3, 16)
	nn.Eval(m)
	if m.Drop.Training {
		t.Error("Eval did not reach Drop")
	}
	if first, last := train(m, x, y, 20); !(last < first) {
		t.Errorf("training through nn.Module: loss %g → %g", first, last)
	}
	if m.FC1.Weight.Sub(w0).Abs().Sum().Item() == 0 {
		t.Error("the optimizer did not update fc1.weight")
	}

	s := &Stack{Blocks: []*MLP{newMLP(), newMLP()}, extra: nn.NewLinear(3, 2)}
	var wantS []*tensor.Tensor
	for _, b := range s.Blocks {
		wantS = append(wantS, b.Gain, b.FC1.Weight, b.FC1.Bias, b.FC2.Weight, b.FC2.Bias)
	}
	wantS = append(wantS, s.extra.Weight, s.extra.Bias)
	if got := s.Parameters(); !slices.Equal(got, wantS) {
		t.Errorf("Stack.Parameters(): %d tensors, want %d: the blocks' in order, then extra's", len(got), len(wantS))
	}
	var names []string
	for k := range nn.StateDict(s) {
		names = append(names, k)
	}
	sort.Strings(names)
	wantNames := []string{
		"blocks.0.fc1.bias", "blocks.0.fc1.weight", "blocks.0.fc2.bias", "blocks.0.fc2.weight", "blocks.0.gain",
		"blocks.1.fc1.bias", "blocks.1.fc1.weight", "blocks.1.fc2.bias", "blocks.1.fc2.weight", "blocks.1.gain",
		"extra.bias", "extra.weight",
	}
	if !slices.Equal(names, wantNames) {
		t.Errorf("StateDict names %v, want %v", names, wantNames)
	}
	path := filepath.Join(t.TempDir(), "s.safetensors")
	if err := nn.Save(path, s); err != nil {
		t.Fatal(err)
	}
	s2 := &Stack{Blocks: []*MLP{newMLP(), newMLP()}, extra: nn.NewLinear(3, 2)}
	if err := nn.Load(path, s2); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s2.extra.Weight.Float32s(), s.extra.Weight.Float32s()) || !slices.Equal(s2.Blocks[1].Gain.Float32s(), s.Blocks[1].Gain.Float32s()) {
		t.Error("Load did not restore extra (from Children) and a block's gain (from the fields)")
	}

	p := Pair{A: nn.NewLinear(2, 2), B: nn.NewLinear(2, 1, nn.NoBias())}
	if got := p.Parameters(); !slices.Equal(got, []*tensor.Tensor{p.A.Weight, p.A.Bias, p.B.Weight}) {
		t.Errorf("a value module's Parameters: %d tensors, want 3", len(got))
	}

	// A struct of fields and Forward alone goes wherever a module goes.
	f := &fieldsOnly{FC: nn.NewLinear(4, 4)}
	seq := nn.NewSequential(f, nn.NewReLU())
	enc := nn.NewTransformerEncoder(nn.NewTransformerEncoderLayer(4, 2, 8), 1, nn.Norm(&fieldsOnly{FC: nn.NewLinear(4, 4)}))
	if got := nn.Parameters(seq); !slices.Equal(got, []*tensor.Tensor{f.FC.Weight, f.FC.Bias}) {
		t.Errorf("a Sequential of a fields-only module: %d parameters, want 2", len(got))
	}
	if _, ok := nn.StateDict(enc)["norm.fc.weight"]; !ok {
		t.Error("a fields-only module as the encoder's Norm: no norm.fc.weight")
	}
}

// fieldsOnly has only fields and Forward: a Forwarder, not a Module.
type fieldsOnly struct{ FC *nn.Linear }

func (f *fieldsOnly) Forward(x *tensor.Tensor) *tensor.Tensor { return f.FC.Forward(x) }

// Frozen's Parameters method leaves the embedding out; the first call
// waits inside the method until released.
type Frozen struct {
	Emb     *nn.Embedding
	Head    *nn.Linear
	entered chan struct{}
	release chan struct{}
	calls   atomic.Int32
}

func (f *Frozen) Forward(x *tensor.Tensor) *tensor.Tensor { return f.Head.Forward(f.Emb.Forward(x)) }

func (f *Frozen) Parameters() []*tensor.Tensor {
	if f.calls.Add(1) == 1 {
		close(f.entered)
		<-f.release
	}
	return f.Head.Parameters()
}

// TestOwnMethodConcurrent checks that a goroutine asking for a module's
// parameters while another goroutine is inside that module's Parameters
// method gets the method's result, not the fields', and that modules
// whose methods call nn.Parameters on themselves can be used from many
// goroutines at once.
func TestOwnMethodConcurrent(t *testing.T) {
	f := &Frozen{Emb: nn.NewEmbedding(5, 3), Head: nn.NewLinear(3, 2), entered: make(chan struct{}), release: make(chan struct{})}
	done := make(chan []*tensor.Tensor)
	go func() { done <- nn.Parameters(f) }()
	<-f.entered // the other goroutine is inside f.Parameters
	want := []*tensor.Tensor{f.Head.Weight, f.Head.Bias}
	if got := nn.Parameters(f); !slices.Equal(got, want) {
		t.Errorf("nn.Parameters while another goroutine runs the method: %d tensors, want the method's 2 (embedding frozen)", len(got))
	}
	close(f.release)
	if got := <-done; !slices.Equal(got, want) {
		t.Errorf("the goroutine inside the method: %d tensors, want 2", len(got))
	}

	shared := &Stack{Blocks: []*MLP{newMLP(), newMLP()}, extra: nn.NewLinear(3, 2)}
	want = shared.Parameters()
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if got := nn.Parameters(shared); !slices.Equal(got, want) {
					errs <- "nn.Parameters"
					return
				}
				if got := shared.Parameters(); !slices.Equal(got, want) {
					errs <- "Stack.Parameters"
					return
				}
				if len(nn.Children(shared)) != 3 {
					errs <- "nn.Children"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("%s from many goroutines: a different result", e)
	}
}

// BenchmarkOwnParameters measures nn.Parameters on a module whose
// Parameters method calls nn.Parameters on itself (a goroutine number
// and a lock per such module), and on a Sequential of layers.
func BenchmarkOwnParameters(b *testing.B) {
	s := &Stack{Blocks: []*MLP{newMLP(), newMLP()}, extra: nn.NewLinear(3, 2)}
	seq := nn.NewSequential(nn.NewLinear(4, 8), nn.NewReLU(), nn.NewLinear(8, 8), nn.NewReLU(), nn.NewLinear(8, 3))
	b.Run("stack", func(b *testing.B) {
		for range b.N {
			nn.Parameters(s)
		}
	})
	b.Run("sequential", func(b *testing.B) {
		for range b.N {
			nn.Parameters(seq)
		}
	})
}

// TestCheckpointOfFields saves a checkpoint whose Model is a struct of
// fields and Forward (a Forwarder) and restores it into another.
func TestCheckpointOfFields(t *testing.T) {
	tensor.ManualSeed(5)
	src := &fieldsOnly{FC: nn.NewLinear(3, 2)}
	dst := &fieldsOnly{FC: nn.NewLinear(3, 2)}
	path := filepath.Join(t.TempDir(), "f.ckpt")
	if err := nn.SaveCheckpoint(path, nn.Checkpoint{Model: src, Step: 7}); err != nil {
		t.Fatal(err)
	}
	ck := nn.Checkpoint{Model: dst}
	if err := nn.LoadCheckpoint(path, &ck); err != nil {
		t.Fatal(err)
	}
	if ck.Step != 7 || !slices.Equal(dst.FC.Weight.Float32s(), src.FC.Weight.Float32s()) || !slices.Equal(dst.FC.Bias.Float32s(), src.FC.Bias.Float32s()) {
		t.Errorf("LoadCheckpoint: step %d, weights restored %v", ck.Step, slices.Equal(dst.FC.Weight.Float32s(), src.FC.Weight.Float32s()))
	}
}
