package tensor

import "fmt"

// This file holds the low-level, in-place primitives behind package optim
// and nn.Load. They write into their arguments' storage, record no graph,
// and are not meant for everyday use: prefer ops, which never change their
// operands.

// AdamParams are the hyperparameters of one AdamStep.
type AdamParams struct {
	LR           float64 // learning rate
	Beta1, Beta2 float64 // decay rates of the moment estimates (0.9, 0.999)
	Eps          float64 // added to the denominator (1e-8)
	WeightDecay  float64 // L2 penalty (Adam) or decoupled decay (AdamW)
	Step         int     // 1-based number of this step, for bias correction
	Decoupled    bool    // AdamW: p *= 1 - LR*WeightDecay instead of g += WeightDecay*p
}

// SGDParams are the hyperparameters of one SGDStep.
type SGDParams struct {
	LR          float64 // learning rate
	Momentum    float64 // momentum factor (0 for plain SGD)
	Dampening   float64 // dampening for momentum
	WeightDecay float64 // L2 penalty added to the gradient
	Nesterov    bool    // Nesterov momentum
	First       bool    // the first step: the buffer starts as the gradient
}

// AdamStep performs one step of torch.optim.Adam (or AdamW when
// h.Decoupled) in place: it updates the parameter p and its moment buffers
// m and v from the gradient g. p, m and v must be contiguous, of one float
// dtype, shape and device (start m and v as ZerosLike(p)); g must have p's
// shape and device. It records no graph. It panics with a *ShapeError,
// *DTypeError or *DeviceError on misuse.
//
// Low level: package optim calls it; users call opt.Step().
func AdamStep(p, g, m, v *Tensor, h AdamParams) {
	const op = "AdamStep"
	checkUpdate(op, p, g, m, v)
	if h.Step < 1 {
		panic(shapeErr(op, "count steps from 1", nil, "step %d: bias correction needs step >= 1", h.Step))
	}
	g = matchGrad(p, g)
	p.backend.AdamStep(p.storage, p.layout, g.storage, g.layout, m.storage, m.layout, v.storage, v.layout, h)
}

// SGDStep performs one step of torch.optim.SGD in place: it updates the
// parameter p, and the momentum buffer buf when h.Momentum != 0 (pass nil
// otherwise), from the gradient g. Set h.First on the first step: the
// buffer is then set to the gradient, as torch does. Requirements and
// panics as AdamStep.
//
// Low level: package optim calls it; users call opt.Step().
func SGDStep(p, g, buf *Tensor, h SGDParams) {
	const op = "SGDStep"
	if h.Momentum != 0 {
		if buf == nil {
			panic(shapeErr(op, "pass a momentum buffer, tensor.ZerosLike(p)", [][]int{p.Shape()}, "momentum %v needs a buffer", h.Momentum))
		}
		checkUpdate(op, p, g, buf)
	} else {
		checkUpdate(op, p, g)
	}
	g = matchGrad(p, g)
	var bs Storage
	var bl Layout
	if h.Momentum != 0 {
		bs, bl = buf.storage, buf.layout
	}
	p.backend.SGDStep(p.storage, p.layout, g.storage, g.layout, bs, bl, h)
}

// CopyInto copies src's elements into dst's storage in place, converting
// the dtype: every tensor viewing that storage sees the new values. dst
// must not be a broadcast (expanded) view. It records no graph, and so
// suits loading weights into existing parameters. It panics with a
// *ShapeError when the shapes differ and a *DeviceError when the devices
// do.
//
// Low level: nn.Load calls it.
func CopyInto(dst, src *Tensor) {
	sameDevice("CopyInto", dst, src)
	if !equalInts(dst.layout.Shape, src.layout.Shape) {
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
		panic(dtypeErr(op, "parameters are Float32 or Float64", []DType{p.DType()}, "parameter of dtype %v", p.DType()))
	}
	for i, t := range all {
		if !equalInts(t.layout.Shape, p.layout.Shape) {
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

func (h AdamParams) String() string {
	return fmt.Sprintf("Adam(lr=%v, betas=(%v, %v), eps=%v, wd=%v, step=%d, decoupled=%v)",
		h.LR, h.Beta1, h.Beta2, h.Eps, h.WeightDecay, h.Step, h.Decoupled)
}
