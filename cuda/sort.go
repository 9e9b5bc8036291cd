package cuda

import (
	"github.com/gotensor/gotensor/kernels"
	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// The device backend implements backend.Sort with the kernels of
// kernels/sort.cu.
var _ backend.Sort = (*deviceBackend)(nil)

// byRows runs kernel over the rows of s along dim (see kernels/sort.cu)
// into a new [rows, size] storage of dtype dt, and returns it moved back
// to l's shape. perElement says whether the kernel takes one thread per
// element (argsort) or per row (cumsum).
func (b *deviceBackend) byRows(kernel kernels.Op, s backend.Storage, l backend.Layout, dim int, dt tensor.DType, perElement bool, extra ...int32) backend.Storage {
	src := b.store(s)
	p := backend.SplitReduce(l, []int{dim})
	rows, size := p.NumOut, l.Shape[dim]
	n := rows * size
	var tmp *storage
	d := b.dev
	d.do(func() {
		tmp = d.newStorage(dt, n)
		if n == 0 {
			return
		}
		shape, strides, nkeep := kernelOrder(p)
		a := d.newArgs()
		work := int64(rows)
		if perElement {
			work = int64(n)
		}
		a.I64(work).I64(int64(size)).Ptr(tmp.ptr).Ptr(src.ptr)
		packLayout(a, shape, strides, p.Offset)
		a.I32(int32(nkeep))
		for _, v := range extra {
			a.I32(v)
		}
		d.elementwise(kernelFor(kernel, src.dt), work, a)
	})
	// tmp is row-major over (the other dims in order, dim): view it in
	// l's order and copy it out contiguously.
	order := make([]int, 0, len(l.Shape))
	for i := range l.Shape {
		if i != dim {
			order = append(order, i)
		}
	}
	order = append(order, dim)
	permuted := make([]int, len(order))
	for i, o := range order {
		permuted[i] = l.Shape[o]
	}
	tl := backend.Contiguous(permuted)
	back := backend.Layout{Shape: append([]int(nil), l.Shape...), Strides: make([]int, len(l.Shape))}
	for i, o := range order {
		back.Strides[o] = tl.Strides[i]
	}
	out := b.Alloc(dt, n)
	b.Copy(tmp, back, out, backend.Contiguous(l.Shape))
	return out
}

// Argsort returns the Int64 positions that sort each slice of s along dim,
// stably, NaN last (first when descending).
func (b *deviceBackend) Argsort(s backend.Storage, l backend.Layout, dim int, descending bool) backend.Storage {
	desc := int32(0)
	if descending {
		desc = 1
	}
	return b.byRows(kernels.Argsort, s, l, dim, tensor.Int64, true, desc)
}

// CumSum returns the prefix sums of s along dim (Int64 for Bool).
func (b *deviceBackend) CumSum(s backend.Storage, l backend.Layout, dim int) backend.Storage {
	if s.DType() == tensor.Bool {
		s = b.Cast(s, l, tensor.Int64)
		l = backend.Contiguous(l.Shape)
	}
	return b.byRows(kernels.Cumsum, s, l, dim, s.DType(), false)
}

// kernelOrder returns r's dims as the row kernels of sort.cu take them: the
// kept dims first, then the reduced one, with the number of kept dims.
func kernelOrder(r backend.Reduction) (shape, strides []int, nkeep int) {
	shape = append(append([]int(nil), r.KeptShape...), r.ReducedShape...)
	strides = append(append([]int(nil), r.KeptStrides...), r.ReducedStrides...)
	return shape, strides, len(r.KeptShape)
}
