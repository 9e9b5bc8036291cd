package tensor

import (
	"slices"

	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/internal/access"
)

// This file holds the in-place operations: CopyInto, which users may call
// (PyTorch's copy_), and those that package optim and nn reach through
// tensorlib/internal/access (fused optimizer steps, SetData). They write
// into their arguments' storage and record no graph. (The owner tag
// handed over with them is package nn's.)

func init() {
	access.Set(&access.Ops[*Tensor]{AdamStep: adamStep, SGDStep: sgdStep, SetData: setData,
		Owner:    func(t *Tensor) any { return t.owner },
		SetOwner: func(t *Tensor, owner any) { t.owner = owner }})
}

// adamStep performs one step of torch.optim.Adam (or AdamW when
// h.Decoupled) in place: it updates the parameter p and its moment buffers
// m and v from the gradient g. p, m and v must be contiguous, of one float
// dtype, shape and device (start m and v as ZerosLike(p)); g must have p's
// shape and device. It records no graph. It panics with a *ShapeError,
// *DTypeError or *DeviceError on misuse, and a *ValueError for a step
// below 1.
func adamStep(p, g, m, v *Tensor, h backend.AdamParams) {
	const op = "AdamStep"
	checkUpdate(op, p, g, m, v)
	if h.Step < 1 {
		panic(valueErr(op, "count steps from 1", "step %d: bias correction needs step >= 1", h.Step))
	}
	g = matchGrad(p, g)
	p.backend.AdamStep(p.storage, p.layout, g.storage, g.layout, m.storage, m.layout, v.storage, v.layout, h)
}

// sgdStep performs one step of torch.optim.SGD in place: it updates the
// parameter p, and the momentum buffer buf when h.Momentum != 0 (nil
// otherwise), from the gradient g. Set h.First on the first step: the
// buffer is then set to the gradient, as torch does. Requirements and
// panics as adamStep.
func sgdStep(p, g, buf *Tensor, h backend.SGDParams) {
	const op = "SGDStep"
	if h.Momentum != 0 {
		if buf == nil {
			panic(valueErr(op, "pass a momentum buffer, tensor.ZerosLike(p)", "momentum %v needs a buffer", h.Momentum))
		}
		checkUpdate(op, p, g, buf)
	} else {
		checkUpdate(op, p, g)
	}
	g = matchGrad(p, g)
	var bs backend.Storage
	var bl backend.Layout
	if h.Momentum != 0 {
		bs, bl = buf.storage, buf.layout
	}
	p.backend.SGDStep(p.storage, p.layout, g.storage, g.layout, bs, bl, h)
}

// CopyInto copies src's elements into dst's storage in place, converting
// the dtype, as PyTorch's dst.copy_(src) under no_grad: every tensor
// viewing that storage sees the new values. dst must not be a broadcast
// (expanded) view. It records no graph, and so suits setting the weights
// of existing parameters (optimizers holding them keep working). It
// panics with a *ShapeError when the shapes differ and a *DeviceError
// when the devices do.
//
//	tensor.CopyInto(layer.Weight, tensor.Zeros(layer.Weight.Shape()...))
func CopyInto(dst, src *Tensor) {
	sameDevice("CopyInto", dst, src)
	if !slices.Equal(dst.layout.Shape, src.layout.Shape) {
		panic(shapeErr("CopyInto", "copy between tensors of one shape", [][]int{dst.Shape(), src.Shape()},
			"cannot copy a tensor of shape %v into one of shape %v", src.layout.Shape, dst.layout.Shape))
	}
	for i, s := range dst.layout.Strides {
		if s == 0 && dst.layout.Shape[i] > 1 {
			panic(shapeErr("CopyInto", "copy into a Contiguous() tensor", [][]int{dst.Shape()},
				"cannot write into a broadcast view (stride 0 in dim %d)", i))
		}
	}
	var s *Tensor
	NoGrad(func() { s = src.AsType(dst.DType()) })
	dst.backend.Copy(s.storage, s.layout, dst.storage, dst.layout)
}

// checkUpdate checks the operands of an in-place update.
func checkUpdate(op string, p, g *Tensor, bufs ...*Tensor) {
	all := append([]*Tensor{p, g}, bufs...)
	sameDevice(op, all...)
	if !p.DType().IsFloat() {
		panic(dtypeErr(op, "parameters are floating point", []DType{p.DType()}, "parameter of dtype %v", p.DType()))
	}
	for i, t := range all {
		if !slices.Equal(t.layout.Shape, p.layout.Shape) {
			panic(shapeErr(op, "gradient and buffers must have the parameter's shape", [][]int{p.Shape(), t.Shape()},
				"operand %d has shape %v, the parameter %v", i, t.layout.Shape, p.layout.Shape))
		}
		if i == 1 {
			continue
		}
		if t.DType() != p.DType() {
			panic(dtypeErr(op, "create buffers with tensor.ZerosLike(p)", []DType{p.DType(), t.DType()},
				"operand %d has dtype %v, the parameter %v", i, t.DType(), p.DType()))
		}
		if !t.layout.IsContiguous() {
			panic(shapeErr(op, "use contiguous parameters and buffers (x.Contiguous())", [][]int{t.Shape()},
				"operand %d is not contiguous (strides %v)", i, t.layout.Strides))
		}
	}
}

// matchGrad returns g with p's dtype.
func matchGrad(p, g *Tensor) *Tensor {
	if g.DType() == p.DType() {
		return g
	}
	var out *Tensor
	NoGrad(func() { out = g.AsType(p.DType()) })
	return out
}

// setData makes dst view src's storage (see access.Ops.SetData).
func setData(dst, src *Tensor) {
	const op = "SetData"
	if !slices.Equal(dst.layout.Shape, src.layout.Shape) {
		panic(shapeErr(op, "give a tensor of the same shape", [][]int{dst.Shape(), src.Shape()},
			"cannot replace the data of a tensor of shape %v with one of shape %v", dst.layout.Shape, src.layout.Shape))
	}
	if dst.DType() != src.DType() {
		panic(dtypeErr(op, "convert it first with AsType", []DType{dst.DType(), src.DType()},
			"cannot replace %v data with %v", dst.DType(), src.DType()))
	}
	g := dst.Grad()
	dst.storage, dst.layout, dst.backend = src.storage, src.layout, src.backend
	if g != nil && g.Device() != dst.Device() {
		dst.node.SetGrad(&gradValue{t: g.To(dst.Device())})
	}
}
