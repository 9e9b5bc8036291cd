package backend

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
