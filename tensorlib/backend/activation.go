package backend

// ActivationGrad computes the gradients of activations in one pass, where
// the composed form makes a Bool mask, a zero and a Where.
type ActivationGrad interface {
	// ReLUBackward returns g where y > 0 and 0 elsewhere, for the result
	// y of ReLU; g and y have one shape. With overwrite set nothing else
	// holds g's storage, and the backend may write the result over it and
	// return it.
	ReLUBackward(g Storage, gl Layout, y Storage, yl Layout, overwrite bool) Storage
	// ActivationBackward returns the gradient of op's input for the
	// gradient g of its result, in one pass, for the ops that
	// ActivationBackwardOp accepts: GELU from its input x,
	// g·(Φ(x) + x·φ(x)); Tanh from its result y, g·(1 − y²); Sigmoid from
	// its result y, g·y·(1 − y). v is x or y, of g's shape; overwrite is
	// as for ReLUBackward.
	ActivationBackward(op UnaryOp, g Storage, gl Layout, v Storage, vl Layout, overwrite bool) Storage
}
