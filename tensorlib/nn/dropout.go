package nn

import (
	"fmt"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// Dropout zeroes each element with probability P during training and
// scales the others by 1/(1-P), as torch.nn.Dropout; in evaluation mode it
// is the identity. Draws come from the generator tensor.ManualSeed seeds.
type Dropout struct {
	P        float64
	Training bool // true until SetTraining(false) or Eval
}

// NewDropout returns a Dropout layer in training mode. It panics when p is
// not in [0, 1].
//
//	drop := nn.NewDropout(0.5)
func NewDropout(p float64) *Dropout {
	if !(p >= 0 && p <= 1) {
		panic(fmt.Errorf("nn: NewDropout(%v): the probability must be in [0, 1]", p))
	}
	return &Dropout{P: p, Training: true}
}

// Forward applies dropout in training mode and returns x unchanged in
// evaluation mode.
func (l *Dropout) Forward(x *tensor.Tensor) *tensor.Tensor {
	switch {
	case !l.Training || l.P == 0:
		return x
	case l.P == 1:
		return x.MulScalar(0)
	}
	return tensor.Dropout(x, l.P)
}

// Parameters returns nil.
func (l *Dropout) Parameters() []*tensor.Tensor { return nil }

func (l *Dropout) state() []named        { return nil }
func (l *Dropout) setMode(training bool) { l.Training = training }

// SetTraining sets the mode: dropout in training, identity in evaluation.
func (l *Dropout) SetTraining(training bool) { l.Training = training }

// Train puts the layer in training mode.
func (l *Dropout) Train() { l.Training = true }

// Eval puts the layer in evaluation mode.
func (l *Dropout) Eval() { l.Training = false }

// String returns PyTorch's repr: Dropout(p=0.5, inplace=False).
func (l *Dropout) String() string { return fmt.Sprintf("Dropout(p=%s, inplace=False)", pyFloat(l.P)) }
