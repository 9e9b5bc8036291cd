package tensor

import (
	"fmt"

	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/cpu"
)

// argsort returns the Int64 positions that sort x along dim d, computed on
// x's device when its backend implements backend.Sort and on the host
// otherwise.
func argsort(x *Tensor, d int, descending bool) *Tensor {
	src := x
	if src.DType() == Bool {
		src = src.AsType(Int64)
	}
	if src.DType().IsHalf() {
		src = src.AsType(Float32) // exact, so the order is the same
	}
	if sb, ok := x.backend.Backend.(backend.Sort); ok {
		return newTensor(x.backend, sb.Argsort(src.storage, src.layout, d, descending), x.Shape())
	}
	h := src.Detach().CPU()
	idx := newTensor(cpuEngine, cpu.Backend{}.Argsort(h.storage, h.layout, d, descending), x.Shape())
	return idx.To(x.Device())
}

// Argsort returns the Int64 indices that sort x along dim, in ascending
// order or in descending order when descending is set (torch.argsort). The
// sort is stable: equal elements keep their order. NaN sorts above every
// number. It panics with a *ShapeError when dim is out of range.
//
//	order := scores.Argsort(-1, true) // best first
func (x *Tensor) Argsort(dim int, descending bool) *Tensor {
	d := normDim("Argsort", dim, x.Dim(), x.layout.Shape)
	return argsort(x, d, descending)
}

// Sort returns x sorted along dim, ascending or descending, and the Int64
// indices of the sorted elements in x (torch.sort with stable=True):
// values equals x.Gather(dim, indices). Gradients flow back through the
// values to the elements they came from. NaN sorts above every number. It
// panics with a *ShapeError when dim is out of range.
//
//	values, indices := x.Sort(-1, false)
func (x *Tensor) Sort(dim int, descending bool) (values, indices *Tensor) {
	d := normDim("Sort", dim, x.Dim(), x.layout.Shape)
	indices = argsort(x, d, descending)
	return x.Gather(d, indices), indices
}

// TopK returns the k largest elements of x along dim, largest first, and
// their Int64 indices in x (torch.topk with largest=True, sorted=True).
// Gradients flow back through the values. It panics with a *ShapeError
// when dim is out of range and a *ValueError unless 0 <= k <= x.Size(dim).
//
//	logits, idx := logits.TopK(10, -1) // keep the 10 likeliest tokens
func (x *Tensor) TopK(k, dim int) (values, indices *Tensor) {
	d := normDim("TopK", dim, x.Dim(), x.layout.Shape)
	if size := x.layout.Shape[d]; k < 0 || k > size {
		panic(valueErr("TopK", fmt.Sprintf("pass 0 <= k <= %d", size), "k = %d is outside [0, %d] for dim %d of shape %v", k, size, d, x.layout.Shape))
	}
	indices = argsort(x, d, true).Narrow(d, 0, k).Contiguous()
	return x.Gather(d, indices), indices
}

// CumSum returns the inclusive cumulative sum of x along dim: element i is
// the sum of elements 0..i (torch.cumsum). Floats keep their dtype and are
// accumulated in float64; Int64 and Bool give Int64. Gradients flow to
// float inputs. It panics with a *ShapeError when dim is out of range.
//
//	cdf := probs.CumSum(-1)
func (x *Tensor) CumSum(dim int) *Tensor {
	x = AutocastFloat32(x)
	d := normDim("CumSum", dim, x.Dim(), x.layout.Shape)
	if isHalf(x) {
		return inFloat32(x.DType(), func(xs []*Tensor) *Tensor { return xs[0].CumSum(d) }, x)
	}
	var out *Tensor
	if sb, ok := x.backend.Backend.(backend.Sort); ok {
		out = newTensor(x.backend, sb.CumSum(x.storage, x.layout, d), x.Shape())
	} else {
		h := x.Detach().CPU()
		out = newTensor(cpuEngine, cpu.Backend{}.CumSum(h.storage, h.layout, d), x.Shape()).To(x.Device())
	}
	if !x.DType().IsFloat() || !tracked(x) {
		return out
	}
	return record(out, "CumSum", func(g *Tensor) []*Tensor {
		// Element j of x feeds outputs j..n-1: its gradient is the sum of
		// g from j to the end, a cumulative sum of g reversed.
		n := g.layout.Shape[d]
		rev := newTensor(g.backend, g.backend.Arange(Int64, n, float64(n-1), -1), []int{n})
		return []*Tensor{g.IndexSelect(d, rev).CumSum(d).IndexSelect(d, rev)}
	}, x)
}

// Multinomial draws n category indices from each row of probs, a 1-D
// tensor [C] or a 2-D tensor [N, C] of non-negative weights (they need not
// sum to 1), and returns them as Int64, [n] or [N, n]
// (torch.multinomial). With replacement every draw is independent;
// without it a category is drawn at most once per row, so n may not
// exceed the number of nonzero weights. The draws are made on probs'
// device from one seed of the generator that ManualSeed sets, so a seeded
// program draws the same indices on every run. It panics with a
// *ShapeError on other shapes, a *DTypeError on integer weights and a
// *ValueError on negative weights, a row of zeros, or too few categories.
//
//	next := tensor.Multinomial(logits.DivScalar(temp).Softmax(-1), 1, true)
func Multinomial(probs *Tensor, n int, replacement bool) *Tensor {
	const op = "Multinomial"
	needFloat(op, probs)
	if probs.Dim() != 1 && probs.Dim() != 2 {
		panic(shapeErr(op, "pass a [C] or [N, C] tensor of weights", [][]int{probs.Shape()},
			"probs must be 1-D or 2-D, got shape %v", probs.layout.Shape))
	}
	if n < 0 {
		panic(valueErr(op, "pass n >= 0", "cannot draw %d samples", n))
	}
	p := probs.Detach().AsType(Float64)
	if p.Dim() == 1 {
		p = p.Unsqueeze(0)
	}
	rows, c := p.layout.Shape[0], p.layout.Shape[1]
	if c == 0 {
		panic(shapeErr(op, "pass at least one category", [][]int{probs.Shape()}, "probs has no categories (shape %v)", probs.layout.Shape))
	}
	if rows > 0 {
		if lo := p.MinAll().Item(); !(lo >= 0) || p.MaxAll().Item() > 1e300 {
			panic(valueErr(op, "pass finite, non-negative weights (Softmax gives probabilities)", "weights must be finite and non-negative, got minimum %v", lo))
		}
		nz := p.Gt(scalarLike(p, 0)).AsType(Int64).Sum(1).MinAll().Item()
		switch {
		case nz == 0:
			panic(valueErr(op, "give every row a positive weight", "a row of probs sums to 0"))
		case !replacement && float64(n) > nz:
			panic(valueErr(op, "draw with replacement, or fewer samples", "cannot draw %d samples without replacement from a row with %v nonzero weights", n, nz))
		}
	}
	u := newTensor(p.backend, p.backend.Random(backend.Uniform, Float64, rows*n, 0, 1, nextSeed()), []int{rows, n})
	var idx *Tensor
	if replacement {
		// Inverse CDF: the index is the number of cumulative weights <= u.
		cdf := p.CumSum(1)
		target := u.Mul(cdf.Narrow(1, c-1, 1))
		idx = cdf.Unsqueeze(1).Le(target.Unsqueeze(2)).AsType(Int64).Sum(2)
		idx = idx.Minimum(scalarLike(idx, float64(c-1)))
	} else {
		// Exponential keys E/p: the n smallest are a draw without
		// replacement weighted by p.
		u1 := newTensor(p.backend, p.backend.Random(backend.Uniform, Float64, rows*c, 0, 1, nextSeed()), []int{rows, c})
		keys := u1.RSubScalar(1).Log().Neg().Div(p)
		idx = argsort(keys, 1, false).Narrow(1, 0, n).Contiguous()
	}
	if probs.Dim() == 1 {
		idx = idx.Squeeze(0)
	}
	return idx
}

// Split splits x along dim into views of size elements each, the last one
// smaller when size does not divide x.Size(dim) (torch.split with an int).
// It panics with a *ShapeError when dim is out of range and a *ValueError
// unless size > 0.
//
//	qkv := x.Split(d, -1) // q, k, v := qkv[0], qkv[1], qkv[2]
func (x *Tensor) Split(size, dim int) []*Tensor {
	d := normDim("Split", dim, x.Dim(), x.layout.Shape)
	if size <= 0 {
		panic(valueErr("Split", "pass a positive size", "split size %d", size))
	}
	n := x.layout.Shape[d]
	var out []*Tensor
	for at := 0; at < n || (n == 0 && at == 0); at += size {
		out = append(out, x.Narrow(d, at, min(size, n-at)))
		if n == 0 {
			break
		}
	}
	return out
}

// Chunk splits x along dim into at most n views of equal size, the last
// one smaller when n does not divide x.Size(dim); as torch.chunk, it
// returns fewer than n when the chunks' size, ceil(size/n), allows no more.
// It panics with a *ShapeError when dim is out of range and a *ValueError
// unless n > 0.
//
//	heads := x.Chunk(8, -1)
func (x *Tensor) Chunk(n, dim int) []*Tensor {
	d := normDim("Chunk", dim, x.Dim(), x.layout.Shape)
	if n <= 0 {
		panic(valueErr("Chunk", "pass a positive number of chunks", "%d chunks", n))
	}
	size := (x.layout.Shape[d] + n - 1) / n
	if size == 0 {
		size = 1
	}
	return x.Split(size, d)
}

// fill0d returns the 0-d tensor v with x's dtype and device.
func fill0d(x *Tensor, v float64) *Tensor {
	s := x.backend.Alloc(x.DType(), 1)
	x.backend.Fill(s, backend.Layout{}, v)
	return newTensor(x.backend, s, nil)
}

// triMask returns the Bool [R, C] mask of x's last two dims that Tril
// (lower) or Triu keeps.
func triMask(op string, x *Tensor, diagonal int, lower bool) *Tensor {
	if x.Dim() < 2 {
		panic(shapeErr(op, "pass a matrix or a batch of matrices", [][]int{x.Shape()},
			"needs at least 2 dims, got shape %v", x.layout.Shape))
	}
	r, c := x.layout.Shape[x.Dim()-2], x.layout.Shape[x.Dim()-1]
	rows := newTensor(x.backend, x.backend.Arange(Int64, r, 0, 1), []int{r, 1})
	cols := newTensor(x.backend, x.backend.Arange(Int64, c, 0, 1), []int{1, c})
	off := cols.Sub(rows) // j - i
	if lower {
		return off.LeScalar(float64(diagonal))
	}
	return off.GeScalar(float64(diagonal))
}

// Tril returns the lower triangle of x's last two dims, elements with
// j - i <= diagonal, and zeros above it (torch.tril): diagonal 0 keeps the
// main diagonal, -1 drops it, 1 keeps one more. Gradients flow to the kept
// elements. It panics with a *ShapeError when x has fewer than 2 dims.
//
//	causal := tensor.Ones(t, t).Tril(0)
func (x *Tensor) Tril(diagonal int) *Tensor {
	return Where(triMask("Tril", x, diagonal, true), x, fill0d(x, 0))
}

// Triu returns the upper triangle of x's last two dims, elements with
// j - i >= diagonal, and zeros below it (torch.triu). It panics with a
// *ShapeError when x has fewer than 2 dims.
//
//	future := tensor.Ones(t, t).Triu(1).AsType(tensor.Bool) // the keys a causal query may not see
func (x *Tensor) Triu(diagonal int) *Tensor {
	return Where(triMask("Triu", x, diagonal, false), x, fill0d(x, 0))
}

// MaskedFill returns x with the elements where the Bool mask is true
// replaced by v, converted to x's dtype (torch.Tensor.masked_fill); mask
// and x broadcast together as in Add. Gradients flow to the elements not
// filled. It panics with a *DTypeError when mask is not Bool and a
// *ShapeError when the shapes do not broadcast.
//
//	scores = scores.MaskedFill(future, math.Inf(-1))
func (x *Tensor) MaskedFill(mask *Tensor, v float64) *Tensor {
	sameDevice("MaskedFill", x, mask)
	if mask.DType() != Bool {
		panic(dtypeErr("MaskedFill", "build the mask with a comparison or mask.AsType(tensor.Bool)", []DType{mask.DType()},
			"mask must be Bool, got %v", mask.DType()))
	}
	return Where(mask, fill0d(x, v), x)
}
