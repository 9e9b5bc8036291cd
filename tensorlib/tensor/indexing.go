package tensor

import (
	"fmt"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

func needIndex(op string, idx *Tensor) {
	if idx.DType() != Int64 {
		panic(dtypeErr(op, "convert with idx.AsType(tensor.Int64)", []DType{idx.DType()},
			"indices must be Int64, got %v", idx.DType()))
	}
}

// Gather picks elements of x along dim with the Int64 tensor idx, which has
// x's number of dims: out[i][j] = x[i][idx[i][j]] for dim 1 of a matrix
// (torch.gather). The result has idx's shape; along every other dim idx may
// not be larger than x. It panics with a *ShapeError, *DTypeError or
// *IndexError on misuse.
//
//	logp.Gather(1, labels.Unsqueeze(1)) // each row's log-probability of its label
func (x *Tensor) Gather(dim int, idx *Tensor) *Tensor {
	sameDevice("Gather", x, idx)
	needIndex("Gather", idx)
	d := normDim("Gather", dim, x.Dim(), x.layout.Shape)
	if idx.Dim() != x.Dim() {
		panic(shapeErr("Gather", "give idx as many dims as x (Unsqueeze it)", [][]int{x.Shape(), idx.Shape()},
			"index shape %v has %d dims, x shape %v has %d", idx.layout.Shape, idx.Dim(), x.layout.Shape, x.Dim()))
	}
	for i := range idx.layout.Shape {
		if i != d && idx.layout.Shape[i] > x.layout.Shape[i] {
			panic(shapeErr("Gather", fmt.Sprintf("idx may not be larger than x outside dim %d", d), [][]int{x.Shape(), idx.Shape()},
				"index shape %v is larger than x shape %v in dim %d", idx.layout.Shape, x.layout.Shape, i))
		}
	}
	s := x.backend.Gather(x.storage, x.layout, d, idx.storage, idx.layout)
	out := newTensor(x.backend, s, idx.Shape())
	if !tracked(x) {
		return out
	}
	return record(out, "Gather", func(g *Tensor) []*Tensor {
		// Each picked element sends its gradient back to where it came
		// from; repeats add up.
		z := g.backend.Alloc(g.DType(), x.Numel())
		g.backend.ScatterAdd(z, backend.Contiguous(x.layout.Shape), d, idx.storage, idx.layout, g.storage, g.layout)
		return []*Tensor{newTensor(g.backend, z, x.Shape())}
	}, x)
}

// IndexSelect picks the slices of x along dim listed in the 1-D Int64
// tensor idx (torch.index_select): the result has x's shape with dim's size
// replaced by len(idx). It panics with a *ShapeError, *DTypeError or
// *IndexError on misuse.
//
//	batch := images.IndexSelect(0, tensor.FromInt64s([]int64{3, 1, 4}))
func (x *Tensor) IndexSelect(dim int, idx *Tensor) *Tensor {
	sameDevice("IndexSelect", x, idx)
	needIndex("IndexSelect", idx)
	d := normDim("IndexSelect", dim, x.Dim(), x.layout.Shape)
	if idx.Dim() > 1 {
		panic(shapeErr("IndexSelect", "flatten the indices with idx.Reshape(-1)", [][]int{x.Shape(), idx.Shape()},
			"index must be 1-D, got shape %v", idx.layout.Shape))
	}
	shape := x.Shape()
	shape[d] = idx.Numel()
	il := idx.layout.BroadcastTo([]int{idx.Numel()})
	s := x.backend.IndexSelect(x.storage, x.layout, d, idx.storage, il)
	out := newTensor(x.backend, s, shape)
	if !tracked(x) {
		return out
	}
	return record(out, "IndexSelect", func(g *Tensor) []*Tensor {
		z := g.backend.Alloc(g.DType(), x.Numel())
		g.backend.IndexAdd(z, backend.Contiguous(x.layout.Shape), d, idx.storage, il, g.storage, g.layout)
		return []*Tensor{newTensor(g.backend, z, x.Shape())}
	}, x)
}

// OneHot returns the one-hot encoding of the Int64 labels as an Int64
// tensor with a new last dim of size n (torch.nn.functional.one_hot):
// labels of shape [N] give [N, n] with a 1 at each label. With n <= 0, n is
// the largest label plus one. It panics with a *DTypeError when labels are
// not Int64 and an *IndexError when a label is outside [0, n).
//
//	tensor.OneHot(tensor.FromInt64s([]int64{0, 2}), 3) // tensor([[1, 0, 0], [0, 0, 1]])
func OneHot(labels *Tensor, n int) *Tensor {
	needIndex("OneHot", labels)
	if labels.Numel() > 0 {
		hi := int(labels.MaxAll().Item())
		lo := int(labels.MinAll().Item())
		if n <= 0 {
			n = hi + 1
		}
		if lo < 0 || hi >= n {
			bad := hi
			if lo < 0 {
				bad = lo
			}
			panic(&IndexError{Op: "OneHot", Index: bad, Size: n,
				Msg: fmt.Sprintf("label %d is outside [0, %d)", bad, n),
				Fix: "pass the number of classes as n, larger than every label"})
		}
	} else if n <= 0 {
		panic(valueErr("OneHot", "pass the number of classes as n", "cannot infer the number of classes from empty labels"))
	}
	classes := newTensor(labels.backend, labels.backend.Arange(Int64, n, 0, 1), []int{n})
	return labels.Unsqueeze(-1).Eq(classes).AsType(Int64)
}
