package nn

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// Sequential chains modules: Forward feeds each layer's output to the
// next, as torch.nn.Sequential. Its children are named "0", "1", ..., so
// the parameters of a Linear at position 2 are "2.weight" and "2.bias".
// Layers may be any Forwarder: a layer, a Module, or a user's struct of
// fields and Forward.
type Sequential struct {
	Layers []Forwarder

	listed atomic.Uint64 // the walk of visitLayers in which Parameters last ran (see layers.go)
}

// NewSequential returns a Sequential of the given layers. It panics when
// a layer is nil.
//
//	model := nn.NewSequential(
//		nn.NewFlatten(),
//		nn.NewLinear(784, 256), nn.NewReLU(),
//		nn.NewLinear(256, 10),
//	)
func NewSequential(layers ...Forwarder) *Sequential {
	s := &Sequential{}
	return s.Append(layers...)
}

// Append adds layers at the end and returns s. It panics when a layer is
// nil.
func (s *Sequential) Append(layers ...Forwarder) *Sequential {
	for i, l := range layers {
		if l == nil {
			panic(fmt.Errorf("nn: Sequential: layer %d is nil", len(s.Layers)+i))
		}
	}
	s.Layers = append(s.Layers, layers...)
	return s
}

// Add appends one layer and returns s. It is Append for a single layer,
// and the form to use in a notebook for a module whose type is declared
// in a cell: the interpreter (yaegi v0.16.1) cannot pass such a value as
// a variadic Forwarder argument, so NewSequential(layers...) and Append
// take only compiled layers there, or a slice:
// Append([]nn.Forwarder{a, b}...).
//
//	model := nn.NewSequential(nn.NewFlatten()).Add(&MyBlock{...}).Add(nn.NewLinear(64, 10))
func (s *Sequential) Add(layer Forwarder) *Sequential { return s.Append(layer) }

// Len returns the number of layers.
func (s *Sequential) Len() int { return len(s.Layers) }

// At returns layer i (negative i counts from the end). It panics when i
// is out of range.
func (s *Sequential) At(i int) Forwarder {
	j := i
	if j < 0 {
		j += len(s.Layers)
	}
	if j < 0 || j >= len(s.Layers) {
		panic(&tensor.IndexError{Op: "nn.Sequential.At", Index: i, Size: len(s.Layers),
			Msg: fmt.Sprintf("layer %d out of range for %d layers", i, len(s.Layers))})
	}
	return s.Layers[j]
}

// Forward passes x through the layers in order.
func (s *Sequential) Forward(x *tensor.Tensor) *tensor.Tensor {
	for _, l := range s.Layers {
		x = l.Forward(x)
	}
	return x
}

// Parameters returns the layers' parameters in order.
func (s *Sequential) Parameters() []*tensor.Tensor {
	var ps []*tensor.Tensor
	for _, l := range s.Layers {
		ps = append(ps, Parameters(l)...)
	}
	return s.list(ps)
}

// Children returns the layers named "0", "1", ...
func (s *Sequential) Children() []Child {
	cs := make([]Child, len(s.Layers))
	for i, l := range s.Layers {
		cs[i] = Child{Name: strconv.Itoa(i), Module: l}
	}
	return cs
}

// SetTraining sets every layer's mode (see the function SetTraining).
func (s *Sequential) SetTraining(training bool) { SetTraining(s, training) }

// Train puts every layer in training mode.
func (s *Sequential) Train() { s.SetTraining(true) }

// Eval puts every layer in evaluation mode.
func (s *Sequential) Eval() { s.SetTraining(false) }

// To moves every layer's tensors to dev in place (see the function To)
// and returns s, so that it chains as PyTorch's model.to(dev) does.
//
//	model := nn.NewSequential(nn.NewLinear(784, 10)).To(tensor.DefaultDevice())
func (s *Sequential) To(dev tensor.Device) *Sequential {
	To(s, dev)
	return s
}

// String prints the layers as PyTorch does:
//
//	Sequential(
//	  (0): Flatten(start_dim=1, end_dim=-1)
//	  (1): Linear(in_features=784, out_features=10, bias=True)
//	)
func (s *Sequential) String() string { return containerString("Sequential", s.Children()) }

// containerString formats name and children as PyTorch's Module.__repr__.
func containerString(name string, children []Child) string {
	if len(children) == 0 {
		return name + "()"
	}
	var b strings.Builder
	b.WriteString(name + "(\n")
	for _, c := range children {
		if c.Module == nil {
			continue // a tensor: PyTorch's repr lists modules only
		}
		lines := strings.Split(describe(c.Module), "\n")
		fmt.Fprintf(&b, "  (%s): %s\n", c.Name, strings.Join(lines, "\n  "))
	}
	b.WriteString(")")
	return b.String()
}
