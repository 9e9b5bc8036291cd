package cuda

import (
	"fmt"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/kernels"
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

// maxGemmCalls is the most strided-batched GEMM calls MatMul makes for
// one product whose batch dims do not merge into one stride (as for
// q.MatMul(k.Transpose(-2, -1)) on heads split by Permute(0, 2, 1, 3));
// beyond it the operands are copied to contiguous memory and multiplied
// in one call.
const maxGemmCalls = 8

// gemmTile is the side of the output tile a cuBLAS GEMM block computes
// (about: 64 to 256 by kernel), used to judge whether one call of a
// looped batch has blocks for the whole device.
const gemmTile = 128

// fillsDevice reports whether a strided-batched GEMM of batch m×n
// products gives every multiprocessor several blocks. A looped product
// whose calls do not is copied instead: on an H100 the eight calls of
// attention's q·kᵀ over [32 8 256 64] split heads (128 blocks each, for
// 132 multiprocessors) took longer than copying q and making one call.
func (d *device) fillsDevice(batch, m, n int) bool {
	tiles := ((m + gemmTile - 1) / gemmTile) * ((n + gemmTile - 1) / gemmTile)
	return batch*tiles >= 4*max(1, d.props.MultiProcessors)
}

// MatMul returns the batched product of a [batch..., m, k] and b
// [batch..., k, n]. Float32 and Float64 go to cuBLAS's strided batched
// GEMM (sgemm, dgemm; Float32 as TF32 when SetFloat32MatmulPrecision
// allows it), BFloat16 and Float16 to its GemmEx on the tensor cores,
// summing in float32: the row-major product C = A·B is the
// column-major product Cᵀ = Bᵀ·Aᵀ, so B is passed as cuBLAS's first
// operand and A as its second, and each operand's memory, read
// column-major, is already its transpose (or, for a transposed view, the
// matrix itself with trans set). A batch dim an operand is broadcast
// along is a batch stride of 0, so nothing is copied for strides cuBLAS
// can express; batch dims that merge into one stride in neither operand
// are looped over (up to maxGemmCalls calls), and only layouts GEMM
// cannot express are copied. Int64 uses a plain kernel.
func (b *deviceBackend) MatMul(x backend.Storage, la backend.Layout, y backend.Storage, lb backend.Layout) backend.Storage {
	xs, ys := b.store(x), b.store(y)
	nd := len(la.Shape)
	m, k, n := la.Shape[nd-2], la.Shape[nd-1], lb.Shape[nd-1]
	batch := backend.Numel(la.Shape[:nd-2])
	var out *storage
	d := b.dev
	d.do(func() {
		if batch == 0 || m == 0 || n == 0 || k == 0 {
			out = d.zeroStorage(xs.dt, batch*m*n)
			return
		}
		out = d.newStorage(xs.dt, batch*m*n) // every element is written
		if xs.dt == tensor.Int64 {
			d.matmulInt(out, xs, la, ys, lb, batch, m, n, k)
			return
		}
		if !xs.dt.IsFloat() {
			panic("cuda: MatMul on " + xs.dt.String())
		}
		if d.matmulLooped(out, xs, la, ys, lb) {
			return
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
		d.gemm(la, lb, A, B, out, 0, m*n, batch)
	})
	return out
}

// gemm runs out[cOff + i*cStride] = A_i · B_i for i < batch with one
// cuBLAS call (see MatMul for the operand order). Inside do only.
func (d *device) gemm(la, lb backend.Layout, A, B gemmOperand, out *storage, cOff, cStride, batch int) {
	nd := len(la.Shape)
	m, k, n := la.Shape[nd-2], la.Shape[nd-1], lb.Shape[nd-1]
	g := driver.GemmArgs{
		Double: out.dt == tensor.Float64,
		Half:   halfOf(out.dt),
		TF32:   tf32(out.dt),
		TransA: driver.Transpose(B.trans), TransB: driver.Transpose(A.trans),
		M: n, N: m, K: k, Alpha: 1, Beta: 0,
		A: B.s.at(B.offset), LDA: B.ld, StrideA: int64(B.stride),
		B: A.s.at(A.offset), LDB: A.ld, StrideB: int64(A.stride),
		C: out.at(cOff), LDC: n, StrideC: int64(cStride),
		Batch: batch,
	}
	name := "gemm"
	if profiling.Load() { // the name only when it is recorded: no formatting per call
		name = fmt.Sprintf("gemm %d×%d×%d ×%d", g.M, g.N, g.K, g.Batch)
	}
	d.timed(name, func() {
		if err := d.drv.Gemm(g); err != nil {
			d.fail(err, fmt.Sprintf("cuBLAS GEMM for MatMul %v @ %v", la.Shape, lb.Shape))
		}
	})
}

// matmulLooped multiplies without copies when both matrices are views
// GEMM takes but the batch dims merge into more than one stride: it loops
// over all batch dims but the longest, which becomes the GEMM's batch. It
// reports false, doing nothing, when the batch merges into one stride
// (then one call does it) or would take more than maxGemmCalls calls.
// Inside do only.
func (d *device) matmulLooped(out, xs *storage, la backend.Layout, ys *storage, lb backend.Layout) bool {
	nd := len(la.Shape)
	m, k, n := la.Shape[nd-2], la.Shape[nd-1], lb.Shape[nd-1]
	ta, lda, okA := backend.MatrixOperand(m, k, la.Strides[nd-2], la.Strides[nd-1])
	tb, ldb, okB := backend.MatrixOperand(k, n, lb.Strides[nd-2], lb.Strides[nd-1])
	if !okA || !okB || nd <= 3 {
		return false
	}
	bshape := la.Shape[:nd-2]
	cl := backend.Contiguous(bshape)
	for i := range cl.Strides {
		cl.Strides[i] *= m * n
	}
	merged, st := backend.Coalesce(bshape,
		backend.Layout{Shape: bshape, Strides: la.Strides[:nd-2]},
		backend.Layout{Shape: bshape, Strides: lb.Strides[:nd-2]}, cl)
	if len(merged) <= 1 {
		return false
	}
	p := 0 // the GEMM's batch dim: the longest
	for i, s := range merged {
		if s > merged[p] {
			p = i
		}
	}
	calls := backend.Numel(merged) / merged[p]
	if calls > maxGemmCalls || !d.fillsDevice(merged[p], m, n) {
		return false
	}
	idx := make([]int, len(merged))
	for c := 0; c < calls; c++ {
		offA, offB, offC := la.Offset, lb.Offset, 0
		for i, v := range idx {
			offA += v * st[0][i]
			offB += v * st[1][i]
			offC += v * st[2][i]
		}
		A := gemmOperand{s: xs, offset: offA, trans: ta, ld: lda, stride: st[0][p]}
		B := gemmOperand{s: ys, offset: offB, trans: tb, ld: ldb, stride: st[1][p]}
		d.gemm(la, lb, A, B, out, offC, st[2][p], merged[p])
		// The next index over the dims other than p, last dim fastest.
		for i := len(idx) - 1; i >= 0; i-- {
			if i == p {
				continue
			}
			if idx[i]++; idx[i] < merged[i] {
				break
			}
			idx[i] = 0
		}
	}
	return true
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
	d.elementwise(kernels.MatmulI64, int64(total), a)
}

// flatLayout views contiguous [batch..., r, c] storage as [batch, r, c].
func flatLayout(s *storage, l backend.Layout, batch int) (*storage, backend.Layout) {
	nd := len(l.Shape)
	r, c := l.Shape[nd-2], l.Shape[nd-1]
	return s, backend.Layout{Shape: []int{batch, r, c}, Strides: []int{r * c, c, 1}}
}
