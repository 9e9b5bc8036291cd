package nn

import (
	"fmt"
	"math"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// The initialisers below overwrite a parameter's values in place, outside
// the autograd graph, as torch.nn.init does; they draw from the generator
// that tensor.ManualSeed seeds, and return t.
//
//	tensor.ManualSeed(0)
//	fc := nn.NewLinear(784, 256)
//	nn.XavierUniform(fc.Weight, 1)
//	nn.Constant(fc.Bias, 0)

// CalculateGain returns PyTorch's recommended gain for a nonlinearity:
// 1 for "linear", "conv1d", "conv2d", "conv3d", "conv_transpose2d" and
// "sigmoid", 5/3 for "tanh", √2 for "relu", √(2/(1+a²)) for "leaky_relu"
// with negative slope a, 3/4 for "selu". It panics on any other name.
func CalculateGain(nonlinearity string, a float64) float64 {
	switch nonlinearity {
	case "linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "sigmoid":
		return 1
	case "tanh":
		return 5.0 / 3
	case "relu":
		return math.Sqrt2
	case "leaky_relu":
		return math.Sqrt(2 / (1 + a*a))
	case "selu":
		return 0.75
	}
	panic(fmt.Errorf("nn: CalculateGain: unknown nonlinearity %q; use linear, sigmoid, tanh, relu, leaky_relu or selu", nonlinearity))
}

// fans returns PyTorch's fan_in and fan_out of a weight of the given
// shape: dims 1 and 0 times the product of the remaining (receptive
// field) dims.
func fans(op string, t *tensor.Tensor) (in, out int) {
	shape := t.Shape()
	if len(shape) < 2 {
		panic(&tensor.ShapeError{Op: op, Shapes: [][]int{shape},
			Msg: fmt.Sprintf("fan in and fan out need a tensor of at least 2 dims, got %v", shape),
			Fix: "use Uniform or Normal for vectors"})
	}
	rf := 1
	for _, s := range shape[2:] {
		rf *= s
	}
	return shape[1] * rf, shape[0] * rf
}

func fanFor(op string, t *tensor.Tensor, mode string) int {
	in, out := fans(op, t)
	switch mode {
	case "fan_in":
		return in
	case "fan_out":
		return out
	}
	panic(fmt.Errorf("nn: %s: mode %q must be \"fan_in\" or \"fan_out\"", op, mode))
}

// overwrite copies src's values into t in place, outside autograd.
func overwrite(t, src *tensor.Tensor) *tensor.Tensor {
	tensor.NoGrad(func() {
		tensor.CopyInto(t, src.AsType(t.DType()).To(t.Device()))
	})
	return t
}

// uniform returns a Float32 CPU tensor of the shape drawn from U(lo, hi).
func uniform(lo, hi float64, shape ...int) *tensor.Tensor {
	return tensor.Rand(shape...).MulScalar(hi - lo).AddScalar(lo)
}

// normal returns a Float32 CPU tensor of the shape drawn from N(mean, std²).
func normal(mean, std float64, shape ...int) *tensor.Tensor {
	return tensor.Randn(shape...).MulScalar(std).AddScalar(mean)
}

// Uniform fills t with values drawn from U(lo, hi) and returns t.
func Uniform(t *tensor.Tensor, lo, hi float64) *tensor.Tensor {
	return overwrite(t, uniform(lo, hi, t.Shape()...))
}

// Normal fills t with values drawn from N(mean, std²) and returns t.
func Normal(t *tensor.Tensor, mean, std float64) *tensor.Tensor {
	return overwrite(t, normal(mean, std, t.Shape()...))
}

// Constant fills t with v and returns t.
func Constant(t *tensor.Tensor, v float64) *tensor.Tensor {
	return overwrite(t, tensor.Full(v, t.Shape()...))
}

// XavierUniform fills t (at least 2-D) from U(-a, a) with
// a = gain·√(6/(fan_in+fan_out)) (Glorot and Bengio, 2010) and returns t.
// It panics with a *tensor.ShapeError when t has fewer than 2 dims.
func XavierUniform(t *tensor.Tensor, gain float64) *tensor.Tensor {
	in, out := fans("nn.XavierUniform", t)
	a := gain * math.Sqrt(6/float64(in+out))
	return Uniform(t, -a, a)
}

// XavierNormal fills t (at least 2-D) from N(0, std²) with
// std = gain·√(2/(fan_in+fan_out)) and returns t.
func XavierNormal(t *tensor.Tensor, gain float64) *tensor.Tensor {
	in, out := fans("nn.XavierNormal", t)
	return Normal(t, 0, gain*math.Sqrt(2/float64(in+out)))
}

// KaimingUniform fills t (at least 2-D) from U(-b, b) with
// b = gain·√(3/fan) (He et al., 2015), where gain is
// CalculateGain(nonlinearity, a) and fan is "fan_in" or "fan_out" as mode
// says, and returns t. PyTorch's defaults are a=0, "fan_in",
// "leaky_relu"; Linear and Conv2d use a=√5, which gives b = 1/√fan_in.
//
//	nn.KaimingUniform(conv.Weight, 0, "fan_in", "relu")
func KaimingUniform(t *tensor.Tensor, a float64, mode, nonlinearity string) *tensor.Tensor {
	fan := fanFor("nn.KaimingUniform", t, mode)
	b := CalculateGain(nonlinearity, a) * math.Sqrt(3/float64(fan))
	return Uniform(t, -b, b)
}

// KaimingNormal fills t (at least 2-D) from N(0, std²) with
// std = gain/√fan, gain and fan as in KaimingUniform, and returns t.
func KaimingNormal(t *tensor.Tensor, a float64, mode, nonlinearity string) *tensor.Tensor {
	fan := fanFor("nn.KaimingNormal", t, mode)
	return Normal(t, 0, CalculateGain(nonlinearity, a)/math.Sqrt(float64(fan)))
}

// param marks a freshly made tensor as a trainable leaf.
func param(t *tensor.Tensor) *tensor.Tensor { return t.SetRequiresGrad(true) }

// defaultWeightBias makes PyTorch's default Linear and Conv2d parameters:
// weight from kaiming_uniform(a=√5), i.e. U(±1/√fan_in), and bias from
// U(±1/√fan_in), in that order of draws.
func defaultWeightBias(weightShape []int, fanIn int, bias bool) (w, b *tensor.Tensor) {
	bound := 0.0
	if fanIn > 0 {
		bound = 1 / math.Sqrt(float64(fanIn))
	}
	w = param(uniform(-bound, bound, weightShape...))
	if bias {
		b = param(uniform(-bound, bound, weightShape[0]))
	}
	return w, b
}
