package tensor

import (
	"fmt"
	"math"
	"slices"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// BatchNorm normalises x, [N, C, ...], per channel (dim 1), as
// torch.nn.functional.batch_norm does:
//
//	y = (x - mean_c) / sqrt(var_c + eps) * weight_c + bias_c
//
// In training mode mean and var are the batch's (the biased variance over
// every dim but 1), gradients flow through them, and runningMean and
// runningVar, [C], move toward them in place when they are not nil:
// running = (1 - momentum) * running + momentum * batch, with the
// unbiased variance for runningVar. Otherwise it normalises with the
// running statistics, which must then be given. weight and bias, [C], may
// be nil for 1 and 0. It panics with a *ShapeError when the shapes do not
// fit, or in training mode when a channel has a single value.
//
//	y := tensor.BatchNorm(x, rm, rv, w, b, true, 0.1, 1e-5) // nn.BatchNorm2d's forward
func BatchNorm(x, runningMean, runningVar, weight, bias *Tensor, training bool, momentum, eps float64) *Tensor {
	const op = "BatchNorm"
	needFloat(op, x)
	if x.Dim() < 2 {
		panic(shapeErr(op, "pass a batch [N, C, ...]", [][]int{x.Shape()}, "input of shape %v has no channel dim", x.layout.Shape))
	}
	c := x.layout.Shape[1]
	operands := []*Tensor{x}
	for _, t := range []*Tensor{runningMean, runningVar, weight, bias} {
		if t == nil {
			continue
		}
		operands = append(operands, t)
		if t.Dim() != 1 || t.layout.Shape[0] != c {
			panic(shapeErr(op, fmt.Sprintf("statistics, weight and bias are [%d], one per channel", c), [][]int{x.Shape(), t.Shape()},
				"an operand of shape %v for an input with %d channels", t.layout.Shape, c))
		}
	}
	sameDevice(op, operands...)
	if !training && (runningMean == nil || runningVar == nil) {
		panic(valueErr(op, "pass the running statistics, or normalise with the batch's (training mode)",
			"evaluation mode needs the running mean and variance"))
	}
	m := x.Numel() / max(c, 1)
	if training && m <= 1 {
		panic(shapeErr(op, "use a larger batch", [][]int{x.Shape()},
			"input %v: expected more than 1 value per channel when training", x.layout.Shape))
	}
	if !fused("BatchNorm", x, weight, bias) {
		// In float32 with the statistics and parameters as they are,
		// rounded to x's dtype, as cuDNN's batch norm of 16-bit inputs.
		return inFloat32(x.DType(), func(xs []*Tensor) *Tensor {
			return BatchNorm(xs[0], runningMean, runningVar, xs[1], xs[2], training, momentum, eps)
		}, x, weight, bias)
	}
	dt := x.DType()
	w, b := asTypeOrNil(weight, dt), asTypeOrNil(bias, dt)
	nb, ok := x.backend.Backend.(backend.BatchNorm)
	if ok && !(!training && tracked(x, w, b)) {
		return batchNorm(nb, x, runningMean, runningVar, w, b, training, momentum, eps, m)
	}
	// The composition of primitives, for backends without backend.BatchNorm
	// and for gradients in evaluation mode.
	dims := []int{0}
	cshape := []int{c}
	for d := 2; d < x.Dim(); d++ {
		dims = append(dims, d)
		cshape = append(cshape, 1)
	}
	var y *Tensor
	if training {
		mean := x.MeanKeep(dims...)
		xc := x.Sub(mean)
		v := xc.Square().MeanKeep(dims...)
		y = xc.Div(v.AddScalar(eps).Sqrt())
		updateRunning(runningMean, runningVar, mean.Reshape(c), v.Reshape(c), momentum, m)
	} else {
		mean := runningMean.AsType(dt).Reshape(cshape...)
		std := runningVar.AsType(dt).AddScalar(eps).Sqrt().Reshape(cshape...)
		y = x.Sub(mean).Div(std)
	}
	if w != nil {
		y = y.Mul(w.Reshape(cshape...))
	}
	if b != nil {
		y = y.Add(b.Reshape(cshape...))
	}
	return y
}

// batchNorm is BatchNorm on a backend that computes it directly.
func batchNorm(nb backend.BatchNorm, x, runningMean, runningVar, w, b *Tensor, training bool, momentum, eps float64, m int) *Tensor {
	c := x.layout.Shape[1]
	var ms, vs backend.Storage
	var ml, vl backend.Layout
	if !training {
		rm, rv := runningMean.AsType(x.DType()), runningVar.AsType(x.DType())
		ms, ml, vs, vl = rm.storage, rm.layout, rv.storage, rv.layout
	}
	ws, wl := storageOf(w)
	bs, bl := storageOf(b)
	ys, bm, bv := nb.BatchNorm(x.storage, x.layout, ms, ml, vs, vl, ws, wl, bs, bl, eps)
	y := newTensor(x.backend, ys, x.Shape())
	if !training {
		return y
	}
	mean, variance := newTensor(x.backend, bm, []int{c}), newTensor(x.backend, bv, []int{c})
	updateRunning(runningMean, runningVar, mean, variance, momentum, m)
	inputs := affineInputs(x, w, b)
	if !tracked(inputs...) {
		return y
	}
	return recordOwned(y, "BatchNorm", func(g *Tensor, owned bool) []*Tensor {
		need := [3]bool{needGrad(x), w != nil && needGrad(w), b != nil && needGrad(b)}
		gx, gw, gb := nb.BatchNormBackward(g.storage, g.layout, x.storage, x.layout, bm, bv, ws, wl, eps, need, owned)
		return gradTensors(g, inputs, affineGrads(gx, gw, gb, w, b)...)
	}, inputs...)
}

// affineInputs returns the inputs of a normalization: x, then w and b
// where not nil.
func affineInputs(x, w, b *Tensor) []*Tensor {
	inputs := []*Tensor{x}
	if w != nil {
		inputs = append(inputs, w)
	}
	if b != nil {
		inputs = append(inputs, b)
	}
	return inputs
}

// affineGrads returns the gradients of affineInputs(x, w, b).
func affineGrads(gx, gw, gb backend.Storage, w, b *Tensor) []backend.Storage {
	grads := []backend.Storage{gx}
	if w != nil {
		grads = append(grads, gw)
	}
	if b != nil {
		grads = append(grads, gb)
	}
	return grads
}

// updateRunning moves the running statistics toward the batch's mean and
// biased variance of m values per channel, in place; nil ones stay nil.
// Every operand is detached, so nothing is recorded. Its temporaries go
// back to the device's allocator at once (Free), not when the collector
// finds them.
func updateRunning(runningMean, runningVar, mean, variance *Tensor, momentum float64, m int) {
	var tmp []*Tensor
	defer func() {
		for _, t := range tmp {
			t.Free()
		}
	}()
	// temp marks t for freeing unless it shares the storage of keep.
	temp := func(t, keep *Tensor) *Tensor {
		if t.storage != keep.storage {
			tmp = append(tmp, t)
		}
		return t
	}
	move := func(running, batch *Tensor, scale float64) {
		if running.layout.IsContiguous() && running.DType() == batch.DType() && running.backend == batch.backend &&
			scale != 0 && !math.IsInf(scale, 0) && !math.IsNaN(scale) {
			// running ← (1 − momentum)·running + momentum·scale·batch in
			// one pass over the C elements, in place: SGD's step
			// p ← p − lr·(g + wd·p) with p = running, g = batch,
			// lr = −momentum·scale and wd = −1/scale. (Composed, it is
			// five small ops a statistic, each a launch on a GPU.)
			running.backend.SGDStep(running.storage, running.layout, batch.storage, batch.layout, nil, backend.Layout{},
				backend.SGDParams{LR: -momentum * scale, WeightDecay: -1 / scale})
			return
		}
		b := batch.Detach()
		if scale != 1 {
			b = temp(b.MulScalar(scale), batch)
		}
		b = temp(b.AsType(running.DType()), batch) // Free may run twice
		r := temp(running.Detach().MulScalar(1-momentum), running)
		CopyInto(running, temp(r.Add(temp(b.MulScalar(momentum), batch)), running))
	}
	if runningMean != nil {
		move(runningMean, mean, 1)
	}
	if runningVar != nil {
		move(runningVar, variance, float64(m)/float64(m-1))
	}
}

// asTypeOrNil returns x as dt, or nil for a nil x.
func asTypeOrNil(x *Tensor, dt DType) *Tensor {
	if x == nil {
		return nil
	}
	return x.AsType(dt)
}

// storageOf returns x's storage and layout, or nil and the zero layout.
func storageOf(x *Tensor) (backend.Storage, backend.Layout) {
	if x == nil {
		return nil, backend.Layout{}
	}
	return x.storage, x.layout
}

// LayerNorm normalises x over its trailing dims, those of normalizedShape,
// as torch.nn.functional.layer_norm does:
//
//	y = (x - mean) / sqrt(var + eps) * weight + bias
//
// with the mean and the biased variance over those dims. weight and bias,
// of normalizedShape, may be nil for 1 and 0. Gradients flow to x, weight
// and bias. On a backend with fused kernels (backend.LayerNorm: the CPU and
// CUDA backends) it is one op forward and one backward. It panics with a
// *ShapeError when x's trailing dims are not normalizedShape or weight or
// bias has another shape.
//
//	y := tensor.LayerNorm(x, []int{512}, w, b, 1e-5) // nn.LayerNorm(512)'s forward
func LayerNorm(x *Tensor, normalizedShape []int, weight, bias *Tensor, eps float64) *Tensor {
	const op = "LayerNorm"
	x, weight, bias = AutocastFloat32(x), AutocastFloat32(weight), AutocastFloat32(bias)
	needFloat(op, x)
	k := len(normalizedShape)
	shape := x.layout.Shape
	ok := k > 0 && len(shape) >= k
	for i := 0; ok && i < k; i++ {
		ok = shape[len(shape)-k+i] == normalizedShape[i]
	}
	if !ok {
		panic(shapeErr(op, fmt.Sprintf("pass an input whose trailing dims are %v", normalizedShape), [][]int{x.Shape(), normalizedShape},
			"input of shape %v does not end in the normalized shape %v", shape, normalizedShape))
	}
	operands := []*Tensor{x}
	for _, t := range []*Tensor{weight, bias} {
		if t == nil {
			continue
		}
		operands = append(operands, t)
		if !slices.Equal(t.layout.Shape, normalizedShape) {
			panic(shapeErr(op, fmt.Sprintf("weight and bias have the normalized shape %v", normalizedShape), [][]int{t.Shape(), normalizedShape},
				"an operand of shape %v for the normalized shape %v", t.layout.Shape, normalizedShape))
		}
	}
	sameDevice(op, operands...)
	if !fused("LayerNorm", x, weight, bias) {
		return inFloat32(x.DType(), func(xs []*Tensor) *Tensor { return LayerNorm(xs[0], normalizedShape, xs[1], xs[2], eps) }, x, weight, bias)
	}
	dt := x.DType()
	w, b := asTypeOrNil(weight, dt), asTypeOrNil(bias, dt)
	lb, ok := x.backend.Backend.(backend.LayerNorm)
	if !ok || x.Numel() == 0 {
		dims := make([]int, k)
		for i := range dims {
			dims[i] = len(shape) - k + i
		}
		xc := x.Sub(x.MeanKeep(dims...))
		y := xc.Div(xc.Square().MeanKeep(dims...).AddScalar(eps).Sqrt())
		if w != nil {
			y = y.Mul(w)
		}
		if b != nil {
			y = y.Add(b)
		}
		return y
	}
	ws, wl := storageOf(w)
	bs, bl := storageOf(b)
	ys, mean, rstd := lb.LayerNorm(x.storage, x.layout, k, ws, wl, bs, bl, eps)
	y := newTensor(x.backend, ys, x.Shape())
	inputs := affineInputs(x, w, b)
	if !tracked(inputs...) {
		return y
	}
	return record(y, op, func(g *Tensor) []*Tensor {
		if g.DType() != dt {
			g = g.AsType(dt)
		}
		need := [3]bool{needGrad(x), w != nil && needGrad(w), b != nil && needGrad(b)}
		gx, gw, gb := lb.LayerNormBackward(g.storage, g.layout, x.storage, x.layout, k, mean, rstd, ws, wl, need)
		return gradTensors(g, inputs, affineGrads(gx, gw, gb, w, b)...)
	}, inputs...)
}
