package cuda

import (
	"fmt"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/tensorlib/tensor"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// gemmOperand is a row-major matrix operand [batch, rows, cols] as cuBLAS
// sees it: column-major storage of X (trans) or of Xᵀ (not trans), with
// leading dimension ld and a batch stride (0 broadcasts one matrix).
type gemmOperand struct {
	s      *storage
	offset int
	trans  bool // the storage holds X column-major
	ld     int
	stride int
	tmp    *storage // a contiguous copy made for the call, or nil
}

// matrixOperand maps the view l, shaped [batch..., rows, cols], onto
// cuBLAS's arguments (see backend.MatrixOperand), copying it to contiguous
// memory when its strides cannot be expressed (inner stride not 1 in
// either dim, or batch dims that do not merge into one stride). Inside do
// only.
func (d *device) matrixOperand(s *storage, l backend.Layout) gemmOperand {
	nd := len(l.Shape)
	rows, cols := l.Shape[nd-2], l.Shape[nd-1]
	rs, cs := l.Strides[nd-2], l.Strides[nd-1]
	// The batch dims must merge into one (count, stride).
	bshape, bst := backend.Coalesce(l.Shape[:nd-2], backend.Layout{Shape: l.Shape[:nd-2], Strides: l.Strides[:nd-2]})
	stride, batchOK := 0, len(bshape) <= 1
	if len(bshape) == 1 {
		stride = bst[0][0]
	}
	if batchOK {
		if trans, ld, ok := backend.MatrixOperand(rows, cols, rs, cs); ok {
			return gemmOperand{s: s, offset: l.Offset, trans: trans, ld: ld, stride: stride}
		}
	}
	c := d.contiguous(s, l)
	return gemmOperand{s: c, ld: max(1, cols), stride: rows * cols, tmp: c}
}

// MatMul returns the batched product of a [batch..., m, k] and b
// [batch..., k, n]. Float32 and Float64 go to cuBLAS (sgemm, dgemm):
// the row-major product C = A·B is the column-major product Cᵀ = Bᵀ·Aᵀ,
// so B is passed as cuBLAS's first operand and A as its second, and
// each operand's memory, read column-major, is already its transpose
// (or, for a transposed view, the matrix itself with trans set). Int64
// uses a plain kernel.
func (b *deviceBackend) MatMul(x backend.Storage, la backend.Layout, y backend.Storage, lb backend.Layout) backend.Storage {
	xs, ys := b.store(x), b.store(y)
	nd := len(la.Shape)
	m, k, n := la.Shape[nd-2], la.Shape[nd-1], lb.Shape[nd-1]
	batch := backend.Numel(la.Shape[:nd-2])
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.zeroStorage(xs.dt, batch*m*n)
		if batch == 0 || m == 0 || n == 0 || k == 0 {
			return
		}
		if xs.dt == tensor.Int64 {
			d.matmulInt(out, xs, la, ys, lb, batch, m, n, k)
			return
		}
		if xs.dt != tensor.Float32 && xs.dt != tensor.Float64 {
			panic("cuda: MatMul on " + xs.dt.String())
		}
		A := d.matrixOperand(xs, la)
		B := d.matrixOperand(ys, lb)
		defer func() {
			if A.tmp != nil {
				A.tmp.Free()
			}
			if B.tmp != nil {
				B.tmp.Free()
			}
		}()
		g := driver.GemmArgs{
			Double: xs.dt == tensor.Float64,
			TransA: driver.Transpose(B.trans), TransB: driver.Transpose(A.trans),
			M: n, N: m, K: k, Alpha: 1, Beta: 0,
			A: B.s.at(B.offset), LDA: B.ld, StrideA: int64(B.stride),
			B: A.s.at(A.offset), LDB: A.ld, StrideB: int64(A.stride),
			C: out.ptr, LDC: n, StrideC: int64(m * n),
			Batch: batch,
		}
		if err := d.drv.Gemm(g); err != nil {
			d.fail(err, fmt.Sprintf("cuBLAS GEMM for MatMul %v @ %v", la.Shape, lb.Shape))
		}
	})
	return out
}

// matmulInt multiplies Int64 matrices with the matmul_i64 kernel.
func (d *device) matmulInt(out, xs *storage, la backend.Layout, ys *storage, lb backend.Layout, batch, m, n, k int) {
	flat := func(s *storage, l backend.Layout) (*storage, backend.Layout) {
		nd := len(l.Shape)
		bshape, bst := backend.Coalesce(l.Shape[:nd-2], backend.Layout{Shape: l.Shape[:nd-2], Strides: l.Strides[:nd-2]})
		if len(bshape) > 1 {
			s = d.contiguous(s, l)
			l = backend.Contiguous(l.Shape)
			return flatLayout(s, l, batch)
		}
		stride := 0
		if len(bshape) == 1 {
			stride = bst[0][0]
		}
		return s, backend.Layout{Shape: []int{batch, l.Shape[nd-2], l.Shape[nd-1]},
			Strides: []int{stride, l.Strides[nd-2], l.Strides[nd-1]}, Offset: l.Offset}
	}
	xs, la = flat(xs, la)
	ys, lb = flat(ys, lb)
	total := batch * m * n
	a := d.newArgs()
	a.I64(int64(total)).Ptr(out.ptr).Ptr(xs.ptr)
	packRaw(a, la)
	a.Ptr(ys.ptr)
	packRaw(a, lb)
	a.I64(int64(m)).I64(int64(n)).I64(int64(k))
	d.elementwise("matmul_i64", int64(total), a)
}

// flatLayout views contiguous [batch..., r, c] storage as [batch, r, c].
func flatLayout(s *storage, l backend.Layout, batch int) (*storage, backend.Layout) {
	nd := len(l.Shape)
	r, c := l.Shape[nd-2], l.Shape[nd-1]
	return s, backend.Layout{Shape: []int{batch, r, c}, Strides: []int{r * c, c, 1}}
}
