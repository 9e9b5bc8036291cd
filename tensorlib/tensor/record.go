package tensor

// record is the seam for autograd (a later issue). Every differentiable
// primitive passes its output and inputs through record, and will pass a
// backward closure next to its forward code, micrograd style:
//
//	out := ...forward...
//	return record(out, "Mul", x, y) // + func(g *Tensor) { x.grad += g*y; y.grad += g*x }
//
// Ops composed of primitives (Sub of a scalar, Softmax, Var, ...) need no
// backward of their own. For now record returns out unchanged.
func record(out *Tensor, op string, inputs ...*Tensor) *Tensor {
	_, _ = op, inputs
	return out
}
