package backend

// Pool computes the gradient of max pooling in one pass, where the
// composed form zeroes the input's gradient and scatters into it.
type Pool interface {
	// MaxPool2dBackward returns the gradient, of the input shape [N, C, H,
	// W], of MaxPool2d with the given window, for the gradient g under gl
	// of its result [N, C, OH, OW] and the positions idx (contiguous) that
	// MaxPool2d returned: each element sums the gradients of the windows
	// whose maximum it was, in the windows' order.
	MaxPool2dBackward(g Storage, gl Layout, idx Storage, shape []int, kernel, stride, padding [2]int) Storage
}
