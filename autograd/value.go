package autograd

// A Value is what the engine differentiates: a tensor, seen only through
// the few methods the engine needs to move gradients around. Values are
// immutable; every method returns a new value.
type Value interface {
	// Shape returns the value's dimensions.
	Shape() []int
	// Add returns the elementwise sum of the value and v, of equal shape.
	Add(v Value) Value
	// SumTo returns the value summed over the dimensions that broadcasting
	// added or stretched, so that it has the given shape.
	SumTo(shape []int) Value
	// Clone returns a copy that owns its memory.
	Clone() Value
}
