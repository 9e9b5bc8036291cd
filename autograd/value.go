package autograd

// A Value is what the engine differentiates: a tensor, seen only through
// the few methods the engine needs to move gradients around. Values are
// immutable; every method returns a new value.
type Value interface {
	// Shape returns the value's dimensions.
	Shape() []int
	// Add returns the elementwise sum of the value and v, of equal shape,
	// in new memory: the engine may release both operands afterwards.
	Add(v Value) Value
	// SumTo returns the value summed over the dimensions that broadcasting
	// added or stretched, so that it has the given shape. The engine does
	// not use the value afterwards, so a Releaser may release its memory
	// when the result does not share it.
	SumTo(shape []int) Value
	// Clone returns a copy that owns its memory.
	Clone() Value
}

// A Releaser is a Value that can give its memory back at once, without
// waiting for the garbage collector: device memory, which the collector
// does not see. The engine calls Release on gradients it is done with
// (see Backward); Release must do nothing when memory is shared with
// values the engine does not own (a tensor the user holds).
type Releaser interface {
	Value
	Release()
}
