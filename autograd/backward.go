package autograd

import "slices"

// Backward propagates seed, the gradient of root's value, through the
// graph that ends at root, and adds each leaf's share to its gradient.
// Closures run with recording off, on the calling goroutine. Unless retain is true, the graph is
// released as it is walked: each node drops its closure, and with it the
// values the closure saved, as soon as its backward has run. Backward
// returns ErrFreed, and does nothing, when the graph was released by an
// earlier Backward.
//
// Intermediate gradients are released as soon as they are consumed: the
// engine calls Release (see Releaser) on a gradient it has summed into
// another or summed down to an input's shape, and a closure may release
// the gradient it receives once it has computed its inputs' (package
// tensor does so for gradients the engine owns alone), so that device
// memory goes back to its allocator before Backward returns rather than
// when the garbage collector runs.
func Backward(root *Node, seed Value, retain bool) error {
	order, ok := topoSort(root)
	if !ok {
		return ErrFreed
	}
	defer noGrad.Set(struct{}{})()
	defer func() {
		for _, n := range order {
			n.pending = nil
		}
	}()
	root.pending = seed
	for i := len(order) - 1; i >= 0; i-- {
		n := order[i]
		g := n.pending
		n.pending = nil
		if g == nil {
			// No gradient reached n: its closure will not run, but what
			// it saved is released all the same.
			if !retain && !n.IsLeaf() {
				n.release()
			}
			continue
		}
		if n.IsLeaf() {
			if n.grad == nil {
				n.grad = g.Clone()
			} else {
				// The leaf's gradient may be held by the user: only g,
				// which the engine holds, is released.
				sum := n.grad.Add(g)
				release(g)
				n.grad = sum
			}
			continue
		}
		gs := n.backward(g)
		for j, in := range n.inputs {
			if in == nil || j >= len(gs) || gs[j] == nil {
				continue
			}
			gj := gs[j]
			if !slices.Equal(gj.Shape(), in.shape) {
				gj = gj.SumTo(in.shape)
			}
			if in.pending == nil {
				in.pending = gj
			} else {
				sum := in.pending.Add(gj)
				release(in.pending)
				release(gj)
				in.pending = sum
			}
		}
		if !retain {
			n.release()
		}
	}
	return nil
}

// release releases v's memory when v is a Releaser; Add's result never
// shares memory with its operands, so both may go once summed.
func release(v Value) {
	if r, ok := v.(Releaser); ok {
		r.Release()
	}
}

// topoSort returns the nodes reachable from root, each after all nodes it
// depends on (inputs first), without recursion so deep graphs are fine. It
// reports false when it meets a released node.
func topoSort(root *Node) ([]*Node, bool) {
	pass := passes.Add(1)
	var order []*Node
	type frame struct {
		n *Node
		i int
	}
	if root.freed {
		return nil, false
	}
	root.visit = pass
	stack := []frame{{root, 0}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < len(top.n.inputs) {
			in := top.n.inputs[top.i]
			top.i++
			if in == nil || in.visit == pass {
				continue
			}
			if in.freed {
				return nil, false
			}
			in.visit = pass
			stack = append(stack, frame{in, 0})
			continue
		}
		order = append(order, top.n)
		stack = stack[:len(stack)-1]
	}
	return order, true
}
