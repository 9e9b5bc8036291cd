// rows.cuh holds what the fused row kernels (softmax.cu, norm.cu) share: a
// view of a tensor as rows, the reduction of a value over the threads that
// work on one row, and the running statistics those kernels combine.
//
// A row view is a Layout whose last dim is the row (n elements, stride
// strides[ndim-1]) and whose first ndim-1 dims enumerate the rows; the Go
// side (cuda.rowLayouts) builds it, merging dims where it can.
//
// Row kernels split a block into groups of G threads (G a power of two
// that divides blockDim.x); each group works on one row, so short rows
// keep every thread busy and long ones get the whole block. Reductions
// over a group use warp shuffles (common.cuh), and shared memory with
// __syncthreads, that every thread of the block reaches the same number of
// times, only for groups larger than a warp.
#pragma once

#include "common.cuh"

// row_base returns the buffer offset of row r's first element.
DEVICE long long row_base(const Layout& l, long long r) {
  int nkeep = l.ndim - 1;
  if (nkeep <= 0) return l.offset;
  if (nkeep == 1) return l.offset + r * l.strides[0];
  return l.offset + at_range(l, r, 0, nkeep);
}

// row_stride returns the stride of the elements of a row.
DEVICE long long row_stride(const Layout& l) { return l.strides[l.ndim - 1]; }

// FOR_EACH_ROW runs its body for the row r of the calling thread's group
// in each batch of rows that the block takes; active says whether r is a
// row (every thread runs the body the same number of times, so that the
// body may synchronize).
#define FOR_EACH_ROW(r, active, rows, G)                                                           \
  for (long long base_ = (long long)blockIdx.x * (blockDim.x / (G)); base_ < (rows);               \
       base_ += (long long)gridDim.x * (blockDim.x / (G)))                                         \
    for (long long r = base_ + threadIdx.x / (G), once_ = 0; once_ == 0; once_ = 1)                \
      for (bool active = r < (rows); once_ == 0; once_ = 1)

// ROW_CACHE is how many elements of its row each thread keeps in registers
// when the row fits (n <= ROW_CACHE*G, which the Go side's choice of G
// gives for rows of up to ROW_CACHE*blockDim.x elements): the kernels then
// read the row from memory once, as PyTorch's persistent softmax does,
// instead of once for the statistics and again for the result.
#define ROW_CACHE 4

// RowCache holds a thread's elements lane, lane+G, ... of a row.
template <typename T> struct RowCache {
  T v[ROW_CACHE];
};

// row_load fills c from row xr (stride xs, n elements) when cached is set.
template <typename T>
DEVICE void row_load(RowCache<T>& c, bool cached, const T* xr, long long xs, long long n, unsigned lane, unsigned G) {
  if (!cached) return;
  for (int k = 0; k < ROW_CACHE; k++) {
    long long j = lane + (long long)k * G;
    c.v[k] = j < n ? xr[j * xs] : T(0);
  }
}

// row_each calls fn(j, x) for the thread's elements j of the row, x read
// from c when cached is set, else from xr.
template <typename T, typename F>
DEVICE void row_each(const RowCache<T>& c, bool cached, const T* xr, long long xs, long long n, unsigned lane,
                     unsigned G, F fn) {
  if (cached) {
    for (int k = 0; k < ROW_CACHE; k++) {
      long long j = lane + (long long)k * G;
      if (j < n) fn(j, c.v[k]);
    }
  } else {
    for (long long j = lane; j < n; j += G) fn(j, xr[j * xs]);
  }
}

// row_each2 is row_each over two rows of one length, such as a gradient
// and a result.
template <typename T, typename F>
DEVICE void row_each2(const RowCache<T>& a, const RowCache<T>& b, bool cached, const T* ar, long long as,
                      const T* br, long long bs, long long n, unsigned lane, unsigned G, F fn) {
  if (cached) {
    for (int k = 0; k < ROW_CACHE; k++) {
      long long j = lane + (long long)k * G;
      if (j < n) fn(j, a.v[k], b.v[k]);
    }
  } else {
    for (long long j = lane; j < n; j += G) fn(j, ar[j * as], br[j * bs]);
  }
}

// rows_reduce combines v over the G threads of the calling thread's group
// with op (associative, not necessarily commutative) and returns the result
// to every thread of the group. A group within a warp (G <= 32) reduces
// with shuffles alone; a larger one (G a multiple of 32) reduces each of
// its warps with shuffles and then combines the warps' results in warp
// order through shared memory, with two __syncthreads. The order is fixed,
// so results do not vary from run to run. Every thread of the block must
// call it, with the same G.
template <typename V, typename Op>
DEVICE V rows_reduce(V v, unsigned G, Op op) {
  v = warp_reduce_ordered_n(v, op, G < WARP_SIZE ? (int)G : WARP_SIZE);
  if (G <= WARP_SIZE) return v;
  __shared__ V part[REDUCE_THREADS / WARP_SIZE];
  unsigned warp = threadIdx.x / WARP_SIZE, first = (threadIdx.x & ~(G - 1)) / WARP_SIZE;
  __syncthreads();  // an earlier call may still be reading part
  if (threadIdx.x % WARP_SIZE == 0) part[warp] = v;
  __syncthreads();
  V r = part[first];
  for (unsigned k = 1; k < G / WARP_SIZE; k++) r = op(r, part[first + k]);
  return r;
}

// rows_nan_max is the maximum of a and b, NaN when either is NaN.
template <typename T> DEVICE T rows_nan_max(T a, T b) { return (b > a || is_nan(b)) && !is_nan(a) ? b : a; }

// RowMaxSum is a running maximum m of a row and the sum s of exp(x - m) over
// its elements so far (online softmax). The empty row is {-Inf, 0}.
template <typename T> struct RowMaxSum {
  T m, s;
};

// RowMaxSumOp combines two running (max, sum) pairs, rescaling the sum of
// the smaller maximum. Equal maxima (infinities included) need no rescaling.
template <typename T> struct RowMaxSumOp {
  DEVICE RowMaxSum<T> operator()(RowMaxSum<T> a, RowMaxSum<T> b) const {
    T m = rows_nan_max(a.m, b.m);
    T sa = a.m == m ? a.s : a.s * m_exp(a.m - m);
    T sb = b.m == m ? b.s : b.s * m_exp(b.m - m);
    RowMaxSum<T> r = {m, sa + sb};
    return r;
  }
};

// row_ms_of returns the pair of one element: exp(x - x) is 1, except for +Inf,
// where exp(Inf - Inf) is NaN, as the two-pass form computes it.
template <typename T> DEVICE RowMaxSum<T> row_ms_of(T x) {
  RowMaxSum<T> r = {x, x == limits<T>::highest() ? T(NAN) : T(1)};
  return r;
}

// row_ms_final makes a row's (max, sum) what the two-pass form gives: a row
// whose maximum is -Inf sums exp(-Inf - -Inf) = NaN.
template <typename T> DEVICE RowMaxSum<T> row_ms_final(RowMaxSum<T> a) {
  if (a.m == limits<T>::lowest()) a.s = T(NAN);
  return a;
}

// RowWelford is a running count n, mean and sum m2 of squared deviations from
// the mean (Welford's algorithm); partial results merge with Chan's
// formula. The empty set is {0, 0, 0}.
template <typename T> struct RowWelford {
  T n, mean, m2;
};

template <typename T> DEVICE RowWelford<T> row_welford_add(RowWelford<T> a, T x) {
  a.n += T(1);
  T d = x - a.mean;
  a.mean += d / a.n;
  a.m2 += d * (x - a.mean);
  return a;
}

template <typename T> struct RowWelfordOp {
  DEVICE RowWelford<T> operator()(RowWelford<T> a, RowWelford<T> b) const {
    if (b.n == T(0)) return a;
    if (a.n == T(0)) return b;
    T n = a.n + b.n;
    T d = b.mean - a.mean;
    T f = b.n / n;
    RowWelford<T> r = {n, a.mean + d * f, a.m2 + b.m2 + d * d * a.n * f};
    return r;
  }
};

template <typename T> struct RowAddOp {
  DEVICE T operator()(T a, T b) const { return a + b; }
};

// RowPair is two sums reduced together.
template <typename T> struct RowPair {
  T a, b;
};

template <typename T> struct RowPairSumOp {
  DEVICE RowPair<T> operator()(RowPair<T> x, RowPair<T> y) const {
    RowPair<T> r = {x.a + y.a, x.b + y.b};
    return r;
  }
};

// Warp rows: the fast path of the row kernels for rows of at most
// WARP_SIZE * WARP_ROW_PER_MAX elements that are adjacent in memory
// (element stride 1; an operand may also be broadcast along its rows,
// element stride 0, as the gradient of a sum is), the rows one stride apart (the Go side's rowView.warpRows
// decides). A warp takes a row and keeps it in registers, PER elements a
// lane (lane + WARP_SIZE*k), so each element is read once and written once,
// and reductions are shuffles alone, without shared memory or block
// barriers (PyTorch's persistent softmax works the same way). Each kernel
// has an entry point for each PER, a power of two (WARP_ROW_KERNELS).
#define WARP_ROW_PER_MAX 32

// FOR_EACH_WARP_ROW runs its body for the rows r of the calling warp.
#define FOR_EACH_WARP_ROW(r, rows)                                                                   \
  for (long long r = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / WARP_SIZE; r < (rows);     \
       r += ((long long)gridDim.x * blockDim.x) / WARP_SIZE)

// WARP_ROW_KERNELS expands DEF(T, dt, P), the entry points of a warp-row
// kernel for P elements a lane, for each P.
#define WARP_ROW_KERNELS(DEF, T, dt) \
  DEF(T, dt, 1) DEF(T, dt, 2) DEF(T, dt, 4) DEF(T, dt, 8) DEF(T, dt, 16) DEF(T, dt, 32)

// warp_row_load fills v with the lane's elements of row xr (n elements,
// es apart: 1, or 0 for a row broadcast from one element), pad past the
// end.
template <typename T, int PER> DEVICE void warp_row_load(T (&v)[PER], const T* xr, long long es, int n, T pad) {
  int lane = threadIdx.x % WARP_SIZE;
  if (es == 1) {  // the common case: constant offsets from one address
    const T* p = xr + lane;
    UNROLL for (int k = 0; k < PER; k++) v[k] = lane + k * WARP_SIZE < n ? p[k * WARP_SIZE] : pad;
  } else {
    UNROLL for (int k = 0; k < PER; k++) {
      int j = lane + k * WARP_SIZE;
      v[k] = j < n ? xr[j * es] : pad;
    }
  }
}

// RowNanMaxOp is the maximum that NaN wins.
template <typename T> struct RowNanMaxOp {
  DEVICE T operator()(T a, T b) const { return rows_nan_max(a, b); }
};
