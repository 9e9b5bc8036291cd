package nn

import (
	"fmt"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// MaxPool2d takes the maximum over each kernel window of x [N, C, H, W]
// (or [C, H, W]), as torch.nn.MaxPool2d: padding counts as -inf, the
// output size rounds down, and the gradient goes to the first maximum.
type MaxPool2d struct {
	Kernel, Stride, Padding [2]int
}

// NewMaxPool2d returns a MaxPool2d with a square kernel; the stride
// defaults to the kernel size. Options: Stride, Padding (at most half the
// kernel) and KernelHW.
//
//	pool := nn.NewMaxPool2d(2) // [N 32 28 28] -> [N 32 14 14]
func NewMaxPool2d(kernel int, opts ...Option) *MaxPool2d {
	k, s, p := poolConfig("NewMaxPool2d", kernel, opts)
	return &MaxPool2d{Kernel: k, Stride: s, Padding: p}
}

// Forward returns the windowed maxima.
func (l *MaxPool2d) Forward(x *tensor.Tensor) *tensor.Tensor {
	return unbatched2d("nn.MaxPool2d", x, func(x *tensor.Tensor) *tensor.Tensor {
		return x.MaxPool2d(l.Kernel, l.Stride, l.Padding)
	})
}

// Parameters returns nil: MaxPool2d has none.
func (l *MaxPool2d) Parameters() []*tensor.Tensor { return nil }

// String returns PyTorch's repr:
// MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False).
func (l *MaxPool2d) String() string {
	return fmt.Sprintf("MaxPool2d(kernel_size=%s, stride=%s, padding=%s, dilation=1, ceil_mode=False)",
		pyIntOrPair(l.Kernel), pyIntOrPair(l.Stride), pyIntOrPair(l.Padding))
}

// AvgPool2d averages each kernel window of x [N, C, H, W] (or [C, H, W]),
// as torch.nn.AvgPool2d with its defaults: zero padding counts in the
// average (count_include_pad=True) and the output size rounds down.
type AvgPool2d struct {
	Kernel, Stride, Padding [2]int
}

// NewAvgPool2d returns an AvgPool2d with a square kernel; the stride
// defaults to the kernel size. Options: Stride, Padding (at most half the
// kernel) and KernelHW.
func NewAvgPool2d(kernel int, opts ...Option) *AvgPool2d {
	k, s, p := poolConfig("NewAvgPool2d", kernel, opts)
	return &AvgPool2d{Kernel: k, Stride: s, Padding: p}
}

// Forward returns the windowed averages.
func (l *AvgPool2d) Forward(x *tensor.Tensor) *tensor.Tensor {
	return unbatched2d("nn.AvgPool2d", x, func(x *tensor.Tensor) *tensor.Tensor {
		return x.AvgPool2d(l.Kernel, l.Stride, l.Padding)
	})
}

// Parameters returns nil: AvgPool2d has none.
func (l *AvgPool2d) Parameters() []*tensor.Tensor { return nil }

// String returns PyTorch's repr: AvgPool2d(kernel_size=2, stride=2, padding=0).
func (l *AvgPool2d) String() string {
	return fmt.Sprintf("AvgPool2d(kernel_size=%s, stride=%s, padding=%s)",
		pyIntOrPair(l.Kernel), pyIntOrPair(l.Stride), pyIntOrPair(l.Padding))
}

func poolConfig(op string, kernel int, opts []Option) (k, s, p [2]int) {
	c := newConfig(op, optStride|optPadding|optKernel, opts)
	k = [2]int{kernel, kernel}
	if c.set&optKernel != 0 {
		k = c.kernel
	}
	s = k
	if c.set&optStride != 0 {
		s = c.stride
	}
	p = c.padding
	if k[0] <= 0 || k[1] <= 0 || s[0] <= 0 || s[1] <= 0 || p[0] < 0 || p[1] < 0 || 2*p[0] > k[0] || 2*p[1] > k[1] {
		panic(fmt.Errorf("nn: %s: kernel %v, stride %v, padding %v: kernel and stride must be positive and padding between 0 and half the kernel",
			op, k, s, p))
	}
	return k, s, p
}

// unbatched2d applies f to a 4-D x, or to a 3-D x as a batch of one.
func unbatched2d(op string, x *tensor.Tensor, f func(*tensor.Tensor) *tensor.Tensor) *tensor.Tensor {
	switch x.Dim() {
	case 4:
		return f(x)
	case 3:
		return f(x.Unsqueeze(0)).Squeeze(0)
	}
	panic(&tensor.ShapeError{Op: op, Shapes: [][]int{x.Shape()},
		Msg: fmt.Sprintf("input %v: want [N, C, H, W] or [C, H, W]", x.Shape())})
}

// Flatten merges the dims from StartDim on into one, as torch.nn.Flatten
// (start_dim=1, end_dim=-1): [N, 1, 28, 28] gives [N, 784].
type Flatten struct {
	StartDim int
}

// NewFlatten returns a Flatten that keeps the batch dim (StartDim 1).
func NewFlatten() *Flatten { return &Flatten{StartDim: 1} }

// Forward returns x flattened from StartDim, a view when possible.
func (l *Flatten) Forward(x *tensor.Tensor) *tensor.Tensor { return x.Flatten(l.StartDim) }

// Parameters returns nil: Flatten has none.
func (l *Flatten) Parameters() []*tensor.Tensor { return nil }

// String returns PyTorch's repr: Flatten(start_dim=1, end_dim=-1).
func (l *Flatten) String() string {
	return fmt.Sprintf("Flatten(start_dim=%d, end_dim=-1)", l.StartDim)
}
