package nn

import (
	"fmt"
	"slices"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// A LossOption passes one of PyTorch's keyword arguments to a loss:
// Reduction, Weight, IgnoreIndex, LabelSmoothing, PosWeight. A loss panics
// when given one it does not take; its doc comment lists those it takes.
//
//	loss := nn.CrossEntropy(logits, y, nn.IgnoreIndex(0), nn.LabelSmoothing(0.1))
type LossOption func(*lossConfig)

type lossBit uint

const (
	lossReduction lossBit = 1 << iota
	lossWeight
	lossIgnore
	lossSmoothing
	lossPosWeight
)

var lossNames = []string{"Reduction", "Weight", "IgnoreIndex", "LabelSmoothing", "PosWeight"}

type lossConfig struct {
	set       lossBit
	reduction string
	weight    *tensor.Tensor
	ignore    int
	smoothing float64
	posWeight *tensor.Tensor
}

// Reduction sets how a loss reduces the per-element losses (reduction=):
// "mean" (the default), "sum", or "none" for the per-element losses in the
// target's shape.
func Reduction(r string) LossOption {
	return func(c *lossConfig) { c.set |= lossReduction; c.reduction = r }
}

// Weight rescales the loss (weight=): for CrossEntropy and NLLLoss a
// weight per class, [C], and the mean divides by the sum of the weights
// of the targets; for BCEWithLogits a weight per element, broadcasting
// to the input.
func Weight(w *tensor.Tensor) LossOption {
	return func(c *lossConfig) { c.set |= lossWeight; c.weight = w }
}

// IgnoreIndex sets the target value that contributes nothing to
// CrossEntropy or NLLLoss, nor to the mean's count (ignore_index=). The
// default is -100, as in PyTorch: padding positions labelled -100 are
// ignored without this option.
func IgnoreIndex(i int) LossOption { return func(c *lossConfig) { c.set |= lossIgnore; c.ignore = i } }

// LabelSmoothing mixes CrossEntropy's target with the uniform
// distribution over the C classes (label_smoothing=): the target gets
// 1-eps+eps/C and every other class eps/C. eps is in [0, 1].
func LabelSmoothing(eps float64) LossOption {
	return func(c *lossConfig) { c.set |= lossSmoothing; c.smoothing = eps }
}

// PosWeight weighs BCEWithLogits' positive term (pos_weight=), [C] for
// the last dim of the input, as PyTorch broadcasts it: above 1 it raises
// recall, below 1 precision.
func PosWeight(w *tensor.Tensor) LossOption {
	return func(c *lossConfig) { c.set |= lossPosWeight; c.posWeight = w }
}

// lossOptions applies opts and panics when one is not in allowed or the
// reduction is unknown.
func lossOptions(op string, allowed lossBit, opts []LossOption) lossConfig {
	c := lossConfig{reduction: "mean", ignore: -100}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if bad := c.set &^ allowed; bad != 0 {
		names, ok := optionLists(lossNames, uint(bad), uint(allowed))
		panic(fmt.Errorf("nn: %s does not take %s; it takes %s", op, names, ok))
	}
	if c.reduction != "mean" && c.reduction != "sum" && c.reduction != "none" {
		panic(fmt.Errorf("nn: %s: Reduction(%q); use \"mean\", \"sum\" or \"none\"", op, c.reduction))
	}
	if !(c.smoothing >= 0 && c.smoothing <= 1) {
		panic(fmt.Errorf("nn: %s: LabelSmoothing(%v); use a value in [0, 1]", op, c.smoothing))
	}
	return c
}

// CrossEntropy returns the cross-entropy between logits and targets, as
// torch.nn.functional.cross_entropy: logits are [N, C] or [N, C, d1, ...]
// (the class dim second, as PyTorch's; [C] for one sample) and targets
// are Int64 class indices [N] or [N, d1, ...], or class probabilities of
// the logits' shape. The loss of one element is logsumexp(logits) −
// logits[target]; by default the result is their mean, a 0-d tensor.
// Options: Reduction ("mean", "sum", "none"), Weight (per class, [C]),
// IgnoreIndex (default -100, as PyTorch's), LabelSmoothing. Without
// options, on [N, C] logits, it is one fused, stable op whose gradient is
// (softmax − onehot)/N. It panics with a *tensor.IndexError when a target
// is outside [0, C) and not the ignored index.
//
//	loss := nn.CrossEntropy(model.Forward(x), y)
//	loss = nn.CrossEntropy(logits.Reshape(B*T, V), y.Reshape(-1), nn.IgnoreIndex(pad))
//	loss = nn.CrossEntropy(logits.Permute(0, 2, 1), y) // [B, V, T] against [B, T], as PyTorch
func CrossEntropy(logits, labels *tensor.Tensor, opts ...LossOption) *tensor.Tensor {
	const op = "nn.CrossEntropy"
	c := lossOptions(op, lossReduction|lossWeight|lossIgnore|lossSmoothing, opts)
	if c.set == 0 && logits.Dim() == 2 && labels.Dim() == 1 && labels.DType() == tensor.Int64 {
		if loss, ok := fusedCrossEntropy(logits, labels, c.ignore); ok {
			return loss
		}
	}
	logits = tensor.AutocastFloat32(logits) // PyTorch's autocast computes losses in float32
	x, C := classLast(op, logits)
	if labels.DType() != tensor.Int64 && labels.DType() != tensor.Bool && slices.Equal(labels.Shape(), logits.Shape()) {
		return probCrossEntropy(x, classLastSame(labels), C, &c, logits.Shape())
	}
	return classLoss(op, x.LogSoftmax(1), labels, C, &c, logits.Shape())
}

// fusedCrossEntropy runs tensor.CrossEntropy; ok is false when a label is
// the ignored index, which the fused op does not know.
func fusedCrossEntropy(logits, labels *tensor.Tensor, ignore int) (loss *tensor.Tensor, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if e, isIndex := r.(*tensor.IndexError); isIndex && e.Index == ignore {
				ok = false
				return
			}
			panic(r)
		}
	}()
	return tensor.CrossEntropy(logits, labels), true
}

// NLLLoss returns the negative log-likelihood of the Int64 targets under
// logProbs (log-probabilities, e.g. from LogSoftmax(1)), as
// torch.nn.functional.nll_loss: logProbs are [N, C] or [N, C, d1, ...]
// ([C] for one sample) and targets [N] or [N, d1, ...]; the loss of one
// element is −logProbs[target], and by default the result is their mean.
// Options: Reduction, Weight (per class, [C]), IgnoreIndex (default -100).
//
//	loss := nn.NLLLoss(logits.LogSoftmax(1), y)
func NLLLoss(logProbs, labels *tensor.Tensor, opts ...LossOption) *tensor.Tensor {
	const op = "nn.NLLLoss"
	c := lossOptions(op, lossReduction|lossWeight|lossIgnore, opts)
	logProbs = tensor.AutocastFloat32(logProbs) // PyTorch's autocast computes losses in float32
	x, C := classLast(op, logProbs)
	return classLoss(op, x, labels, C, &c, logProbs.Shape())
}

// classLast returns x [N, C, d1, ...] as [N*d1*..., C] (and [C] as [1,
// C]) with the number of classes.
func classLast(op string, x *tensor.Tensor) (*tensor.Tensor, int) {
	switch x.Dim() {
	case 0:
		panic(&tensor.ShapeError{Op: op, Shapes: [][]int{x.Shape()},
			Msg: "input is 0-d: want [N, C], [N, C, d1, ...] or [C]", Fix: "give the class scores along dim 1"})
	case 1:
		return x.Unsqueeze(0), x.Size(0)
	case 2:
		return x, x.Size(1)
	}
	C := x.Size(1)
	return classLastSame(x).Reshape(-1, C), C
}

// classLastSame moves dim 1 of x last.
func classLastSame(x *tensor.Tensor) *tensor.Tensor {
	if x.Dim() <= 2 {
		if x.Dim() == 1 {
			return x.Unsqueeze(0)
		}
		return x
	}
	perm := []int{0}
	for d := 2; d < x.Dim(); d++ {
		perm = append(perm, d)
	}
	return x.Permute(append(perm, 1)...).Reshape(-1, x.Size(1))
}

// targetShape returns the shape of the per-element losses for input
// shape in: [N, d1, ...] without the class dim ([] for [C]).
func targetShape(in []int) []int {
	if len(in) == 1 {
		return []int{}
	}
	return append([]int{in[0]}, in[2:]...)
}

// classLoss is NLLLoss of the log-probabilities logp [M, C] against
// class-index labels, with CrossEntropy's label smoothing, as PyTorch's
// nll_loss_nd and cross_entropy_loss_label_smoothing compute them.
func classLoss(op string, logp, labels *tensor.Tensor, C int, c *lossConfig, inShape []int) *tensor.Tensor {
	want := targetShape(inShape)
	if !slices.Equal(labels.Shape(), want) {
		panic(&tensor.ShapeError{Op: op, Shapes: [][]int{inShape, labels.Shape()},
			Msg: fmt.Sprintf("input %v and target %v: want a target of %v (the input without its class dim 1)", inShape, labels.Shape(), want),
			Fix: "put the classes in dim 1 of the input ([N, C, T] for [N, T] targets: logits.Permute(0, 2, 1)), or pass probabilities of the input's shape"})
	}
	if labels.DType() != tensor.Int64 {
		panic(&tensor.DTypeError{Op: op, DTypes: []tensor.DType{labels.DType()},
			Msg: fmt.Sprintf("targets must be Int64 class indices, got %v", labels.DType()), Fix: "convert with labels.AsType(tensor.Int64)"})
	}
	y := labels.Reshape(-1)
	valid := y.NeScalar(float64(c.ignore))
	safe := tensor.Where(valid, y, tensor.Zeros().AsType(tensor.Int64).To(y.Device()))
	if safe.Numel() > 0 {
		lo, hi := int(safe.MinAll().Item()), int(safe.MaxAll().Item())
		if lo < 0 || hi >= C {
			bad := lo
			if lo >= 0 {
				bad = hi
			}
			panic(&tensor.IndexError{Op: op, Index: bad, Size: C,
				Msg: fmt.Sprintf("target %d is outside [0, %d) and is not the ignored index %d", bad, C, c.ignore),
				Fix: "targets must be class indices in [0, C), C = input.Size(1), or the IgnoreIndex value"})
		}
	}
	validF := valid.AsType(logp.DType())
	nll := logp.Gather(1, safe.Unsqueeze(1)).Reshape(-1).Neg() // [M]
	w := validF
	var wc *tensor.Tensor // the class weights as [1, C]
	if c.weight != nil {
		if !slices.Equal(c.weight.Shape(), []int{C}) {
			panic(&tensor.ShapeError{Op: op, Shapes: [][]int{c.weight.Shape()},
				Msg: fmt.Sprintf("Weight of shape %v: want one weight per class, [%d]", c.weight.Shape(), C)})
		}
		cw := c.weight.AsType(logp.DType()).To(logp.Device())
		w = cw.IndexSelect(0, safe).Mul(validF)
		wc = cw.Unsqueeze(0)
	}
	loss := nll.Mul(w)
	var smooth *tensor.Tensor
	if c.smoothing > 0 {
		s := logp
		if wc != nil {
			s = s.Mul(wc)
		}
		smooth = s.Sum(1).Neg().Mul(validF) // [M]
	}
	eps, k := c.smoothing, c.smoothing/float64(C)
	switch c.reduction {
	case "none":
		if smooth != nil {
			loss = loss.MulScalar(1 - eps).Add(smooth.MulScalar(k))
		}
		return loss.Reshape(want...)
	case "sum":
		out := loss.Sum()
		if smooth != nil {
			out = out.MulScalar(1 - eps).Add(smooth.Sum().MulScalar(k))
		}
		return out
	}
	den := w.Sum()
	out := loss.Sum().Div(den)
	if smooth != nil {
		out = out.MulScalar(1 - eps).Add(smooth.Sum().Div(den).MulScalar(k))
	}
	return out
}

// probCrossEntropy is CrossEntropy against class probabilities p [M, C]
// (PyTorch's cross_entropy with a float target): −Σ_c w_c·p_c·log
// softmax(x)_c per element, the mean over elements by default.
func probCrossEntropy(x, p *tensor.Tensor, C int, c *lossConfig, inShape []int) *tensor.Tensor {
	p = p.AsType(x.DType())
	if c.smoothing > 0 {
		p = p.MulScalar(1 - c.smoothing).AddScalar(c.smoothing / float64(C))
	}
	l := x.LogSoftmax(1).Mul(p)
	if c.weight != nil {
		l = l.Mul(c.weight.AsType(x.DType()).To(x.Device()).Unsqueeze(0))
	}
	loss := l.Sum(1).Neg()
	return reduce(loss, c.reduction, targetShape(inShape))
}

// reduce applies a reduction to per-element losses, reshaped to shape
// for "none".
func reduce(loss *tensor.Tensor, reduction string, shape []int) *tensor.Tensor {
	switch reduction {
	case "none":
		return loss.Reshape(shape...)
	case "sum":
		return loss.Sum()
	}
	return loss.Mean()
}

// MSELoss returns the squared error between pred and target, which must
// have the same shape, as torch.nn.functional.mse_loss: by default its
// mean. Option: Reduction ("mean", "sum", "none"). Unlike PyTorch, which
// broadcasts targets of another shape with a warning, it panics.
func MSELoss(pred, target *tensor.Tensor, opts ...LossOption) *tensor.Tensor {
	c := lossOptions("nn.MSELoss", lossReduction, opts)
	sameShape("nn.MSELoss", pred, target)
	pred, target = tensor.AutocastFloat32(pred), tensor.AutocastFloat32(target) // PyTorch's autocast computes losses in float32
	return reduce(pred.Sub(target).Square(), c.reduction, pred.Shape())
}

// BCEWithLogits returns the binary cross-entropy between sigmoid(logits)
// and targets in [0, 1] of the same shape, as
// torch.nn.functional.binary_cross_entropy_with_logits, computed stably as
// log(1 + e^x) − x·y per element; by default their mean, whose gradient is
// (sigmoid(x) − y)/n. Options: Reduction, Weight (per element,
// broadcasting to the logits), PosWeight (for the positive term, along
// the last dim).
func BCEWithLogits(logits, targets *tensor.Tensor, opts ...LossOption) *tensor.Tensor {
	c := lossOptions("nn.BCEWithLogits", lossReduction|lossWeight|lossPosWeight, opts)
	sameShape("nn.BCEWithLogits", logits, targets)
	logits, targets = tensor.AutocastFloat32(logits), tensor.AutocastFloat32(targets)
	y := targets.AsType(logits.DType())
	// log(1 + e^x) = logsumexp(0, x), stable for large |x| in both directions.
	var loss *tensor.Tensor
	if c.posWeight == nil {
		loss = softplus(logits).Sub(logits.Mul(y))
	} else {
		// (1 − y)·x + (1 + (pw − 1)·y)·log(1 + e^−x), as PyTorch.
		pw := c.posWeight.AsType(logits.DType()).To(logits.Device())
		lw := pw.AddScalar(-1).Mul(y).AddScalar(1)
		loss = y.Neg().AddScalar(1).Mul(logits).Add(lw.Mul(softplus(logits.Neg())))
	}
	if c.weight != nil {
		loss = loss.Mul(c.weight.AsType(logits.DType()).To(logits.Device()))
	}
	return reduce(loss, c.reduction, logits.Shape())
}

// softplus returns log(1 + e^x), stably.
func softplus(x *tensor.Tensor) *tensor.Tensor {
	return tensor.Stack(-1, tensor.ZerosLike(x), x).LogSumExp(-1)
}

func sameShape(op string, a, b *tensor.Tensor) {
	if !slices.Equal(a.Shape(), b.Shape()) {
		panic(&tensor.ShapeError{Op: op, Shapes: [][]int{a.Shape(), b.Shape()},
			Msg: fmt.Sprintf("input %v and target %v differ in shape", a.Shape(), b.Shape()),
			Fix: "reshape one to match the other (a [N] target for [N 1] predictions: target.Unsqueeze(1))"})
	}
}
