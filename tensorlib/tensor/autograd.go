package tensor

import (
	"slices"

	"github.com/gotensor/gotensor/autograd"
)

// SetRequiresGrad marks x as a leaf whose gradient Backward computes
// (true), or stops tracking it (false), and returns x so creation can be
// chained. Ops on a tensor that requires grad record a graph, unless they
// run inside NoGrad. It panics with a *DTypeError when x is not a float
// (Float32, Float64, BFloat16, Float16), and with a *GradError when
// turning it off on a result of ops (use Detach).
//
//	w := tensor.Randn(784, 10).SetRequiresGrad(true)
func (x *Tensor) SetRequiresGrad(requires bool) *Tensor {
	switch {
	case requires && x.node == nil:
		if !x.DType().IsFloat() {
			panic(dtypeErr("SetRequiresGrad", "convert first with x.AsType(tensor.Float32)", []DType{x.DType()},
				"only floating-point tensors can require gradients, got %v", x.DType()))
		}
		x.node = autograd.NewLeaf(x.layout.Shape)
	case !requires && x.node != nil:
		if !x.node.IsLeaf() {
			panic(gradErr("SetRequiresGrad", "use y := x.Detach() for a tensor without history",
				"SetRequiresGrad(false) on a result of %s: only leaves can stop requiring grad", x.node.Op()))
		}
		x.node = nil
	}
	return x
}

// RequiresGrad reports whether gradients flow to x: it is a leaf marked
// with SetRequiresGrad(true) or the result of ops on such tensors.
func (x *Tensor) RequiresGrad() bool { return x.node != nil }

// IsLeaf reports whether x is a leaf of the graph: a tensor that does not
// require grad, or one marked with SetRequiresGrad(true) rather than
// computed from others. Only leaves keep their gradient after Backward.
func (x *Tensor) IsLeaf() bool { return x.node == nil || x.node.IsLeaf() }

// GradFn returns the name of the op that computed x ("MatMul", "Add", ...)
// when x is a result that requires grad, and "" otherwise.
func (x *Tensor) GradFn() string {
	if x.node == nil {
		return ""
	}
	return x.node.Op()
}

// Grad returns the gradient accumulated in the leaf x by Backward: a
// tensor of x's shape, dtype and device. It is nil before the first
// Backward that reaches x, after ZeroGrad, and for tensors that are not
// leaves requiring grad.
func (x *Tensor) Grad() *Tensor {
	if x.node == nil {
		return nil
	}
	g, _ := x.node.Grad().(*gradValue)
	if g == nil {
		return nil
	}
	return g.t
}

// SetGrad replaces x's gradient with g (nil clears it), as assigning
// .grad does in PyTorch; gradient clipping uses it. It panics with a
// *ShapeError, *DTypeError or *DeviceError when g does not match x, and
// with a *GradError when x is not a leaf requiring grad.
func (x *Tensor) SetGrad(g *Tensor) {
	if x.node == nil || !x.node.IsLeaf() {
		panic(gradErr("SetGrad", "call x.SetRequiresGrad(true) first", "only leaves that require grad hold a gradient"))
	}
	if g == nil {
		x.node.SetGrad(nil)
		return
	}
	checkGradLike("SetGrad", x, g)
	x.node.SetGrad(&gradValue{t: g.Detach()})
}

// ZeroGrad clears x's gradient: Grad returns nil until the next Backward
// (PyTorch's zero_grad with set_to_none). Gradients accumulate across
// Backward calls until then.
func (x *Tensor) ZeroGrad() {
	if x.node != nil && x.node.IsLeaf() {
		x.node.SetGrad(nil)
	}
}

// Detach returns a tensor sharing x's storage that does not require grad
// and has no history: gradients never flow through it.
func (x *Tensor) Detach() *Tensor {
	return &Tensor{storage: x.storage, layout: x.layout, backend: x.backend}
}

// Backward computes the gradient of the scalar x with respect to every
// leaf it was computed from that requires grad, adding it to their Grad.
// The graph behind x is freed afterwards; a second Backward through it
// panics with a *GradError (run the forward pass again). It panics with a
// *ShapeError when x has more than one element (use BackwardWith) and a
// *GradError when x does not require grad.
//
//	loss := x.MatMul(w).Sub(y).Square().Mean()
//	loss.Backward()
//	w.Grad() // d loss / d w
func (x *Tensor) Backward() {
	if x.Numel() != 1 {
		panic(shapeErr("Backward", "reduce it to a scalar first (Sum, Mean), or pass the output gradient with x.BackwardWith(grad)",
			[][]int{x.Shape()}, "Backward needs a scalar, got shape %v (%d elements)", x.layout.Shape, x.Numel()))
	}
	x.BackwardWith(OnesLike(x))
}

// BackwardWith is Backward for a tensor of any shape: grad is the gradient
// of some scalar with respect to x (x's shape; its dtype is converted), and
// leaves receive their gradient of that scalar (a vector-Jacobian product).
// It panics as Backward does, and with a *ShapeError or *DeviceError when
// grad does not match x.
func (x *Tensor) BackwardWith(grad *Tensor) {
	if x.node == nil {
		panic(gradErr("Backward", "mark the inputs you want gradients for with SetRequiresGrad(true) before computing it (and not inside NoGrad)",
			"the tensor does not require grad and has no graph"))
	}
	checkGradLike("BackwardWith", x, grad)
	var g *Tensor
	NoGrad(func() { g = grad.AsType(x.DType()).Detach() })
	defer suspendAutocast()()
	if err := autograd.Backward(x.node, &gradValue{t: g}, false); err != nil {
		panic(gradErr("Backward", "run the forward pass again to build a new graph before calling Backward again",
			"Backward through the graph a second time: the graph behind this tensor was freed by an earlier Backward, which releases it (saved inputs, closures and intermediate gradients) to reclaim memory"))
	}
}

// checkGradLike panics unless g fits x as a gradient.
func checkGradLike(op string, x, g *Tensor) {
	sameDevice(op, x, g)
	if !slices.Equal(x.layout.Shape, g.layout.Shape) {
		panic(shapeErr(op, "the gradient must have the tensor's shape", [][]int{x.Shape(), g.Shape()},
			"gradient of shape %v for a tensor of shape %v", g.layout.Shape, x.layout.Shape))
	}
	if !g.DType().IsFloat() {
		panic(dtypeErr(op, "pass a floating-point gradient", []DType{g.DType()}, "gradient of dtype %v", g.DType()))
	}
}

// NoGrad runs f without recording a graph: tensors computed inside do not
// require grad, which saves memory and time in evaluation and in optimizer
// updates. Scopes nest. The scope belongs to the calling goroutine, as
// PyTorch's grad mode belongs to a thread: ops on other goroutines (another
// notebook session's, one that f starts) record as usual, while an op's
// own parallel work runs for the op, which checked the mode on the
// caller's goroutine.
//
//	tensor.NoGrad(func() { acc = model.Forward(x).Argmax(1).Eq(y).AsType(tensor.Float32).Mean().Item() })
func NoGrad(f func()) { autograd.NoGrad(f) }

// GradEnabled reports whether ops on the calling goroutine record a graph
// now (false inside NoGrad and during Backward).
func GradEnabled() bool { return autograd.Enabled() }

// tracked reports whether an op on xs must record a node: recording is on
// and some input requires grad. It is the only cost autograd adds to an op
// when nothing requires grad.
func tracked(xs ...*Tensor) bool {
	for _, x := range xs {
		if x != nil && x.node != nil {
			return autograd.Enabled()
		}
	}
	return false
}

// record gives out a graph node for op, computed from inputs, whose
// backward maps the gradient of out to the gradients of the inputs (in
// order; nil where none is needed, or of the broadcast shape: the engine
// sums it back). Gradients are converted to each input's dtype here. Call
// it only when tracked(inputs...) is true, so that untracked ops never
// build the closure.
func record(out *Tensor, op string, backward func(g *Tensor) []*Tensor, inputs ...*Tensor) *Tensor {
	return recordOwned(out, op, func(g *Tensor, _ bool) []*Tensor { return backward(g) }, inputs...)
}

// recordOwned is record for a backward that may write over the gradient
// it receives: owned says that the engine owns g alone (no other tensor
// shares its storage, see ownedGrad), so that the backward may compute its
// result in g's storage and return it.
func recordOwned(out *Tensor, op string, backward func(g *Tensor, owned bool) []*Tensor, inputs ...*Tensor) *Tensor {
	nodes := make([]*autograd.Node, len(inputs))
	dts := make([]DType, len(inputs))
	for i, in := range inputs {
		nodes[i] = in.node
		dts[i] = in.DType()
	}
	out.node = autograd.NewNode(op, out.layout.Shape, nodes, func(g autograd.Value) []autograd.Value {
		gv := g.(*gradValue)
		gs := backward(gv.t, gv.owned)
		res := make([]autograd.Value, len(nodes))
		for i, gi := range gs {
			if gi == nil || nodes[i] == nil {
				continue
			}
			if gi.DType() != dts[i] {
				gi = gi.AsType(dts[i])
			}
			res[i] = &gradValue{t: gi, owned: ownedGrad(gi, i, gs, gv, inputs)}
		}
		// The engine is done with g: free it at once when it owns it
		// and no gradient returned is (a view of) it.
		if gv.owned && !sharesStorage(gv.t, gs) {
			gv.Release()
		}
		return res
	})
	return out
}

// ownedGrad reports whether gradient gs[i], which a backward returned for
// the gradient g of its op's output, may be owned by the engine: it is a
// whole storage (contiguous, from its start, every element) that no other
// returned gradient and no input shares, and either a new one (the
// backward computed it) or g's own when g was owned (a view of g, as
// Reshape's backward returns).
func ownedGrad(gi *Tensor, i int, gs []*Tensor, g *gradValue, inputs []*Tensor) bool {
	s := gi.storage
	if gi.layout.Offset != 0 || !gi.layout.IsContiguous() || s.Len() != gi.Numel() {
		return false
	}
	if s == g.t.storage && !g.owned {
		return false
	}
	for j, o := range gs {
		if j != i && o != nil && o.storage == s {
			return false
		}
	}
	for _, in := range inputs {
		if in.storage == s {
			return false
		}
	}
	return true
}

// sharesStorage reports whether one of ts (nil entries allowed) uses x's
// storage.
func sharesStorage(x *Tensor, ts []*Tensor) bool {
	for _, t := range ts {
		if t != nil && t.storage == x.storage {
			return true
		}
	}
	return false
}

// needGrad reports whether input x of a recorded op needs a gradient; a
// backward skips the work for those that do not.
func needGrad(x *Tensor) bool { return x.node != nil }

// gradValue is a *Tensor seen by the autograd engine. owned says that no
// other tensor shares its storage: a backward computed it for the engine
// alone, so a leaf may keep it as its gradient without a copy (PyTorch's
// AccumulateGrad likewise steals a gradient nothing else refers to).
type gradValue struct {
	t     *Tensor
	owned bool
}

func (g *gradValue) Shape() []int { return g.t.layout.Shape }

func (g *gradValue) Add(v autograd.Value) autograd.Value {
	return &gradValue{t: g.t.Add(v.(*gradValue).t), owned: true}
}

// Clone returns a copy of g, or g itself, no longer marked owned, when it
// was: then nothing else holds its storage.
func (g *gradValue) Clone() autograd.Value {
	if g.owned {
		return &gradValue{t: g.t}
	}
	return &gradValue{t: g.t.Clone()}
}

// SumTo sums the dims that broadcasting to g's shape added or stretched,
// freeing g when it is owned and the sum was computed in new memory.
func (g *gradValue) SumTo(shape []int) autograd.Value {
	t := sumTo(g.t, shape)
	if t.storage != g.t.storage {
		g.Release()
		return &gradValue{t: t, owned: true}
	}
	return &gradValue{t: t, owned: g.owned}
}

// Release frees g's memory (device memory goes back to its allocator at
// once) when g is owned: then no other tensor refers to it.
func (g *gradValue) Release() {
	if g.owned {
		g.t.Free()
	}
}

// sumTo returns x summed down to shape, which x's shape broadcasts from.
func sumTo(x *Tensor, shape []int) *Tensor {
	lead := x.Dim() - len(shape)
	var dims []int
	for i, s := range x.layout.Shape {
		if i < lead || (shape[i-lead] == 1 && s != 1) {
			dims = append(dims, i)
		}
	}
	if len(dims) > 0 {
		x = x.Sum(dims...)
	}
	return x.Reshape(shape...)
}
