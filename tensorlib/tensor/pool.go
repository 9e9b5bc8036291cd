package tensor

import "github.com/gotensor/gotensor/tensorlib/backend"

// MaxPool2d returns the maxima of x [N, C, H, W] over kernel-sized windows
// moved by stride, with padding that never wins (torch.nn.MaxPool2d with
// ceil_mode false): the result is [N, C, OH, OW], sizes as in Unfold2d. A
// zero stride means stride = kernel, PyTorch's default. The gradient goes
// to the first maximum of each window. It panics with a *ShapeError when x
// is not 4-D, the window does not fit, or padding exceeds half the kernel.
//
//	y := x.MaxPool2d([2]int{2, 2}, [2]int{2, 2}, [2]int{0, 0}) // halve H and W
func (x *Tensor) MaxPool2d(kernel, stride, padding [2]int) *Tensor {
	stride = defaultStride(stride, kernel)
	oh, ow := checkWindow("MaxPool2d", x, kernel, stride, padding, [2]int{1, 1})
	checkPoolPad("MaxPool2d", x, kernel, padding)
	n, c, h, w := x.layout.Shape[0], x.layout.Shape[1], x.layout.Shape[2], x.layout.Shape[3]
	s, idx := x.backend.MaxPool2d(x.storage, x.layout, kernel, stride, padding)
	out := newTensor(x.backend, s, []int{n, c, oh, ow})
	if !tracked(x) {
		return out
	}
	return record(out, "MaxPool2d", func(g *Tensor) []*Tensor {
		if pb, ok := g.backend.Backend.(backend.Pool); ok && fused("Pool", g) {
			s := pb.MaxPool2dBackward(g.storage, g.layout, idx, x.Shape(), kernel, stride, padding)
			return []*Tensor{newTensor(g.backend, s, x.Shape())}
		}
		z := g.backend.Alloc(g.DType(), x.Numel())
		flat := []int{n, c, oh * ow}
		g3 := g.Reshape(flat...)
		g.backend.ScatterAdd(z, backend.Contiguous([]int{n, c, h * w}), 2, idx, backend.Contiguous(flat), g3.storage, g3.layout)
		return []*Tensor{newTensor(g.backend, z, x.Shape())}
	}, x)
}

// AvgPool2d returns the means of x [N, C, H, W] over kernel-sized windows
// moved by stride, counting the zero padding (torch.nn.AvgPool2d's
// defaults): the result is [N, C, OH, OW]. A zero stride means stride =
// kernel. It panics as MaxPool2d does.
func (x *Tensor) AvgPool2d(kernel, stride, padding [2]int) *Tensor {
	stride = defaultStride(stride, kernel)
	oh, ow := checkWindow("AvgPool2d", x, kernel, stride, padding, [2]int{1, 1})
	checkPoolPad("AvgPool2d", x, kernel, padding)
	n, c, h, w := x.layout.Shape[0], x.layout.Shape[1], x.layout.Shape[2], x.layout.Shape[3]
	cols := x.Reshape(n*c, 1, h, w).Unfold2d(kernel, stride, padding, [2]int{1, 1})
	return cols.Mean(1).Reshape(n, c, oh, ow)
}

func defaultStride(stride, kernel [2]int) [2]int {
	if stride == [2]int{} {
		return kernel
	}
	return stride
}

func checkPoolPad(op string, x *Tensor, kernel, padding [2]int) {
	if 2*padding[0] > kernel[0] || 2*padding[1] > kernel[1] {
		panic(valueErr(op, "use padding <= kernel/2",
			"padding %v is more than half the kernel %v", padding, kernel))
	}
}
