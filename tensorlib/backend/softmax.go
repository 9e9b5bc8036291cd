package backend

// Softmax computes softmax and log-softmax along one dim in one pass over
// the data for each row's statistics (its maximum and the sum of exp(x -
// max)) and one for the result, forward and backward, where the composed
// form takes a max, a subtraction, an exp, a sum and a division, each a
// pass over memory that autograd also keeps alive.
type Softmax interface {
	// Softmax returns exp(x - max) / sum(exp(x - max)) of x under xl along
	// dim, or with log set (x - max) - log(sum(exp(x - max))): a new
	// contiguous storage of xl's shape. NaN or +Inf in a slice, or a slice
	// all -Inf, makes the slice NaN, as the composed form does; -Inf
	// elements (a mask) get probability 0.
	Softmax(x Storage, xl Layout, dim int, log bool) Storage
	// SoftmaxBackward returns the gradient of Softmax's x for the gradient
	// g under gl of its result y under yl (one shape): y * (g - sum(g * y))
	// along dim, or with log set g - exp(y) * sum(g).
	SoftmaxBackward(g Storage, gl Layout, y Storage, yl Layout, dim int, log bool) Storage
}
