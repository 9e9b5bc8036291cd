package tensor

import (
	"fmt"
	"slices"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// Reshape returns x with a new shape holding the same elements in
// row-major order; one size may be -1 and is inferred. The result is a view
// sharing x's storage when x's strides allow it (always for contiguous x)
// and a copy otherwise, like torch.reshape. It panics with a *ShapeError
// when the sizes do not multiply to x.Numel().
//
//	tensor.Arange(0, 6, 1).Reshape(2, -1) // shape [2 3]
func (x *Tensor) Reshape(shape ...int) *Tensor {
	shape = inferShape("Reshape", shape, x.Numel(), x.layout.Shape)
	var out *Tensor
	if st, ok := viewStrides(x.layout, shape); ok {
		out = x.view(backend.Layout{Shape: shape, Strides: st, Offset: x.layout.Offset})
	} else {
		out = x.clone().view(backend.Contiguous(shape))
	}
	if !tracked(x) {
		return out
	}
	return record(out, "Reshape", func(g *Tensor) []*Tensor { return []*Tensor{g.Reshape(x.layout.Shape...)} }, x)
}

// View is Reshape that never copies: it panics with a *ShapeError when x's
// strides do not allow the new shape (call Contiguous first, or Reshape).
func (x *Tensor) View(shape ...int) *Tensor {
	shape = inferShape("View", shape, x.Numel(), x.layout.Shape)
	st, ok := viewStrides(x.layout, shape)
	if !ok {
		panic(shapeErr("View", "call x.Contiguous() first, or use Reshape, which copies when needed",
			[][]int{x.Shape(), shape}, "a tensor of shape %v and strides %v cannot be viewed as %v without copying", x.layout.Shape, x.layout.Strides, shape))
	}
	out := x.view(backend.Layout{Shape: shape, Strides: st, Offset: x.layout.Offset})
	if !tracked(x) {
		return out
	}
	return record(out, "View", func(g *Tensor) []*Tensor { return []*Tensor{g.Reshape(x.layout.Shape...)} }, x)
}

// Flatten returns x with dims startDim..last merged into one, a view when
// possible (as Reshape): a [N, 1, 28, 28] batch gives [N, 784] with
// Flatten(1). A 0-d tensor becomes 1-D.
func (x *Tensor) Flatten(startDim int) *Tensor {
	if x.Dim() == 0 {
		return x.Reshape(1)
	}
	d := normDim("Flatten", startDim, x.Dim(), x.layout.Shape)
	shape := append(cloneInts(x.layout.Shape[:d]), backend.Numel(x.layout.Shape[d:]))
	return x.Reshape(shape...)
}

// Transpose returns a view of x with dims d0 and d1 swapped. Negative dims
// count from the end.
//
//	x.Transpose(-2, -1) // swap the last two dims
func (x *Tensor) Transpose(d0, d1 int) *Tensor {
	n := x.Dim()
	a, b := normDim("Transpose", d0, n, x.layout.Shape), normDim("Transpose", d1, n, x.layout.Shape)
	l := backend.Layout{Shape: cloneInts(x.layout.Shape), Strides: cloneInts(x.layout.Strides), Offset: x.layout.Offset}
	l.Shape[a], l.Shape[b] = l.Shape[b], l.Shape[a]
	l.Strides[a], l.Strides[b] = l.Strides[b], l.Strides[a]
	out := x.view(l)
	if !tracked(x) {
		return out
	}
	return record(out, "Transpose", func(g *Tensor) []*Tensor { return []*Tensor{g.Transpose(a, b)} }, x)
}

// T returns x with its dims reversed, a view: the transpose of a matrix.
// 0-d and 1-D tensors are returned unchanged.
func (x *Tensor) T() *Tensor {
	if x.Dim() < 2 {
		return x
	}
	p := make([]int, x.Dim())
	for i := range p {
		p[i] = len(p) - 1 - i
	}
	return x.Permute(p...)
}

// Permute returns a view of x with its dims reordered: result dim i is x's
// dim dims[i]. It panics with a *ShapeError unless dims is a permutation of
// x's dims (negative dims allowed).
//
//	images.Permute(0, 2, 3, 1) // NCHW -> NHWC
func (x *Tensor) Permute(dims ...int) *Tensor {
	n := x.Dim()
	if len(dims) != n {
		panic(shapeErr("Permute", fmt.Sprintf("give each of the %d dims once", n), [][]int{x.Shape()},
			"got %d dims %v for a tensor of shape %v", len(dims), dims, x.layout.Shape))
	}
	seen := make([]bool, n)
	l := backend.Layout{Shape: make([]int, n), Strides: make([]int, n), Offset: x.layout.Offset}
	for i, d := range dims {
		dd := normDim("Permute", d, n, x.layout.Shape)
		if seen[dd] {
			panic(shapeErr("Permute", fmt.Sprintf("give each of the %d dims once", n), [][]int{x.Shape()},
				"dim %d repeats in %v", d, dims))
		}
		seen[dd] = true
		l.Shape[i], l.Strides[i] = x.layout.Shape[dd], x.layout.Strides[dd]
	}
	out := x.view(l)
	if !tracked(x) {
		return out
	}
	return record(out, "Permute", func(g *Tensor) []*Tensor {
		inv := make([]int, n)
		for i, d := range dims {
			inv[normDim("Permute", d, n, nil)] = i
		}
		return []*Tensor{g.Permute(inv...)}
	}, x)
}

// Narrow returns a view of x with dim restricted to [start, start+length).
// A negative start counts from the end. It panics with a *ShapeError when
// the range does not fit.
//
//	images.Narrow(0, 0, 32) // the first 32 images
func (x *Tensor) Narrow(dim, start, length int) *Tensor {
	d := normDim("Narrow", dim, x.Dim(), x.layout.Shape)
	size := x.layout.Shape[d]
	if start < 0 && start >= -size {
		start += size
	}
	if start < 0 || length < 0 || start+length > size {
		panic(&IndexError{Op: "Narrow", Index: start, Size: size, Fix: fmt.Sprintf("need 0 <= start and start+length <= %d", size),
			Msg: fmt.Sprintf("range [%d, %d) does not fit dim %d of size %d", start, start+length, d, size)})
	}
	l := backend.Layout{Shape: cloneInts(x.layout.Shape), Strides: x.layout.Strides, Offset: x.layout.Offset + start*x.layout.Strides[d]}
	l.Shape[d] = length
	out := x.view(l)
	if !tracked(x) {
		return out
	}
	at := start
	return record(out, "Narrow", func(g *Tensor) []*Tensor {
		return []*Tensor{embed(g, x.layout.Shape, func(z backend.Layout) backend.Layout {
			z.Shape[d] = length
			z.Offset += at * z.Strides[d]
			return z
		})}
	}, x)
}

// Select returns a view of x at index i of dim, with dim removed: for x of
// shape [2, 3], x.Select(0, 1) is the second row, shape [3]. A negative i
// counts from the end. It panics with an *IndexError when i is out of range.
func (x *Tensor) Select(dim, i int) *Tensor {
	d := normDim("Select", dim, x.Dim(), x.layout.Shape)
	size := x.layout.Shape[d]
	j := i
	if j < 0 {
		j += size
	}
	if j < 0 || j >= size {
		panic(&IndexError{Op: "Select", Index: i, Size: size,
			Msg: fmt.Sprintf("index %d is out of range for dim %d of size %d (shape %v)", i, d, size, x.layout.Shape),
			Fix: fmt.Sprintf("use an index in [%d, %d]", -size, size-1)})
	}
	out := x.view(x.layout.Select(d, j))
	if !tracked(x) {
		return out
	}
	return record(out, "Select", func(g *Tensor) []*Tensor {
		return []*Tensor{embed(g, x.layout.Shape, func(z backend.Layout) backend.Layout { return z.Select(d, j) })}
	}, x)
}

// Squeeze returns a view of x without size-1 dims: all of them when no
// dims are given, otherwise those listed that have size 1 (others are left
// alone, as torch.squeeze).
func (x *Tensor) Squeeze(dims ...int) *Tensor {
	drop := make([]bool, x.Dim())
	if len(dims) == 0 {
		for i, s := range x.layout.Shape {
			drop[i] = s == 1
		}
	}
	for _, d := range dims {
		dd := normDim("Squeeze", d, x.Dim(), x.layout.Shape)
		drop[dd] = x.layout.Shape[dd] == 1
	}
	l := backend.Layout{Offset: x.layout.Offset, Shape: []int{}, Strides: []int{}}
	for i, s := range x.layout.Shape {
		if !drop[i] {
			l.Shape = append(l.Shape, s)
			l.Strides = append(l.Strides, x.layout.Strides[i])
		}
	}
	out := x.view(l)
	if !tracked(x) {
		return out
	}
	return record(out, "Squeeze", func(g *Tensor) []*Tensor { return []*Tensor{g.Reshape(x.layout.Shape...)} }, x)
}

// Unsqueeze returns a view of x with a size-1 dim inserted at dim, which
// may be in [-x.Dim()-1, x.Dim()]: x of shape [3] gives [1, 3] with
// Unsqueeze(0) and [3, 1] with Unsqueeze(-1).
func (x *Tensor) Unsqueeze(dim int) *Tensor {
	d := normDim("Unsqueeze", dim, x.Dim()+1, append(x.Shape(), 1))
	st := 1
	if d < x.Dim() {
		st = x.layout.Strides[d] * x.layout.Shape[d]
	}
	l := backend.Layout{
		Shape:   append(append(cloneInts(x.layout.Shape[:d]), 1), x.layout.Shape[d:]...),
		Strides: append(append(cloneInts(x.layout.Strides[:d]), st), x.layout.Strides[d:]...),
		Offset:  x.layout.Offset,
	}
	out := x.view(l)
	if !tracked(x) {
		return out
	}
	return record(out, "Unsqueeze", func(g *Tensor) []*Tensor { return []*Tensor{g.Reshape(x.layout.Shape...)} }, x)
}

// Expand returns a view of x broadcast to shape without copying: size-1
// dims repeat (stride 0), new leading dims may be added, and -1 keeps a
// size. It panics with a *ShapeError when x does not broadcast to shape.
// Write to a Contiguous copy, never to an expanded view.
//
//	tensor.FromFloat32s([]float32{1, 2, 3}).Expand(2, -1) // shape [2 3]
func (x *Tensor) Expand(shape ...int) *Tensor {
	n := len(shape)
	if n < x.Dim() {
		panic(shapeErr("Expand", "give at least as many sizes as x has dims", [][]int{x.Shape(), cloneInts(shape)},
			"cannot expand shape %v to %v: too few dims", x.layout.Shape, shape))
	}
	out := cloneInts(shape)
	for i := range out {
		j := i - (n - x.Dim())
		if out[i] == -1 {
			if j < 0 {
				panic(shapeErr("Expand", "-1 is allowed only for existing dims", [][]int{x.Shape(), cloneInts(shape)},
					"cannot expand shape %v to %v", x.layout.Shape, shape))
			}
			out[i] = x.layout.Shape[j]
		}
		if j >= 0 && x.layout.Shape[j] != 1 && x.layout.Shape[j] != out[i] || out[i] < 0 {
			panic(shapeErr("Expand", "only dims of size 1 can grow; use Unsqueeze to add dims in the middle", [][]int{x.Shape(), cloneInts(shape)},
				"cannot expand shape %v to %v", x.layout.Shape, shape))
		}
	}
	y := x.view(x.layout.BroadcastTo(out))
	if !tracked(x) {
		return y
	}
	// The engine sums the gradient back to x's shape.
	return record(y, "Expand", func(g *Tensor) []*Tensor { return []*Tensor{g} }, x)
}

// Cat joins tensors along dim: all must have the same shape except along
// dim (1-D empty tensors are skipped, as in PyTorch) and be on one device;
// dtypes promote. It panics with a *ShapeError otherwise.
//
//	tensor.Cat(0, a, b) // [2 3] and [4 3] give [6 3]
func Cat(dim int, xs ...*Tensor) *Tensor {
	if len(xs) == 0 {
		panic(valueErr("Cat", "pass at least one tensor", "no tensors to concatenate"))
	}
	sameDevice("Cat", xs...)
	var parts []*Tensor
	for _, x := range xs {
		if x.Dim() == 1 && x.Numel() == 0 && len(xs) > 1 {
			continue
		}
		parts = append(parts, x)
	}
	if len(parts) == 0 {
		parts = xs[:1]
	}
	ref := parts[0]
	if ref.Dim() == 0 {
		panic(shapeErr("Cat", "Unsqueeze 0-d tensors first, or use Stack", [][]int{ref.Shape()}, "cannot concatenate 0-d tensors"))
	}
	d := normDim("Cat", dim, ref.Dim(), ref.layout.Shape)
	dt := ref.DType()
	shape := ref.Shape()
	shape[d] = 0
	for i, x := range parts {
		dt = PromoteTypes(dt, x.DType())
		ok := x.Dim() == ref.Dim()
		for j := 0; ok && j < x.Dim(); j++ {
			ok = j == d || x.layout.Shape[j] == ref.layout.Shape[j]
		}
		if !ok {
			panic(shapeErr("Cat", fmt.Sprintf("all shapes must match except in dim %d", d), [][]int{ref.Shape(), x.Shape()},
				"tensor %d has shape %v, which does not match %v outside dim %d", i, x.layout.Shape, ref.layout.Shape, d))
		}
		shape[d] += x.layout.Shape[d]
	}
	b := ref.backend
	s := b.Alloc(dt, backend.Numel(shape))
	ol := backend.Contiguous(shape)
	at := 0
	for _, x := range parts {
		xc := x.AsType(dt)
		l := backend.Layout{Shape: xc.layout.Shape, Strides: ol.Strides, Offset: at * ol.Strides[d]}
		b.Copy(xc.storage, xc.layout, s, l)
		at += x.layout.Shape[d]
	}
	out := newTensor(b, s, shape)
	if !tracked(parts...) {
		return out
	}
	ins := parts
	return record(out, "Cat", func(g *Tensor) []*Tensor {
		gs := make([]*Tensor, len(ins))
		at := 0
		for i, x := range ins {
			if needGrad(x) {
				gs[i] = g.Narrow(d, at, x.layout.Shape[d])
			}
			at += x.layout.Shape[d]
		}
		return gs
	}, parts...)
}

// Stack joins tensors of one shape along a new dim: n tensors of shape
// [3] give [n, 3] with dim 0 and [3, n] with dim 1 (or -1).
func Stack(dim int, xs ...*Tensor) *Tensor {
	if len(xs) == 0 {
		panic(valueErr("Stack", "pass at least one tensor", "no tensors to stack"))
	}
	d := normDim("Stack", dim, xs[0].Dim()+1, append(xs[0].Shape(), 1))
	us := make([]*Tensor, len(xs))
	for i, x := range xs {
		if !slices.Equal(x.layout.Shape, xs[0].layout.Shape) {
			panic(shapeErr("Stack", "all tensors must have the same shape", [][]int{xs[0].Shape(), x.Shape()},
				"tensor %d has shape %v, tensor 0 has %v", i, x.layout.Shape, xs[0].layout.Shape))
		}
		us[i] = x.Unsqueeze(d)
	}
	return Cat(d, us...)
}

// embed returns zeros of the given shape, with g's dtype and device, with g
// copied into the part of them that place selects from their contiguous
// layout: the gradient of a view that took that part.
func embed(g *Tensor, shape []int, place func(backend.Layout) backend.Layout) *Tensor {
	z := g.backend.Alloc(g.DType(), backend.Numel(shape))
	l := backend.Contiguous(cloneInts(shape))
	g.backend.Copy(g.storage, g.layout, z, place(l))
	return newTensor(g.backend, z, cloneInts(shape))
}
