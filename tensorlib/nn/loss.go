package nn

import (
	"fmt"
	"slices"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// CrossEntropy returns the mean cross-entropy between logits [N, C] and
// Int64 class labels [N], as torch.nn.functional.cross_entropy: the mean
// of logsumexp(logits_i) − logits_i[label_i]. It is fused and numerically
// stable; its gradient is (softmax − onehot)/N. It panics with a
// *tensor.IndexError when a label is outside [0, C).
//
//	loss := nn.CrossEntropy(model.Forward(x), y)
func CrossEntropy(logits, labels *tensor.Tensor) *tensor.Tensor {
	return tensor.CrossEntropy(logits, labels)
}

// NLLLoss returns the mean negative log-likelihood of Int64 labels [N]
// under logProbs [N, C] (log-probabilities, e.g. from LogSoftmax(1)), as
// torch.nn.functional.nll_loss: the mean of −logProbs_i[label_i].
//
//	loss := nn.NLLLoss(logits.LogSoftmax(1), y)
func NLLLoss(logProbs, labels *tensor.Tensor) *tensor.Tensor {
	lp, ls := logProbs.Shape(), labels.Shape()
	if len(lp) != 2 || len(ls) != 1 || lp[0] != ls[0] {
		panic(&tensor.ShapeError{Op: "nn.NLLLoss", Shapes: [][]int{lp, ls},
			Msg: fmt.Sprintf("logProbs %v and labels %v: want [N, C] and [N]", lp, ls)})
	}
	if labels.DType() != tensor.Int64 {
		panic(&tensor.DTypeError{Op: "nn.NLLLoss", DTypes: []tensor.DType{labels.DType()},
			Msg: fmt.Sprintf("labels must be Int64, got %v", labels.DType()), Fix: "convert with labels.AsType(tensor.Int64)"})
	}
	logProbs = tensor.AutocastFloat32(logProbs) // PyTorch's autocast computes losses in float32
	return logProbs.Gather(1, labels.Unsqueeze(1)).Mean().Neg()
}

// MSELoss returns the mean squared error between pred and target, which
// must have the same shape, as torch.nn.functional.mse_loss.
func MSELoss(pred, target *tensor.Tensor) *tensor.Tensor {
	sameShape("nn.MSELoss", pred, target)
	pred, target = tensor.AutocastFloat32(pred), tensor.AutocastFloat32(target)
	return pred.Sub(target).Square().Mean()
}

// BCEWithLogits returns the mean binary cross-entropy between
// sigmoid(logits) and targets in [0, 1] of the same shape, as
// torch.nn.functional.binary_cross_entropy_with_logits, computed stably as
// the mean of log(1 + e^x) − x·y; its gradient is (sigmoid(x) − y)/n.
func BCEWithLogits(logits, targets *tensor.Tensor) *tensor.Tensor {
	sameShape("nn.BCEWithLogits", logits, targets)
	logits, targets = tensor.AutocastFloat32(logits), tensor.AutocastFloat32(targets)
	// log(1 + e^x) = logsumexp(0, x), stable for large |x| in both directions.
	softplus := tensor.Stack(-1, tensor.ZerosLike(logits), logits).LogSumExp(-1)
	return softplus.Sub(logits.Mul(targets)).Mean()
}

func sameShape(op string, a, b *tensor.Tensor) {
	if !slices.Equal(a.Shape(), b.Shape()) {
		panic(&tensor.ShapeError{Op: op, Shapes: [][]int{a.Shape(), b.Shape()},
			Msg: fmt.Sprintf("input %v and target %v differ in shape", a.Shape(), b.Shape()),
			Fix: "reshape one to match the other (a [N] target for [N 1] predictions: target.Unsqueeze(1))"})
	}
}
