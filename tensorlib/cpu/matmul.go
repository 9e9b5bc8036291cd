package cpu

import (
	"runtime"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

func (b Backend) MatMul(a backend.Storage, la backend.Layout, bs backend.Storage, lb backend.Layout) backend.Storage {
	as, bst := store(a), store(bs)
	nd := len(la.Shape)
	m, k, n := la.Shape[nd-2], la.Shape[nd-1], lb.Shape[nd-1]
	bshape := la.Shape[:nd-2]
	batch := backend.Numel(bshape)
	out := newStorage(as.dtype, batch*m*n)
	if batch == 0 || m == 0 || n == 0 || k == 0 {
		return out
	}
	// A batch of products runs them in parallel, each on one goroutine,
	// unless there are too few to keep every core busy and each is large
	// enough for the GEMM to run on several threads itself.
	inParallel := batch > 1 && (batch >= 2*runtime.GOMAXPROCS(0) || m*n*k < 1<<21)
	sg, dg := sgemm, dgemm
	if inParallel {
		sg, dg = sgemmSerial, dgemmSerial
	}
	one := func(i int) {
		ao := la.Offset + offsetOf(i, bshape, la.Strides[:nd-2])
		bo := lb.Offset + offsetOf(i, bshape, lb.Strides[:nd-2])
		co := i * m * n
		switch as.dtype {
		case Float32:
			gemmBlock(sg, out.f32[co:co+m*n], as.f32, ao, la.Strides[nd-2], la.Strides[nd-1],
				bst.f32, bo, lb.Strides[nd-2], lb.Strides[nd-1], m, n, k)
		case Float64:
			gemmBlock(dg, out.f64[co:co+m*n], as.f64, ao, la.Strides[nd-2], la.Strides[nd-1],
				bst.f64, bo, lb.Strides[nd-2], lb.Strides[nd-1], m, n, k)
		case Int64:
			naiveMatMul(out.i64[co:co+m*n], as.i64, ao, la.Strides[nd-2], la.Strides[nd-1],
				bst.i64, bo, lb.Strides[nd-2], lb.Strides[nd-1], m, n, k)
		default:
			panic("tensor: MatMul on " + as.dtype.String())
		}
	}
	if inParallel {
		parallelFor(batch, max(1, (1<<16)/(m*n*k)), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				one(i)
			}
		})
		return out
	}
	for i := 0; i < batch; i++ {
		one(i)
	}
	return out
}

type gemmFunc[T float] func(transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)

// gemmBlock multiplies the m×k matrix at a[ao] (row stride ars, column
// stride acs) by the k×n matrix at b[bo] into the contiguous c. A matrix
// whose columns or rows are unit-stride goes to GEMM as is (transposed when
// needed); any other view is packed first.
func gemmBlock[T float](gemm gemmFunc[T], c, a []T, ao, ars, acs int, b []T, bo, brs, bcs int, m, n, k int) {
	ta, lda, pa := gemmOperand(a, ao, ars, acs, m, k)
	tb, ldb, pb := gemmOperand(b, bo, brs, bcs, k, n)
	gemm(ta, tb, m, n, k, 1, pa, lda, pb, ldb, 0, c, n)
}

// gemmOperand returns how to pass the rows×cols matrix at x[o], with row
// stride rs and column stride cs, to a row-major GEMM: transposed or not,
// its leading dimension, and the slice to pass (a packed copy when GEMM
// cannot read the view in place; see backend.MatrixOperand).
func gemmOperand[T float](x []T, o, rs, cs, rows, cols int) (bool, int, []T) {
	if trans, ld, ok := backend.MatrixOperand(rows, cols, rs, cs); ok {
		return trans, ld, x[o:]
	}
	return packed(x, o, rs, cs, rows, cols)
}

func packed[T float](x []T, o, rs, cs, rows, cols int) (bool, int, []T) {
	p := make([]T, rows*cols)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			p[i*cols+j] = x[o+i*rs+j*cs]
		}
	}
	return false, cols, p
}

func naiveMatMul(c, a []int64, ao, ars, acs int, b []int64, bo, brs, bcs int, m, n, k int) {
	for i := 0; i < m; i++ {
		for p := 0; p < k; p++ {
			av := a[ao+i*ars+p*acs]
			row := c[i*n : i*n+n]
			bp := bo + p*brs
			for j := range row {
				row[j] += av * b[bp+j*bcs]
			}
		}
	}
}
