package autograd

// Backward propagates seed, the gradient of root's value, through the
// graph that ends at root, and adds each leaf's share to its gradient.
// Closures run with recording off. Unless retain is true, the graph is
// released as it is walked; walking a released graph panics with an
// *Error.
func Backward(root *Node, seed Value, retain bool) {
	order := topoSort(root)
	noGrad.Add(1)
	defer noGrad.Add(-1)
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
			continue
		}
		if n.IsLeaf() {
			if n.grad == nil {
				n.grad = g.Clone()
			} else {
				n.grad = n.grad.Add(g)
			}
			continue
		}
		gs := n.backward(g)
		for j, in := range n.inputs {
			if in == nil || j >= len(gs) || gs[j] == nil {
				continue
			}
			gj := gs[j]
			if !equalShape(gj.Shape(), in.shape) {
				gj = gj.SumTo(in.shape)
			}
			if in.pending == nil {
				in.pending = gj
			} else {
				in.pending = in.pending.Add(gj)
			}
		}
		if !retain {
			n.release()
		}
	}
}

// topoSort returns the nodes reachable from root, each after all nodes it
// depends on (inputs first), without recursion so deep graphs are fine.
func topoSort(root *Node) []*Node {
	pass := passes.Add(1)
	var order []*Node
	type frame struct {
		n *Node
		i int
	}
	if root.freed {
		panic(&Error{Msg: errFreed})
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
				panic(&Error{Msg: errFreed})
			}
			in.visit = pass
			stack = append(stack, frame{in, 0})
			continue
		}
		order = append(order, top.n)
		stack = stack[:len(stack)-1]
	}
	return order
}

func equalShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
