package backend

// The interfaces in this file are optional: a Backend may implement any of
// them to compute a layer of training in one pass over its data instead of
// the several primitive calls it takes otherwise. Package tensor uses one
// when the tensor's backend implements it and composes the same result from
// the Backend methods when it does not. They follow Backend's conventions: inputs may be any view,
// results are new contiguous storages, and every float operand has one
// dtype, Float32 or Float64 (or 16-bit where the backend says so through
// HalfOps).

// Conv computes 2-D convolutions directly. The CPU backend unfolds one
// sample at a time into a buffer that stays in cache and multiplies it
// there, where Im2Col and MatMul would write and read the columns of the
// whole batch.
type Conv interface {
	// Conv2d returns the cross-correlation of x under xl, [N, C, H, W],
	// with the filters w under wl, [F, C, KH, KW], plus the bias b under
	// bl, [F] (b is nil for none): [N, F, OH, OW], with the output size of
	// Window.
	Conv2d(x Storage, xl Layout, w Storage, wl Layout, b Storage, bl Layout, stride, padding, dilation [2]int) Storage
	// Conv2dBackward returns the gradients of Conv2d's x, w and b, given
	// the gradient g under gl of its result; it computes only those that
	// need says (x, w, b) and returns nil for the others.
	Conv2dBackward(g Storage, gl Layout, x Storage, xl Layout, w Storage, wl Layout, stride, padding, dilation [2]int, need [3]bool) (gx, gw, gb Storage)
}

// BatchNorm normalises per channel in one pass over the data for the
// statistics and one for the result, where the composed form takes a dozen
// elementwise ops and reductions, forward and backward.
type BatchNorm interface {
	// BatchNorm normalises x under xl, [N, C, ...], per channel (dim 1):
	// y = (x - mean_c) / sqrt(var_c + eps) * w_c + b_c. With mean and
	// variance nil it uses the batch statistics (the mean and the biased
	// variance over every dim but 1) and returns them, [C]; otherwise it
	// uses the given ones under their layouts ([C]) and returns nil for
	// the statistics. w and b, [C], may be nil for 1 and 0.
	BatchNorm(x Storage, xl Layout, mean Storage, ml Layout, variance Storage, vl Layout, w Storage, wl Layout, b Storage, bl Layout, eps float64) (y, batchMean, batchVar Storage)
	// BatchNormBackward returns the gradients of x, w and b for the
	// gradient g under gl of BatchNorm's result with the batch statistics
	// mean and variance that it returned; the gradient of x includes the
	// terms through the statistics. It computes only those that need says
	// (x, w, b), returning nil for the others. With overwrite set nothing
	// else holds g's storage, and the backend may write x's gradient over
	// it and return it.
	BatchNormBackward(g Storage, gl Layout, x Storage, xl Layout, mean, variance Storage, w Storage, wl Layout, eps float64, need [3]bool, overwrite bool) (gx, gw, gb Storage)
}

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

// ActivationBackwardOp reports whether ActivationBackward computes op's
// gradient, and whether from op's input (GELU) rather than its result
// (Tanh, Sigmoid).
func ActivationBackwardOp(op UnaryOp) (ok, fromInput bool) {
	switch op {
	case OpGELU:
		return true, true
	case OpTanh, OpSigmoid:
		return true, false
	}
	return false, false
}

// Loss computes the softmax cross-entropy of classification in one pass
// over the logits, forward and backward, where the composed form takes a
// dozen small ops.
type Loss interface {
	// CrossEntropy returns the mean over rows of logsumexp(row) -
	// row[label] of the logits under ll, [N, C], with the Int64 labels
	// under lbl, [N]: loss holds that one element, lse the rows'
	// logsumexp, [N], for CrossEntropyBackward. A label outside [0, C)
	// panics with a *tensor.IndexError.
	CrossEntropy(logits Storage, ll Layout, labels Storage, lbl Layout) (loss, lse Storage)
	// CrossEntropyBackward returns the gradient of the logits, [N, C],
	// for the gradient g (one element, under gl) of CrossEntropy's loss:
	// (softmax(row) - onehot(label)) * g / N.
	CrossEntropyBackward(g Storage, gl Layout, logits Storage, ll Layout, labels Storage, lbl Layout, lse Storage) Storage
}

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

// LayerNorm normalises over the trailing dims in one pass for each row's
// statistics and one for the result, forward and backward, where the
// composed form takes two means, a square, a square root and several
// elementwise ops.
type LayerNorm interface {
	// LayerNorm normalises x under xl over its last k dims: with rows the
	// product of the other dims and n of those k, y = (x - mean) * rstd *
	// w + b per row, rstd = 1 / sqrt(var + eps) with the biased variance.
	// w and b have the k trailing dims' shape under their layouts; either
	// may be nil for 1 and 0. It returns y, contiguous of xl's shape, and
	// each row's mean and rstd, [rows], for LayerNormBackward.
	LayerNorm(x Storage, xl Layout, k int, w Storage, wl Layout, b Storage, bl Layout, eps float64) (y, mean, rstd Storage)
	// LayerNormBackward returns the gradients of LayerNorm's x, w and b for
	// the gradient g under gl of its result, given the mean and rstd it
	// returned; it computes only those that need says (x, w, b), returning
	// nil for the others. w is nil when LayerNorm had none.
	LayerNormBackward(g Storage, gl Layout, x Storage, xl Layout, k int, mean, rstd Storage, w Storage, wl Layout, need [3]bool) (gx, gw, gb Storage)
}

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
