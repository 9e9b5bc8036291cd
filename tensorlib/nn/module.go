package nn

import (
	"fmt"
	"strconv"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// Forwarder is anything that maps a tensor to a tensor with Forward: a
// layer, a model, or a struct of your own, in compiled code or declared
// in a notebook cell. It is what the functions of this package take
// (Parameters, Children, StateDict, To, Train, Eval, SetTraining, Save,
// Load, Summary), what a Sequential holds, a Child names and a
// Checkpoint saves, so that a struct that declares only its fields and
// Forward works everywhere a layer does, as a PyTorch class with
// attributes and forward does.
//
// nn finds a Forwarder's parameters, sub-modules and buffers as PyTorch
// finds them in a module's attributes: in its exported fields, in
// declaration order, each named by its `nn:"name"` tag or its name in
// snake case (SelfAttn → "self_attn"):
//
//   - a field holding a Forwarder is a sub-module ("fc1.weight");
//   - a *tensor.Tensor that requires grad is a parameter of its own
//     ("pos"); one tagged `nn:",buffer"` is a buffer (saved and moved,
//     not trained), and other tensors are left alone, as PyTorch leaves a
//     plain tensor attribute;
//   - slices, arrays and maps of those are lists ("blocks.0.…") and dicts
//     ("heads.key.…", keys sorted);
//   - unexported fields, other types and fields tagged `nn:"-"` are
//     ignored.
//
// An MLP of fields and Forward, trained and switched to evaluation:
//
//	type MLP struct {
//		FC1, FC2 *nn.Linear
//		Drop     *nn.Dropout
//	}
//	func (m *MLP) Forward(x *tensor.Tensor) *tensor.Tensor {
//		return m.FC2.Forward(m.Drop.Forward(m.FC1.Forward(x).ReLU()))
//	}
//
//	model := &MLP{FC1: nn.NewLinear(784, 256), FC2: nn.NewLinear(256, 10), Drop: nn.NewDropout(0.1)}
//	opt := optim.NewAdam(nn.Parameters(model), 1e-3) // fc1.weight, fc1.bias, fc2.weight, fc2.bias
//	nn.Eval(model)                                   // reaches Drop
//
// A Forwarder may override what its fields give with methods of its own:
// Parameters() []*tensor.Tensor (the tensors an optimizer updates, which
// makes it a Module) and Children (see Container); nn then uses them
// instead, and reaches the layers of this package that the listed
// parameters belong to, with their buffers and modes. Keep the fields of
// a struct declared in a cell exported (or write those methods): the
// interpreter hides unexported ones.
type Forwarder interface {
	Forward(x *tensor.Tensor) *tensor.Tensor
}

// Module is a layer or a model that lists its parameters: a Forwarder
// whose Parameters method returns the leaf tensors an optimizer updates,
// in a stable order (nil when it has none). Every layer in this package
// is a Module, and code that takes a Module may rely on both methods:
//
//	func train(m nn.Module) { opt := optim.NewAdam(m.Parameters(), 1e-3); ... }
//
// The functions of this package take any Forwarder, a Module included.
// To make a struct of fields and Forward a Module, give it a Parameters
// method that returns what its fields derive; nn.Parameters called from
// a module's own Parameters method on that module reads the fields (or
// its Children method's list) instead of calling the method back:
//
//	func (m *MLP) Parameters() []*tensor.Tensor { return nn.Parameters(m) }
//
// A Parameters method that returns something else (a frozen embedding
// left out) overrides the fields in everything nn does (see Forwarder).
type Module interface {
	Forwarder
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
//
// In a notebook, give Module a value of a type declared in a cell by
// assignment (c.Module = blk) or through a variable of type nn.Forwarder:
// the interpreter (yaegi v0.16.1) cannot put such a value in the literal
// nn.Child{Module: blk}.
type Child struct {
	Name   string
	Module Forwarder
	Tensor *tensor.Tensor
}

// Container is implemented by modules that name their children
// themselves, such as Sequential. Its Children method overrides the
// children a module's fields derive (see Forwarder). Its tensors in
// StateDict, Save and Load are its children's, its own tensors listed as
// children, and then any other tensor Parameters returns, named by its
// position there ("3"), so that none is lost. A module with unexported
// fields may implement it to give its sub-modules PyTorch's names in
// StateDict, Save and Load ("fc1.weight" rather than "0.weight"), rows in
// Summary, and to let SetTraining and To reach sub-modules that own no
// parameters (a Dropout field):
//
//	func (m *MLP) Children() []nn.Child {
//		return []nn.Child{{Name: "fc1", Module: m.fc1}, {Name: "fc2", Module: m.fc2}}
//	}
//
// A Children method may start from what the fields give: nn.Children(m)
// called from m's own Children method on m derives from the fields.
//
// In a notebook, the interpreter passes a module declared in a cell to
// compiled code in a wrapper that has Children only when the type has it.
type Container interface {
	Children() []Child
}

// SetTraining puts m and every layer under it in training mode (true) or
// evaluation mode (false), like PyTorch's model.train() and model.eval().
// Dropout is the identity in evaluation mode and BatchNorm normalises with
// its running statistics instead of the batch's. New layers start in
// training mode.
//
// It takes any Forwarder, a Module included. It reaches every layer of
// this package among m's children (see Forwarder: a Dropout in an
// exported field included), the layers of every Sequential in m, and
// the layers that the parameters m's own Parameters method returns
// belong to (the BatchNorm in an unexported field whose weight a module
// lists). A Dropout in an unexported field of a module with its own
// Parameters method owns no parameters: list it in Children, or switch
// it yourself (drop.Training = false).
//
//	nn.SetTraining(model, false) // evaluate
//	nn.SetTraining(model, true)  // back to training
func SetTraining(m Forwarder, training bool) {
	visitLayers(m, func(l layer) { l.setMode(training) })
}

// To moves m's parameters and buffers (BatchNorm's running statistics) to
// dev in place, as PyTorch's model.to(dev): the tensors keep their
// identity, so optimizers that hold them stay valid, and gradients move
// with them. It moves every tensor of Parameters(m) and StateDict(m) and
// the buffers of the layers SetTraining reaches, so it works for any
// Forwarder (a struct of fields and Forward, a Module), one declared in a
// notebook cell included.
//
//	nn.To(model, tensor.CUDA(0))
func To(m Forwarder, dev tensor.Device) {
	for _, p := range Parameters(m) {
		moveTo(p, dev)
	}
	for _, nt := range namedTensors(m, "") {
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

// NumParameters returns the number of elements in Parameters(m).
func NumParameters(m Forwarder) int {
	n := 0
	for _, p := range Parameters(m) {
		n += p.Numel()
	}
	return n
}

// ZeroGrad clears the gradients of Parameters(m).
func ZeroGrad(m Forwarder) {
	for _, p := range Parameters(m) {
		p.ZeroGrad()
	}
}

// StateDict returns m's parameters and buffers by their PyTorch names
// ("0.weight", "0.bias", "1.running_mean", ...): the tensors themselves,
// not copies, so the map stays current as training updates them in place.
// A Sequential names its layers "0", "1", ...; a layer of this package
// names its tensors as PyTorch does; other modules name their children
// (Children: a Container's own, or those its fields derive, "fc1.weight"),
// and then any other tensor their Parameters method returns by its
// position there. A module with neither children nor fields to derive
// them from has the tensors its Parameters method returns, grouped by the
// layer each belongs to, in order: "0.weight", "0.bias", "1.running_mean"
// for a module whose Parameters lists a Linear's and then a BatchNorm's,
// and "2" for a tensor of its own.
//
//	for name, t := range nn.StateDict(model) { fmt.Println(name, t.Shape()) }
func StateDict(m Forwarder) map[string]*tensor.Tensor {
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
func namedTensors(m Forwarder, prefix string) []named {
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
	if cs := Children(m); len(cs) > 0 {
		for _, ch := range cs {
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
		for k, p := range Parameters(m) {
			if !seen[p] {
				out = append(out, named{prefix + strconv.Itoa(k), p})
				seen[p] = true
			}
		}
		return out
	}
	seen := map[layer]bool{}
	k := 0
	for _, p := range Parameters(m) {
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

// ownTensors lists the tensors m's children include as its own
// (Child.Tensor), with full names.
func ownTensors(m Forwarder, prefix string) []named {
	var out []named
	for _, ch := range Children(m) {
		if ch.Module == nil && ch.Tensor != nil {
			out = append(out, named{prefix + ch.Name, ch.Tensor})
		}
	}
	return out
}

// describe returns PyTorch's repr of a module: its String method's result
// when it has one, else its type's name (or "Module" for a type declared
// in a cell) with the sub-modules of Children.
func describe(m Forwarder) string {
	if s, ok := m.(fmt.Stringer); ok {
		return s.String()
	}
	name := "Module"
	if v, ok := structBehind(m); ok && v.Type().Name() != "" {
		name = v.Type().Name()
	}
	return containerString(name, Children(m))
}
