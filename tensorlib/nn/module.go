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
// Everything nn does to a module goes through these two methods, so it
// works the same for a module declared in a notebook cell: To moves, Save
// and Load write and read, ZeroGrad and NumParameters count the tensors
// Parameters returns, and for those that belong to a layer of this
// package, the layer's buffers too (a BatchNorm's running statistics,
// which are not parameters); SetTraining reaches those layers and the
// layers of the Sequentials whose parameters Parameters lists. Container
// is an optional extra.
//
//	type MLP struct{ FC1, FC2 *nn.Linear }
//	func (m *MLP) Forward(x *tensor.Tensor) *tensor.Tensor { return m.FC2.Forward(m.FC1.Forward(x).ReLU()) }
//	func (m *MLP) Parameters() []*tensor.Tensor { return append(m.FC1.Parameters(), m.FC2.Parameters()...) }
type Module interface {
	Forward(x *tensor.Tensor) *tensor.Tensor
	Parameters() []*tensor.Tensor
}

// A Child is a named sub-module of a Container, or a named tensor the
// Container holds itself. A sub-module's name becomes the prefix of its
// tensors' names in StateDict, Save and Load, as attribute names do in
// PyTorch: a child "fc1" with a weight gives "fc1.weight". A Child with a
// Tensor and no Module is a parameter or buffer of the Container's own,
// named Name, as PyTorch registers an nn.Parameter attribute: a learned
// position embedding.
//
//	{Name: "pos", Tensor: m.Pos}
type Child struct {
	Name   string
	Module Module
	Tensor *tensor.Tensor
}

// Container is implemented by modules built from other modules, such as
// Sequential. Its tensors in StateDict, Save and Load are its children's,
// its own tensors listed as children, and then any other tensor its
// Parameters returns, named by its position there ("3"), so that none is
// lost. A user's module may implement it to give its sub-modules
// PyTorch's names in StateDict, Save and Load ("fc1.weight" rather than
// "0.weight"), rows in Summary, and to let SetTraining and To reach
// sub-modules that own no parameters (a Dropout field):
//
//	func (m *MLP) Children() []nn.Child {
//		return []nn.Child{{Name: "fc1", Module: m.FC1}, {Name: "fc2", Module: m.FC2}}
//	}
//
// It is optional: everything nn does to a module works from Parameters
// alone (see Module). In a notebook, the interpreter passes a module
// declared in a cell to compiled code in a wrapper that has Children only
// when the type has it.
type Container interface {
	Children() []Child
}

// SetTraining puts m and every layer under it in training mode (true) or
// evaluation mode (false), like PyTorch's model.train() and model.eval().
// Dropout is the identity in evaluation mode and BatchNorm normalises with
// its running statistics instead of the batch's. New layers start in
// training mode.
//
// It reaches the layers of this package that m's parameters belong to
// (the BatchNorm whose weight a module declared in a cell returns), the
// layers of every Sequential in m, and, when m is a Container, its
// children. A Dropout held directly in a field of your own module owns
// no parameters: list it in Children, keep it in a Sequential with the
// layers around it, or switch it yourself (drop.Training = false).
//
//	nn.SetTraining(model, false) // evaluate
//	nn.SetTraining(model, true)  // back to training
func SetTraining(m Module, training bool) {
	visitLayers(m, func(l layer) { l.setMode(training) })
}

// To moves m's parameters and buffers (BatchNorm's running statistics) to
// dev in place, as PyTorch's model.to(dev): the tensors keep their
// identity, so optimizers that hold them stay valid, and gradients move
// with them. It moves every tensor m.Parameters() returns and the buffers
// of the layers SetTraining reaches, so it works for any Module, one
// declared in a notebook cell included.
//
//	nn.To(model, tensor.CUDA(0))
func To(m Module, dev tensor.Device) {
	for _, p := range m.Parameters() {
		moveTo(p, dev)
	}
	for _, nt := range ownTensors(m, "") {
		moveTo(nt.t, dev)
	}
	visitLayers(m, func(l layer) {
		for _, nt := range l.state() {
			moveTo(nt.t, dev)
		}
	})
}

// moveTo moves t to dev in place.
func moveTo(t *tensor.Tensor, dev tensor.Device) {
	if t != nil && t.Device() != dev {
		acc.SetData(t, t.Detach().To(dev))
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
// A Sequential names its layers "0", "1", ...; a layer of this package
// names its tensors as PyTorch does; a Container names its children. The
// tensors of any other module are those Parameters returns, grouped by
// the layer each belongs to, in order: "0.weight", "0.bias",
// "1.running_mean" for a module whose Parameters lists a Linear's and
// then a BatchNorm's, and "2" for a tensor of its own.
//
//	for name, t := range nn.StateDict(model) { fmt.Println(name, t.Shape()) }
func StateDict(m Module) map[string]*tensor.Tensor {
	out := map[string]*tensor.Tensor{}
	for _, nt := range namedTensors(m, "") {
		out[nt.name] = nt.t
	}
	return out
}

// named is one tensor of a module's state with its name.
type named struct {
	name string
	t    *tensor.Tensor
}

// namedTensors lists m's tensors with full names, in a stable order (see
// StateDict).
func namedTensors(m Module, prefix string) []named {
	var out []named
	switch x := m.(type) {
	case *Sequential:
		for i, l := range x.Layers {
			out = append(out, namedTensors(l, prefix+strconv.Itoa(i)+".")...)
		}
		return out
	case layer:
		for _, nt := range x.state() {
			out = append(out, named{prefix + nt.name, nt.t})
		}
		return out
	}
	if c, ok := m.(Container); ok {
		for _, ch := range c.Children() {
			if ch.Module != nil {
				out = append(out, namedTensors(ch.Module, prefix+ch.Name+".")...)
			}
		}
		out = append(out, ownTensors(m, prefix)...)
		// Parameters not reached through a child: named by position.
		seen := map[*tensor.Tensor]bool{}
		for _, nt := range out {
			seen[nt.t] = true
		}
		for k, p := range m.Parameters() {
			if !seen[p] {
				out = append(out, named{prefix + strconv.Itoa(k), p})
				seen[p] = true
			}
		}
		return out
	}
	seen := map[layer]bool{}
	k := 0
	for _, p := range m.Parameters() {
		l := tagOf(p).layer
		switch {
		case l == nil:
			out = append(out, named{prefix + strconv.Itoa(k), p})
		case seen[l]:
			continue
		default:
			seen[l] = true
			out = append(out, namedTensors(l, prefix+strconv.Itoa(k)+".")...)
		}
		k++
	}
	return out
}

// ownTensors lists the tensors a Container lists as children of its own
// (Child.Tensor), with full names; nil for other modules.
func ownTensors(m Module, prefix string) []named {
	c, ok := m.(Container)
	if !ok {
		return nil
	}
	var out []named
	for _, ch := range c.Children() {
		if ch.Module == nil && ch.Tensor != nil {
			out = append(out, named{prefix + ch.Name, ch.Tensor})
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
