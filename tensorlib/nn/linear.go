package nn

import (
	"fmt"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// Linear applies y = x Wᵀ + b to the last dim of its input, as
// torch.nn.Linear: x [..., InFeatures] gives y [..., OutFeatures].
type Linear struct {
	InFeatures, OutFeatures int
	Weight                  *tensor.Tensor // [OutFeatures, InFeatures]
	Bias                    *tensor.Tensor // [OutFeatures], nil with NoBias
}

// NewLinear returns a Linear layer from in to out features, with PyTorch's
// initialisation: Weight and Bias drawn from U(-1/√in, 1/√in). The option
// NoBias() leaves out the bias. It panics when in or out is not positive.
//
//	fc := nn.NewLinear(784, 256)
//	y := fc.Forward(x) // [128 784] -> [128 256]
func NewLinear(in, out int, opts ...Option) *Linear {
	c := newConfig("NewLinear", optNoBias, opts)
	if in <= 0 || out <= 0 {
		panic(fmt.Errorf("nn: NewLinear(%d, %d): feature counts must be positive", in, out))
	}
	w, b := defaultWeightBias([]int{out, in}, in, !c.noBias)
	return &Linear{InFeatures: in, OutFeatures: out, Weight: w, Bias: b}
}

// Forward returns x Wᵀ + b. It panics with a *tensor.ShapeError when x's
// last dim is not InFeatures.
func (l *Linear) Forward(x *tensor.Tensor) *tensor.Tensor {
	shape := x.Shape()
	if len(shape) == 0 || shape[len(shape)-1] != l.InFeatures {
		panic(&tensor.ShapeError{Op: "nn.Linear", Shapes: [][]int{shape},
			Msg: fmt.Sprintf("input %v: last dim must be in_features=%d", shape, l.InFeatures),
			Fix: "flatten the input first (nn.NewFlatten()) or fix in_features"})
	}
	return tensor.Linear(x, l.Weight, l.Bias)
}

// Parameters returns Weight and, when present, Bias.
func (l *Linear) Parameters() []*tensor.Tensor { return own(l, nonNil(l.Weight, l.Bias)) }

func (l *Linear) state() []named { return namedNonNil("weight", l.Weight, "bias", l.Bias) }
func (l *Linear) setMode(bool)   {}

// To moves the parameters to dev in place (see the function To).
func (l *Linear) To(dev tensor.Device) { To(l, dev) }

// String returns PyTorch's repr: Linear(in_features=784, out_features=256, bias=True).
func (l *Linear) String() string {
	return fmt.Sprintf("Linear(in_features=%d, out_features=%d, bias=%s)", l.InFeatures, l.OutFeatures, pyBool(l.Bias != nil))
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}
