package autograd

import "sync/atomic"

// A BackwardFunc receives the gradient of an op's result and returns the
// gradients of its inputs, in the order the inputs were given to NewNode.
// It may return nil for an input that needs no gradient (its node is nil),
// and it may return a gradient of the broadcast shape: the engine sums it
// back to the input's shape.
type BackwardFunc func(grad Value) []Value

// A Node is a value's place in the graph. Leaves are values the user asked
// gradients for; interior nodes are results of recorded ops, holding their
// inputs' nodes and the closure that maps the result's gradient to theirs.
type Node struct {
	op       string       // the op that made the value, "" for a leaf
	shape    []int        // the value's shape, for undoing broadcasts
	inputs   []*Node      // one per op input; nil where no gradient flows
	backward BackwardFunc // nil for leaves and after release
	freed    bool         // the graph through this node was released

	grad    Value  // a leaf's accumulated gradient
	pending Value  // gradient gathered during a Backward pass
	visit   uint64 // last pass that reached this node
}

// NewLeaf returns the node of a value of the given shape that accumulates
// gradients.
func NewLeaf(shape []int) *Node { return &Node{shape: append([]int(nil), shape...)} }

// NewNode returns the node of the result of op, of the given shape,
// computed from values with the given nodes (nil for inputs that need no
// gradient). backward maps the result's gradient to the inputs'.
func NewNode(op string, shape []int, inputs []*Node, backward BackwardFunc) *Node {
	return &Node{op: op, shape: append([]int(nil), shape...), inputs: inputs, backward: backward}
}

// IsLeaf reports whether n is a leaf.
func (n *Node) IsLeaf() bool { return n.op == "" }

// Op returns the name of the op that made n's value ("" for a leaf).
func (n *Node) Op() string { return n.op }

// Freed reports whether the graph through n was released by a Backward.
func (n *Node) Freed() bool { return n.freed }

// Grad returns a leaf's accumulated gradient, or nil.
func (n *Node) Grad() Value { return n.grad }

// SetGrad replaces a leaf's gradient (nil clears it).
func (n *Node) SetGrad(g Value) { n.grad = g }

// release drops what n's closure holds so the memory can be reclaimed.
func (n *Node) release() {
	n.backward = nil
	n.inputs = nil
	n.freed = true
}

var passes atomic.Uint64
