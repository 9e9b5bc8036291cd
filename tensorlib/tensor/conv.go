package tensor

import (
	"fmt"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// checkWindow validates the arguments of a 2-D sliding-window op on x and
// returns the output height and width.
func checkWindow(op string, x *Tensor, kernel, stride, padding, dilation [2]int) (int, int) {
	if x.Dim() != 4 {
		panic(shapeErr(op, "pass a batch [N, C, H, W]; add a batch dim to one image with x.Unsqueeze(0)", [][]int{x.Shape()},
			"input must be 4-D [N, C, H, W], got shape %v", x.layout.Shape))
	}
	for i := 0; i < 2; i++ {
		if kernel[i] < 1 || stride[i] < 1 || dilation[i] < 1 || padding[i] < 0 {
			panic(valueErr(op, "kernel, stride and dilation must be >= 1 and padding >= 0",
				"invalid window: kernel %v, stride %v, padding %v, dilation %v", kernel, stride, padding, dilation))
		}
	}
	h, w := x.layout.Shape[2], x.layout.Shape[3]
	oh := backend.OutputSize(h, kernel[0], stride[0], padding[0], dilation[0])
	ow := backend.OutputSize(w, kernel[1], stride[1], padding[1], dilation[1])
	if oh < 1 || ow < 1 || h+2*padding[0] < dilation[0]*(kernel[0]-1)+1 || w+2*padding[1] < dilation[1]*(kernel[1]-1)+1 {
		panic(shapeErr(op, "use a smaller kernel or more padding", [][]int{x.Shape()},
			"kernel %v (dilation %v) does not fit the %dx%d input padded by %v", kernel, dilation, h, w, padding))
	}
	if x.DType() == Bool {
		panic(dtypeErr(op, "convert first with x.AsType(tensor.Float32)", []DType{Bool}, "Bool input is not supported"))
	}
	return oh, ow
}

// Unfold2d extracts the sliding windows of x [N, C, H, W] as columns, like
// torch.nn.functional.unfold (im2col): the result is [N, C*KH*KW, OH*OW],
// where OH = (H + 2*PH - DH*(KH-1) - 1)/SH + 1 and likewise OW; row
// c*KH*KW + i*KW + j holds input channel c at kernel offset (i, j), and
// padding reads zeros. kernel, stride, padding and dilation are (H, W)
// pairs. It panics with a *ShapeError when x is not 4-D or the window does
// not fit.
//
//	cols := x.Unfold2d([2]int{3, 3}, [2]int{1, 1}, [2]int{1, 1}, [2]int{1, 1})
func (x *Tensor) Unfold2d(kernel, stride, padding, dilation [2]int) *Tensor {
	oh, ow := checkWindow("Unfold2d", x, kernel, stride, padding, dilation)
	n, c := x.layout.Shape[0], x.layout.Shape[1]
	s := x.backend.Im2Col(x.storage, x.layout, kernel, stride, padding, dilation)
	out := newTensor(x.backend, s, []int{n, c * kernel[0] * kernel[1], oh * ow})
	if !tracked(x) {
		return out
	}
	return record(out, "Unfold2d", func(g *Tensor) []*Tensor {
		z := g.backend.Col2Im(g.storage, g.layout, x.layout.Shape, kernel, stride, padding, dilation)
		return []*Tensor{newTensor(g.backend, z, x.Shape())}
	}, x)
}

// Conv2d returns the 2-D convolution (cross-correlation, as
// torch.nn.functional.conv2d) of x [N, C, H, W] with the filters w
// [F, C, KH, KW], plus the bias b [F] (nil for none): the result is
// [N, F, OH, OW], sizes as in Unfold2d. stride, padding and dilation are
// (H, W) pairs. It is computed as Unfold2d followed by one matrix product
// per image, and gradients flow to x, w and b. It panics with a
// *ShapeError when the shapes do not fit.
//
//	y := tensor.Conv2d(x, w, b, [2]int{1, 1}, [2]int{1, 1}, [2]int{1, 1}) // 3x3 "same" convolution
func Conv2d(x, w, b *Tensor, stride, padding, dilation [2]int) *Tensor {
	x, w, b = AutocastLower(x), AutocastLower(w), AutocastLower(b)
	if w.Dim() != 4 {
		panic(shapeErr("Conv2d", "filters are [F, C, KH, KW]", [][]int{x.Shape(), w.Shape()},
			"weight must be 4-D, got shape %v", w.layout.Shape))
	}
	f, kh, kw := w.layout.Shape[0], w.layout.Shape[2], w.layout.Shape[3]
	oh, ow := checkWindow("Conv2d", x, [2]int{kh, kw}, stride, padding, dilation)
	if c := x.layout.Shape[1]; w.layout.Shape[1] != c {
		panic(shapeErr("Conv2d", fmt.Sprintf("the weight's dim 1 must equal the input's channels (%d)", c), [][]int{x.Shape(), w.Shape()},
			"input %v has %d channels, weight %v expects %d", x.layout.Shape, c, w.layout.Shape, w.layout.Shape[1]))
	}
	if b != nil && (b.Dim() != 1 || b.layout.Shape[0] != f) {
		panic(shapeErr("Conv2d", fmt.Sprintf("the bias must be [%d], one per filter", f), [][]int{w.Shape(), b.Shape()},
			"bias of shape %v for %d filters", b.layout.Shape, f))
	}
	if b != nil {
		sameDevice("Conv2d", x, w, b)
	} else {
		sameDevice("Conv2d", x, w)
	}
	if cb, ok := x.backend.Backend.(backend.Conv); ok && isFloat(x, w, b) {
		if !fused("Conv2d", x, w, b) {
			// In float32, rounded once, as PyTorch's CPU convolves 16-bit floats.
			return inFloat32(PromoteTypes(x.DType(), w.DType()), func(xs []*Tensor) *Tensor {
				return conv2d(cb, xs[0], xs[1], xs[2], stride, padding, dilation, oh, ow)
			}, x, w, b)
		}
		return conv2d(cb, x, w, b, stride, padding, dilation, oh, ow)
	}
	cols := x.Unfold2d([2]int{kh, kw}, stride, padding, dilation)
	out := w.Reshape(f, -1).MatMul(cols).Reshape(x.layout.Shape[0], f, oh, ow)
	if b != nil {
		out = out.Add(b.Reshape(f, 1, 1))
	}
	return out
}

// conv2d is Conv2d on a backend that computes it directly: one recorded
// op whose backward asks the backend for the gradients.
func conv2d(cb backend.Conv, x, w, b *Tensor, stride, padding, dilation [2]int, oh, ow int) *Tensor {
	dt := PromoteTypes(x.DType(), w.DType())
	if b != nil {
		dt = PromoteTypes(dt, b.DType())
	}
	inputs := []*Tensor{x.AsType(dt), w.AsType(dt)}
	var bs backend.Storage
	var bl backend.Layout
	if b != nil {
		inputs = append(inputs, b.AsType(dt))
		bs, bl = inputs[2].storage, inputs[2].layout
	}
	xs, ws := inputs[0], inputs[1]
	s := cb.Conv2d(xs.storage, xs.layout, ws.storage, ws.layout, bs, bl, stride, padding, dilation)
	out := newTensor(x.backend, s, []int{x.layout.Shape[0], w.layout.Shape[0], oh, ow})
	if !tracked(inputs...) {
		return out
	}
	return record(out, "Conv2d", func(g *Tensor) []*Tensor {
		var need [3]bool
		for i, in := range inputs {
			need[i] = needGrad(in)
		}
		gx, gw, gb := cb.Conv2dBackward(g.storage, g.layout, xs.storage, xs.layout, ws.storage, ws.layout, stride, padding, dilation, need)
		return gradTensors(g, inputs, gx, gw, gb)
	}, inputs...)
}

// isFloat reports whether every tensor of xs that is not nil has a float
// dtype.
func isFloat(xs ...*Tensor) bool {
	for _, x := range xs {
		if x != nil && !x.DType().IsFloat() {
			return false
		}
	}
	return true
}

// gradTensors wraps the gradient storages that a backend computed for the
// inputs of an op, shaped as the inputs; a nil storage gives a nil tensor.
func gradTensors(g *Tensor, inputs []*Tensor, grads ...backend.Storage) []*Tensor {
	out := make([]*Tensor, len(inputs))
	for i, in := range inputs {
		if grads[i] != nil {
			out[i] = newTensor(g.backend, grads[i], in.Shape())
		}
	}
	return out
}
