package nn

import (
	"fmt"
	"strings"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// Conv2d is a 2-D convolution (cross-correlation, as torch.nn.Conv2d with
// groups=1): x [N, InChannels, H, W] gives [N, OutChannels, OH, OW] with
// OH = (H + 2·padding − dilation·(kernel−1) − 1)/stride + 1 (floor), and
// likewise OW. A 3-D input [InChannels, H, W] is one unbatched image.
type Conv2d struct {
	InChannels, OutChannels int
	Kernel, Stride          [2]int
	Padding, Dilation       [2]int
	Weight                  *tensor.Tensor // [OutChannels, InChannels, Kernel[0], Kernel[1]]
	Bias                    *tensor.Tensor // [OutChannels], nil with NoBias
}

// NewConv2d returns a Conv2d from inC to outC channels with a square
// kernel; options: Stride, Padding, Dilation (and their HW forms),
// KernelHW, NoBias. Weight and Bias are drawn from U(±1/√fan_in) with
// fan_in = inC·kh·kw, as in PyTorch.
//
//	conv := nn.NewConv2d(1, 32, 3, nn.Padding(1)) // [N 1 28 28] -> [N 32 28 28]
func NewConv2d(inC, outC, kernel int, opts ...Option) *Conv2d {
	c := newConfig("NewConv2d", optStride|optPadding|optDilation|optKernel|optNoBias, opts)
	k := [2]int{kernel, kernel}
	if c.set&optKernel != 0 {
		k = c.kernel
	}
	if inC <= 0 || outC <= 0 || k[0] <= 0 || k[1] <= 0 || c.stride[0] <= 0 || c.stride[1] <= 0 ||
		c.dilation[0] <= 0 || c.dilation[1] <= 0 || c.padding[0] < 0 || c.padding[1] < 0 {
		panic(fmt.Errorf("nn: NewConv2d(%d, %d, kernel %v, stride %v, padding %v, dilation %v): channels, kernel, stride and dilation must be positive and padding >= 0",
			inC, outC, k, c.stride, c.padding, c.dilation))
	}
	w, b := defaultWeightBias([]int{outC, inC, k[0], k[1]}, inC*k[0]*k[1], !c.noBias)
	return &Conv2d{InChannels: inC, OutChannels: outC, Kernel: k, Stride: c.stride,
		Padding: c.padding, Dilation: c.dilation, Weight: w, Bias: b}
}

// Forward convolves x with Weight and adds Bias. It panics with a
// *tensor.ShapeError when x is not [N, InChannels, H, W] (or
// [InChannels, H, W]) or is smaller than the dilated kernel.
func (l *Conv2d) Forward(x *tensor.Tensor) *tensor.Tensor {
	shape := x.Shape()
	unbatched := len(shape) == 3
	if !(len(shape) == 4 || unbatched) || shape[len(shape)-3] != l.InChannels {
		panic(&tensor.ShapeError{Op: "nn.Conv2d", Shapes: [][]int{shape},
			Msg: fmt.Sprintf("input %v: want [N, %d, H, W]", shape, l.InChannels),
			Fix: "reshape the input to [batch, channels, height, width]"})
	}
	if unbatched {
		x = x.Unsqueeze(0)
	}
	y := tensor.Conv2d(x, l.Weight, l.Bias, l.Stride, l.Padding, l.Dilation)
	if unbatched {
		y = y.Squeeze(0)
	}
	return y
}

// Parameters returns Weight and, when present, Bias.
func (l *Conv2d) Parameters() []*tensor.Tensor { return own(l, nonNil(l.Weight, l.Bias)) }

func (l *Conv2d) state() []named { return namedNonNil("weight", l.Weight, "bias", l.Bias) }
func (l *Conv2d) setMode(bool)   {}

// To moves the parameters to dev in place (see the function To).
func (l *Conv2d) To(dev tensor.Device) { To(l, dev) }

// String returns PyTorch's repr:
// Conv2d(1, 32, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1)).
func (l *Conv2d) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Conv2d(%d, %d, kernel_size=%s, stride=%s", l.InChannels, l.OutChannels, pyPair(l.Kernel), pyPair(l.Stride))
	if l.Padding != [2]int{} {
		fmt.Fprintf(&b, ", padding=%s", pyPair(l.Padding))
	}
	if l.Dilation != [2]int{1, 1} {
		fmt.Fprintf(&b, ", dilation=%s", pyPair(l.Dilation))
	}
	if l.Bias == nil {
		b.WriteString(", bias=False")
	}
	b.WriteString(")")
	return b.String()
}

// pyPair formats a pair as a Python tuple: (3, 3).
func pyPair(p [2]int) string { return fmt.Sprintf("(%d, %d)", p[0], p[1]) }

// pyIntOrPair formats a pair as PyTorch prints a pooling argument: an int
// when both are equal, else a tuple.
func pyIntOrPair(p [2]int) string {
	if p[0] == p[1] {
		return fmt.Sprint(p[0])
	}
	return pyPair(p)
}
