package nn

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// BatchNorm normalises each channel (dim 1) of its input over the batch
// and the remaining dims, then scales by Weight and shifts by Bias, as
// torch.nn.BatchNorm1d ([N, C] or [N, C, L]) and BatchNorm2d
// ([N, C, H, W]):
//
//	y = (x - mean) / √(var + Eps) · Weight + Bias
//
// In training mode mean and var are the batch's (var biased), and the
// running statistics move towards them:
// running = (1-Momentum)·running + Momentum·batch, with the unbiased batch
// variance for RunningVar, as PyTorch does. In evaluation mode the running
// statistics are used instead.
type BatchNorm struct {
	NumFeatures       int
	Spatial           int            // 1 for BatchNorm1d, 2 for BatchNorm2d
	Eps, Momentum     float64        // 1e-5 and 0.1 by default
	Training          bool           // true until SetTraining(false) or Eval
	Weight, Bias      *tensor.Tensor // [NumFeatures], nil with NoAffine
	RunningMean       *tensor.Tensor // [NumFeatures], starts at 0
	RunningVar        *tensor.Tensor // [NumFeatures], starts at 1
	NumBatchesTracked *tensor.Tensor // 0-d Int64: training batches seen
}

// NewBatchNorm1d returns a BatchNorm over numFeatures channels for inputs
// [N, C] or [N, C, L], in training mode, with Weight 1 and Bias 0.
// Options: Eps, Momentum, NoAffine.
//
//	bn := nn.NewBatchNorm1d(256)
func NewBatchNorm1d(numFeatures int, opts ...Option) *BatchNorm {
	return newBatchNorm("NewBatchNorm1d", 1, numFeatures, opts)
}

// NewBatchNorm2d returns a BatchNorm over numFeatures channels for inputs
// [N, C, H, W], in training mode, with Weight 1 and Bias 0. Options: Eps,
// Momentum, NoAffine.
//
//	bn := nn.NewBatchNorm2d(32)
func NewBatchNorm2d(numFeatures int, opts ...Option) *BatchNorm {
	return newBatchNorm("NewBatchNorm2d", 2, numFeatures, opts)
}

func newBatchNorm(op string, spatial, n int, opts []Option) *BatchNorm {
	c := newConfig(op, optEps|optMomentum|optNoAffine, opts)
	if n <= 0 {
		panic(fmt.Errorf("nn: %s(%d): the number of features must be positive", op, n))
	}
	bn := &BatchNorm{NumFeatures: n, Spatial: spatial, Eps: c.eps, Momentum: c.momentum, Training: true,
		RunningMean: tensor.Zeros(n), RunningVar: tensor.Ones(n),
		NumBatchesTracked: tensor.Scalar(0).AsType(tensor.Int64)}
	if !c.noAffine {
		bn.Weight, bn.Bias = param(tensor.Ones(n)), param(tensor.Zeros(n))
	}
	return bn
}

func (l *BatchNorm) name() string { return "BatchNorm" + strconv.Itoa(l.Spatial) + "d" }

// Forward normalises x with the batch's statistics in training mode
// (updating the running ones) or with the running statistics in
// evaluation mode. It panics with a *tensor.ShapeError when x's shape does
// not fit the layer, or in training mode when a channel has a single value.
func (l *BatchNorm) Forward(x *tensor.Tensor) *tensor.Tensor {
	shape := x.Shape()
	ok := len(shape) >= 2 && shape[1] == l.NumFeatures
	if l.Spatial == 1 {
		ok = ok && len(shape) <= 3
	} else {
		ok = ok && len(shape) == 4
	}
	if !ok {
		want := fmt.Sprintf("[N, %d] or [N, %d, L]", l.NumFeatures, l.NumFeatures)
		if l.Spatial == 2 {
			want = fmt.Sprintf("[N, %d, H, W]", l.NumFeatures)
		}
		panic(&tensor.ShapeError{Op: "nn." + l.name(), Shapes: [][]int{shape},
			Msg: fmt.Sprintf("input %v: want %s", shape, want)})
	}
	if l.Training && x.Numel()/l.NumFeatures <= 1 {
		panic(&tensor.ShapeError{Op: "nn." + l.name(), Shapes: [][]int{shape},
			Msg: fmt.Sprintf("input %v: expected more than 1 value per channel when training", shape),
			Fix: "use a larger batch, or call nn.SetTraining(model, false) to evaluate"})
	}
	y := tensor.BatchNorm(x, l.RunningMean, l.RunningVar, l.Weight, l.Bias, l.Training, l.Momentum, l.Eps)
	if l.Training {
		tensor.CopyInto(l.NumBatchesTracked, l.NumBatchesTracked.AddScalar(1))
	}
	return y
}

// Parameters returns Weight and Bias (nil with NoAffine). The running
// statistics are buffers: nn.To, Save and Load reach them through the
// parameters (see nn.Forwarder and nn.SetTraining).
func (l *BatchNorm) Parameters() []*tensor.Tensor { return own(l, nonNil(l.Weight, l.Bias)) }

// state has PyTorch's names: "weight", "bias", "running_mean",
// "running_var", "num_batches_tracked".
func (l *BatchNorm) state() []named {
	return namedNonNil("weight", l.Weight, "bias", l.Bias, "running_mean", l.RunningMean,
		"running_var", l.RunningVar, "num_batches_tracked", l.NumBatchesTracked)
}

func (l *BatchNorm) setMode(training bool) { l.Training = training }

// SetTraining sets the mode: batch statistics in training, running
// statistics in evaluation.
func (l *BatchNorm) SetTraining(training bool) { l.Training = training }

// Train puts the layer in training mode.
func (l *BatchNorm) Train() { l.Training = true }

// Eval puts the layer in evaluation mode.
func (l *BatchNorm) Eval() { l.Training = false }

// To moves the parameters and running statistics to dev in place (see
// the function To).
func (l *BatchNorm) To(dev tensor.Device) { To(l, dev) }

// String returns PyTorch's repr:
// BatchNorm2d(32, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True).
func (l *BatchNorm) String() string {
	return fmt.Sprintf("%s(%d, eps=%s, momentum=%s, affine=%s, track_running_stats=True)",
		l.name(), l.NumFeatures, pyFloat(l.Eps), pyFloat(l.Momentum), pyBool(l.Weight != nil))
}

// LayerNorm normalises over the last len(NormalizedShape) dims of its
// input, then scales by Weight and shifts by Bias, as torch.nn.LayerNorm:
//
//	y = (x - mean) / √(var + Eps) · Weight + Bias   (var biased)
type LayerNorm struct {
	NormalizedShape []int
	Eps             float64        // 1e-5; may be set after NewLayerNorm
	Weight, Bias    *tensor.Tensor // NormalizedShape; set both to nil for no affine
}

// NewLayerNorm returns a LayerNorm over trailing dims of the given sizes,
// with Weight 1, Bias 0 and Eps 1e-5. It panics when no size is given or
// one is not positive.
//
//	ln := nn.NewLayerNorm(512)     // normalise the last dim of [..., 512]
//	ln2 := nn.NewLayerNorm(16, 16) // the last two of [..., 16, 16]
func NewLayerNorm(normalizedShape ...int) *LayerNorm {
	if len(normalizedShape) == 0 {
		panic(fmt.Errorf("nn: NewLayerNorm: give the sizes of the trailing dims to normalise, e.g. NewLayerNorm(512)"))
	}
	for _, s := range normalizedShape {
		if s <= 0 {
			panic(fmt.Errorf("nn: NewLayerNorm(%v): sizes must be positive", normalizedShape))
		}
	}
	shape := append([]int(nil), normalizedShape...)
	return &LayerNorm{NormalizedShape: shape, Eps: 1e-5,
		Weight: param(tensor.Ones(shape...)), Bias: param(tensor.Zeros(shape...))}
}

// Forward normalises x's trailing dims. It panics with a
// *tensor.ShapeError when they are not NormalizedShape.
func (l *LayerNorm) Forward(x *tensor.Tensor) *tensor.Tensor {
	shape := x.Shape()
	k := len(l.NormalizedShape)
	ok := len(shape) >= k
	for i := 0; ok && i < k; i++ {
		ok = shape[len(shape)-k+i] == l.NormalizedShape[i]
	}
	if !ok {
		panic(&tensor.ShapeError{Op: "nn.LayerNorm", Shapes: [][]int{shape, l.NormalizedShape},
			Msg: fmt.Sprintf("input %v: the trailing dims must be %v", shape, l.NormalizedShape)})
	}
	return tensor.LayerNorm(x, l.NormalizedShape, l.Weight, l.Bias, l.Eps)
}

// Parameters returns Weight and Bias.
func (l *LayerNorm) Parameters() []*tensor.Tensor { return own(l, nonNil(l.Weight, l.Bias)) }

func (l *LayerNorm) state() []named { return namedNonNil("weight", l.Weight, "bias", l.Bias) }
func (l *LayerNorm) setMode(bool)   {}

// To moves the parameters to dev in place (see the function To).
func (l *LayerNorm) To(dev tensor.Device) { To(l, dev) }

// String returns PyTorch's repr: LayerNorm((512,), eps=1e-05, elementwise_affine=True).
func (l *LayerNorm) String() string {
	parts := make([]string, len(l.NormalizedShape))
	for i, s := range l.NormalizedShape {
		parts[i] = strconv.Itoa(s)
	}
	tuple := "(" + strings.Join(parts, ", ") + ")"
	if len(parts) == 1 {
		tuple = "(" + parts[0] + ",)"
	}
	return fmt.Sprintf("LayerNorm(%s, eps=%s, elementwise_affine=%s)", tuple, pyFloat(l.Eps), pyBool(l.Weight != nil))
}

// pyFloat formats v as Python's repr does: 0.1, 1e-05, 1.0.
func pyFloat(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eIN") {
		s += ".0"
	}
	return s
}
