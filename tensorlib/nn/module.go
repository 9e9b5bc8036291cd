package nn

import (
	"fmt"
	"strconv"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// Module is a layer or a model: anything that maps a tensor to a tensor
// and owns trainable parameters. Every layer in this package is a Module,
// and so is a user's own struct with these two methods, in compiled code
// or declared in a notebook cell.
//
// Parameters returns the leaf tensors an optimizer updates, in a stable
// order; a module without parameters returns nil.
//
//	type MLP struct{ FC1, FC2 *nn.Linear }
//	func (m *MLP) Forward(x *tensor.Tensor) *tensor.Tensor { return m.FC2.Forward(m.FC1.Forward(x).ReLU()) }
//	func (m *MLP) Parameters() []*tensor.Tensor { return append(m.FC1.Parameters(), m.FC2.Parameters()...) }
type Module interface {
	Forward(x *tensor.Tensor) *tensor.Tensor
	Parameters() []*tensor.Tensor
}

// Trainable is implemented by modules whose forward pass depends on
// training mode (Dropout, BatchNorm1d, BatchNorm2d) and by containers
// that pass the mode on. SetTraining calls it. A user's module that holds
// such layers may implement it to pass the mode on; implementing
// Container is enough when its children are the only layers that care.
type Trainable interface {
	SetTraining(training bool)
}

// A Child is a named sub-module of a Container. The name becomes the
// prefix of its tensors' names in StateDict, Save and Load, as attribute
// names do in PyTorch: a child "fc1" with a weight gives "fc1.weight".
type Child struct {
	Name   string
	Module Module
}

// Container is implemented by modules built from other modules, such as
// Sequential. SetTraining, StateDict, Save, Load, To and Summary walk a
// module's children through it. A user's model implements it to get
// PyTorch's parameter names:
//
//	func (m *MLP) Children() []nn.Child {
//		return []nn.Child{{Name: "fc1", Module: m.FC1}, {Name: "fc2", Module: m.FC2}}
//	}
//
// The tensors of a module that is neither a Container nor Stateful are
// its Parameters, named "0", "1", ... (as torch.nn.ParameterList names
// them).
type Container interface {
	Children() []Child
}

// A NamedTensor is one tensor of a module's state with its local name,
// "weight" or "running_mean".
type NamedTensor struct {
	Name   string
	Tensor *tensor.Tensor
}

// Stateful is implemented by modules that name their own tensors: their
// parameters and buffers (BatchNorm's running statistics), but not their
// children's. StateDict, Save and Load use the names. A Container that is
// also Stateful has both its own tensors and its children's.
type Stateful interface {
	NamedTensors() []NamedTensor
}

// SetTraining puts m and every module under it in training mode (true)
// or evaluation mode (false), like PyTorch's model.train() and
// model.eval(). Dropout is the identity in evaluation mode and BatchNorm
// normalises with its running statistics instead of the batch's. New
// layers start in training mode.
//
// SetTraining calls m.SetTraining when m is Trainable, and otherwise
// walks the children of a Container. A user's module passes the mode on
// by implementing Trainable or Container.
//
//	nn.SetTraining(model, false) // evaluate
//	nn.SetTraining(model, true)  // back to training
func SetTraining(m Module, training bool) {
	if t, ok := m.(Trainable); ok {
		t.SetTraining(training)
		return
	}
	if c, ok := m.(Container); ok {
		for _, ch := range c.Children() {
			SetTraining(ch.Module, training)
		}
	}
}

// NumParameters returns the number of elements in m's parameters.
func NumParameters(m Module) int {
	n := 0
	for _, p := range m.Parameters() {
		n += p.Numel()
	}
	return n
}

// ZeroGrad clears the gradients of m's parameters.
func ZeroGrad(m Module) {
	for _, p := range m.Parameters() {
		p.ZeroGrad()
	}
}

// StateDict returns m's parameters and buffers by their PyTorch names
// ("0.weight", "0.bias", "1.running_mean", ...): the tensors themselves,
// not copies, so the map stays current as training updates them in place.
// Names come from Container and Stateful (see Container).
//
//	for name, t := range nn.StateDict(model) { fmt.Println(name, t.Shape()) }
func StateDict(m Module) map[string]*tensor.Tensor {
	out := map[string]*tensor.Tensor{}
	for _, nt := range namedTensors(m, "") {
		out[nt.Name] = nt.Tensor
	}
	return out
}

// namedTensors lists m's tensors with full names, in a stable order.
func namedTensors(m Module, prefix string) []NamedTensor {
	var out []NamedTensor
	s, stateful := m.(Stateful)
	c, container := m.(Container)
	if stateful {
		for _, nt := range s.NamedTensors() {
			out = append(out, NamedTensor{Name: prefix + nt.Name, Tensor: nt.Tensor})
		}
	}
	if container {
		for _, ch := range c.Children() {
			out = append(out, namedTensors(ch.Module, prefix+ch.Name+".")...)
		}
	}
	if !stateful && !container {
		for i, p := range m.Parameters() {
			out = append(out, NamedTensor{Name: prefix + strconv.Itoa(i), Tensor: p})
		}
	}
	return out
}

// describe returns PyTorch's repr of a module: its String method's result
// when it has one, else "Module()".
func describe(m Module) string {
	if s, ok := m.(fmt.Stringer); ok {
		return s.String()
	}
	return "Module()"
}
