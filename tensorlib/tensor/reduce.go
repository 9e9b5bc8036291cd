package tensor

import (
	"sort"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// reduceDims normalises dims for a reduction (none = all), rejecting
// duplicates.
func reduceDims(op string, x *Tensor, dims []int) []int {
	n := x.Dim()
	if len(dims) == 0 {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := make([]int, len(dims))
	for i, d := range dims {
		out[i] = normDim(op, d, n, x.layout.Shape)
	}
	sort.Ints(out)
	for i := 1; i < len(out); i++ {
		if out[i] == out[i-1] {
			panic(shapeErr(op, "list each dim once", [][]int{x.Shape()}, "dim %d appears more than once in %v", out[i], dims))
		}
	}
	return out
}

// keptShape returns shape with dims set to 1 (keep) or removed.
func keptShape(shape, dims []int, keep bool) []int {
	red := make(map[int]bool, len(dims))
	for _, d := range dims {
		red[d] = true
	}
	out := make([]int, 0, len(shape))
	for i, s := range shape {
		switch {
		case !red[i]:
			out = append(out, s)
		case keep:
			out = append(out, 1)
		}
	}
	return out
}

// reduce is the primitive behind Sum, Max and Min over a set of dims.
func reduce(op backend.ReduceOp, name string, x *Tensor, dims []int, keep bool) *Tensor {
	dims = reduceDims(name, x, dims)
	src := x
	switch x.DType() {
	case Bool:
		src = x.AsType(Int64)
	}
	if op != backend.OpSum {
		for _, d := range dims {
			if x.layout.Shape[d] == 0 {
				panic(shapeErr(name, "reduce over a non-empty dim", [][]int{x.Shape()},
					"cannot take the %s over dim %d of size 0 (shape %v)", map[backend.ReduceOp]string{backend.OpMax: "maximum", backend.OpMin: "minimum"}[op], d, x.layout.Shape))
			}
		}
	}
	s := x.backend.Reduce(op, src.storage, src.layout, dims)
	out := newTensor(x.backend, s, keptShape(x.layout.Shape, dims, keep))
	if x.DType() == Bool && op != backend.OpSum {
		out = out.AsType(Bool)
	}
	if !tracked(x) {
		return out
	}
	rd := dims
	return record(out, name, func(g *Tensor) []*Tensor {
		dims := rd
		kept := keptShape(x.layout.Shape, dims, true)
		gk := g.Reshape(kept...)
		if op == backend.OpSum {
			return []*Tensor{gk.Expand(x.layout.Shape...)}
		}
		// The extremes share the gradient equally, as torch.amax.
		hit := x.Eq(out.Reshape(kept...)).AsType(g.DType())
		return []*Tensor{hit.Mul(gk).Div(hit.SumKeep(dims...))}
	}, x)
}

// Sum returns the sum of x's elements over dims (all dims when none are
// given), removing them: x.Sum() is a 0-d tensor, and for x of shape
// [2, 3], x.Sum(1) has shape [2]. Negative dims count from the end. Int64
// and Bool tensors sum to Int64.
//
//	tensor.Ones(2, 3).Sum(1) // tensor([3., 3.])
func (x *Tensor) Sum(dims ...int) *Tensor {
	return reduce(backend.OpSum, "Sum", AutocastFloat32(x), dims, false)
}

// SumKeep is Sum keeping the reduced dims with size 1, so the result
// broadcasts against x: Ones(2, 3).SumKeep(1) has shape [2, 1].
func (x *Tensor) SumKeep(dims ...int) *Tensor {
	return reduce(backend.OpSum, "SumKeep", AutocastFloat32(x), dims, true)
}

// mean divides a sum by the number of elements reduced.
func mean(name string, x *Tensor, dims []int, keep bool) *Tensor {
	if !x.DType().IsFloat() {
		panic(dtypeErr(name, "convert first with x.AsType(tensor.Float32)", []DType{x.DType()},
			"the mean needs a floating-point tensor, got %v", x.DType()))
	}
	if isHalf(x) { // sum and divide in float32, round once
		return inFloat32(x.DType(), func(xs []*Tensor) *Tensor { return mean(name, xs[0], dims, keep) }, x)
	}
	dims = reduceDims(name, x, dims)
	n := 1
	for _, d := range dims {
		n *= x.layout.Shape[d]
	}
	return reduce(backend.OpSum, name, x, dims, keep).DivScalar(float64(n))
}

// Mean returns the mean of x's elements over dims (all dims when none are
// given), removing them, as Sum. Empty reductions give NaN. It panics with
// a *DTypeError on Int64 and Bool tensors, as torch.mean does.
//
//	tensor.Arange(0, 4, 1).Mean() // tensor(1.5000)
func (x *Tensor) Mean(dims ...int) *Tensor { return mean("Mean", x, dims, false) }

// MeanKeep is Mean keeping the reduced dims with size 1, as SumKeep.
func (x *Tensor) MeanKeep(dims ...int) *Tensor { return mean("MeanKeep", x, dims, true) }

// Max returns the maximum of x along dim, removing it (torch.amax): for x
// of shape [2, 3], x.Max(1) has shape [2]. NaN propagates. It panics with a
// *ShapeError when dim is out of range or has size 0.
func (x *Tensor) Max(dim int) *Tensor { return reduce(backend.OpMax, "Max", x, []int{dim}, false) }

// Min returns the minimum of x along dim, removing it, as Max.
func (x *Tensor) Min(dim int) *Tensor { return reduce(backend.OpMin, "Min", x, []int{dim}, false) }

// MaxKeep is Max keeping dim with size 1.
func (x *Tensor) MaxKeep(dim int) *Tensor {
	return reduce(backend.OpMax, "MaxKeep", x, []int{dim}, true)
}

// MinKeep is Min keeping dim with size 1.
func (x *Tensor) MinKeep(dim int) *Tensor {
	return reduce(backend.OpMin, "MinKeep", x, []int{dim}, true)
}

// MaxAll returns the maximum of all x's elements as a 0-d tensor.
func (x *Tensor) MaxAll() *Tensor { return reduce(backend.OpMax, "MaxAll", x, nil, false) }

// MinAll returns the minimum of all x's elements as a 0-d tensor.
func (x *Tensor) MinAll() *Tensor { return reduce(backend.OpMin, "MinAll", x, nil, false) }

func argReduce(op backend.ReduceOp, name string, x *Tensor, dim int) *Tensor {
	d := normDim(name, dim, x.Dim(), x.layout.Shape)
	if x.layout.Shape[d] == 0 {
		panic(shapeErr(name, "reduce over a non-empty dim", [][]int{x.Shape()},
			"cannot take %s over dim %d of size 0 (shape %v)", name, d, x.layout.Shape))
	}
	src := x
	if x.DType() == Bool {
		src = x.AsType(Int64)
	}
	s := x.backend.ArgReduce(op, src.storage, src.layout, d)
	return newTensor(x.backend, s, keptShape(x.layout.Shape, []int{d}, false))
}

// Argmax returns the Int64 indices of the maxima of x along dim, removing
// it; ties give the first index, and NaN counts as the maximum.
//
//	logits.Argmax(1) // predicted class per row
func (x *Tensor) Argmax(dim int) *Tensor { return argReduce(backend.OpArgmax, "Argmax", x, dim) }

// Argmin returns the Int64 indices of the minima of x along dim, as Argmax.
func (x *Tensor) Argmin(dim int) *Tensor { return argReduce(backend.OpArgmin, "Argmin", x, dim) }

func needFloat(op string, x *Tensor) {
	if !x.DType().IsFloat() {
		panic(dtypeErr(op, "convert first with x.AsType(tensor.Float32)", []DType{x.DType()},
			"needs a floating-point tensor, got %v", x.DType()))
	}
}

// Var returns the unbiased variance of x along dim (dividing by n-1, as
// torch.var), removing it. A dim of size 1 gives NaN. It panics with a
// *DTypeError on Int64 and Bool tensors.
func (x *Tensor) Var(dim int) *Tensor {
	needFloat("Var", x)
	d := normDim("Var", dim, x.Dim(), x.layout.Shape)
	n := x.layout.Shape[d]
	c := x.Sub(x.MeanKeep(d))
	return c.Mul(c).Sum(d).DivScalar(float64(n - 1))
}
