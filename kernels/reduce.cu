// reduce.cu: reductions of a strided tensor over a set of dims.
//
// The Go side (cuda/reduce.go) orders the layout's dims as the
// kernels take them, kept dims first (nkeep of them, nout outputs, row
// major), reduced dims after (nred elements a row), and picks one of two
// kernels:
//
//   <op>_rows_<dt>(nout, nred, out, part, in, l, nkeep, seglen, nsplit, chunk, group)
//
//     A group of threads reduces each row: group lanes of a warp (1 to 32,
//     a warp holding 32/group rows) for short rows, the whole block for
//     long ones. When the last reduced dim is contiguous (stride 1, seglen
//     elements; seglen is 0 otherwise), a row is nred/seglen segments of
//     seglen contiguous elements, read with 16-byte vector loads (after a
//     head of up to 3 elements that brings the address to a 16-byte
//     boundary) and 32-bit indices; other layouts take each element's
//     offset from the layout. The group's threads combine their values
//     with warp shuffles (block_reduce across warps).
//
//   <op>_cols_<dt>(nout, nred, out, part, in, l, nkeep, nsplit, chunk, tcols)
//
//     For kept dims whose last one is contiguous (stride 1, the columns)
//     and reduced dims outside it, as in Sum(0) of [N, C]: a block covers
//     tcols adjacent columns with blockDim.x/tcols threads down each, so a
//     warp reads consecutive addresses; the threads of a column combine in
//     shared memory.
//
// When outputs are too few to fill the device, each row is split into
// nsplit chunks of chunk elements, each reduced by its own group (block):
// the partial results (the ops' accumulators) go to part, [nout, nsplit],
// and a second launch, of the rows kernel over contiguous rows of nsplit,
// reduces part in a fixed order (for argmax and argmin, <op>_rows_part,
// whose input is the accumulators). No atomics: every run gives the same
// bits. With nsplit 1, results go to out.
//
// op is sum, max or min (out has in's dtype) or argmax, argmin (out is
// long long). Max and min propagate NaN; argmax and argmin return the
// first extreme, NaN counting as both the maximum and the minimum, as in
// PyTorch. Launch with blockDim.x a multiple of 32 and at most
// REDUCE_THREADS.
#include "common.cuh"

// ---- ops ----
//
// An op reduces In values to an Acc and turns the final Acc into the Out
// written: lift makes an Acc of element j of a row, operator() combines
// two (commutatively: warp_reduce relies on it), ident is the identity.

template <typename T> struct SumOp {
  typedef T In;
  typedef T Acc;
  typedef T Out;
  DEVICE Acc ident() const { return T(0); }
  DEVICE Acc lift(T x, long long) const { return x; }
  DEVICE Acc operator()(Acc a, Acc b) const { return a + b; }
  DEVICE Out out(Acc a) const { return a; }
};

// MaxOp and MinOp propagate NaN: b wins when it compares better or is
// NaN, unless a is NaN.
template <typename T> struct MaxOp {
  typedef T In;
  typedef T Acc;
  typedef T Out;
  DEVICE Acc ident() const { return limits<T>::lowest(); }
  DEVICE Acc lift(T x, long long) const { return x; }
  DEVICE Acc operator()(Acc a, Acc b) const { return (b > a || is_nan(b)) && !is_nan(a) ? b : a; }
  DEVICE Out out(Acc a) const { return a; }
};

template <typename T> struct MinOp {
  typedef T In;
  typedef T Acc;
  typedef T Out;
  DEVICE Acc ident() const { return limits<T>::highest(); }
  DEVICE Acc lift(T x, long long) const { return x; }
  DEVICE Acc operator()(Acc a, Acc b) const { return (b < a || is_nan(b)) && !is_nan(a) ? b : a; }
  DEVICE Out out(Acc a) const { return a; }
};

// ArgAcc is a candidate of argmax or argmin: a value and its index in the
// row. The Go side sizes workspaces by it (16 bytes for every T).
template <typename T> struct ArgAcc {
  T v;
  long long i;
};

// better reports whether (b at ib) beats (a at ia) for argmax (max true) or
// argmin: NaN beats numbers, ties go to the lower index.
template <typename T> DEVICE bool better(bool max, T a, long long ia, T b, long long ib) {
  if (is_nan(a)) return is_nan(b) && ib < ia;
  if (is_nan(b)) return true;
  if (b == a) return ib < ia;
  return max ? b > a : b < a;
}

template <typename T, bool Max> struct ArgOp {
  typedef T In;
  typedef ArgAcc<T> Acc;
  typedef long long Out;
  DEVICE Acc ident() const {
    Acc a;
    a.v = Max ? limits<T>::lowest() : limits<T>::highest();
    a.i = LLONG_MAX;
    return a;
  }
  DEVICE Acc lift(T x, long long j) const {
    Acc a;
    a.v = x;
    a.i = j;
    return a;
  }
  DEVICE Acc operator()(Acc a, Acc b) const { return better(Max, a.v, a.i, b.v, b.i) ? b : a; }
  DEVICE Out out(Acc a) const { return a.i; }
};

// PartOp is Op reading Op's own accumulators: the second pass of a split
// reduction.
template <typename Op> struct PartOp : Op {
  typedef typename Op::Acc In;
  typedef typename Op::Acc Acc;
  typedef typename Op::Out Out;
  DEVICE Acc lift(In a, long long) const { return a; }
};

// ---- indexing ----

template <typename T> DEVICE T min_of(T a, T b) { return b < a ? b : a; }

// offset_of returns the offset of element i of dims [lo, hi) of l, for i
// below the product of their sizes (so the outermost dim needs no modulo:
// one dim costs a multiplication).
DEVICE long long offset_of(const Layout& l, long long i, int lo, int hi) {
  if (hi <= lo) return 0;
  long long off = 0;
#ifdef __CUDACC__
#pragma unroll 1
#endif
  for (int d = hi - 1; d > lo; d--) {
    long long s = l.shape[d];
    off += (i % s) * l.strides[d];
    i /= s;
  }
  return off + i * l.strides[lo];
}

// ---- rows ----

template <typename Op, int V>
DEVICE void fold_vec(const Op& op, typename Op::Acc& a, const Vec<typename Op::In, V>& x, long long j) {
#ifdef __CUDACC__
#pragma unroll
#endif
  for (int e = 0; e < V; e++) a = op(a, op.lift(x.v[e], j + e));
}

// fold_span folds p[0, n), elements j, j+1, ... of a row, into the four
// accumulators of thread t of nt: the head up to a 16-byte boundary one
// element a thread, then vectors of V, four loads in flight, then the
// tail.
template <typename Op, int V>
DEVICE void fold_span(const Op& op, typename Op::Acc* a, const typename Op::In* p, int n, long long j, int t, int nt) {
  typedef typename Op::In In;
  int head = 0;
  if (V > 1) {
    int mis = (int)(((unsigned long long)p / sizeof(In)) % V);
    head = mis ? min_of(V - mis, n) : 0;
  }
  for (int i = t; i < head; i += nt) a[0] = op(a[0], op.lift(p[i], j + i));
  const In* q = p + head;
  int m = n - head, nv = m / V;
  long long jq = j + head;
  int k = t;
  for (; k + 3 * nt < nv; k += 4 * nt) {
    Vec<In, V> x0 = load_vec<V>(q + k * V);
    Vec<In, V> x1 = load_vec<V>(q + (k + nt) * V);
    Vec<In, V> x2 = load_vec<V>(q + (k + 2 * nt) * V);
    Vec<In, V> x3 = load_vec<V>(q + (k + 3 * nt) * V);
    fold_vec<Op, V>(op, a[0], x0, jq + k * V);
    fold_vec<Op, V>(op, a[1], x1, jq + (k + nt) * V);
    fold_vec<Op, V>(op, a[2], x2, jq + (k + 2 * nt) * V);
    fold_vec<Op, V>(op, a[3], x3, jq + (k + 3 * nt) * V);
  }
  for (; k < nv; k += nt) fold_vec<Op, V>(op, a[0], load_vec<V>(q + k * V), jq + k * V);
  for (int i = nv * V + t; i < m; i += nt) a[1] = op(a[1], op.lift(q[i], jq + i));
}

// fold_strided folds elements [j0, j1) of a row (or column) at base, each
// at its offset in the reduced dims [nkeep, ndim) of l, thread t of nt
// taking every nt-th, four loads in flight.
template <typename Op>
DEVICE void fold_strided(const Op& op, typename Op::Acc* a, const typename Op::In* base, const Layout& l, int nkeep,
                         long long j0, long long j1, int t, int nt) {
  typedef typename Op::In In;
  long long j = j0 + t;
  for (; j + 3 * nt < j1; j += 4 * nt) {
    In x0 = base[offset_of(l, j, nkeep, l.ndim)];
    In x1 = base[offset_of(l, j + nt, nkeep, l.ndim)];
    In x2 = base[offset_of(l, j + 2 * nt, nkeep, l.ndim)];
    In x3 = base[offset_of(l, j + 3 * nt, nkeep, l.ndim)];
    a[0] = op(a[0], op.lift(x0, j));
    a[1] = op(a[1], op.lift(x1, j + nt));
    a[2] = op(a[2], op.lift(x2, j + 2 * nt));
    a[3] = op(a[3], op.lift(x3, j + 3 * nt));
  }
  for (; j < j1; j += nt) a[0] = op(a[0], op.lift(base[offset_of(l, j, nkeep, l.ndim)], j));
}

template <typename Op>
DEVICE void reduce_rows(long long nout, long long nred, typename Op::Out* out, typename Op::Acc* part,
                        const typename Op::In* in, const Layout& l, int nkeep, long long seglen, int nsplit,
                        long long chunk, int group) {
  typedef typename Op::In In;
  typedef typename Op::Acc Acc;
  constexpr int V = VecWidth<In>::n;
  __shared__ Acc scratch[WARP_SIZE];
  Op op;
  long long nunits = nout * nsplit;
  bool whole = group > WARP_SIZE;  // the block is the group
  int lane = threadIdx.x % WARP_SIZE;
  int t = whole ? (int)threadIdx.x : lane % group;
  int nt = whole ? (int)blockDim.x : group;
  // ub is the first unit of this thread's warp (of its block when whole),
  // the same in all its lanes, so that they loop alike and all reach the
  // shuffles.
  long long ub, step;
  int sub;
  if (whole) {
    ub = blockIdx.x;
    step = gridDim.x;
    sub = 0;
  } else {
    ub = ((long long)blockIdx.x * blockDim.x + threadIdx.x - lane) / group;
    step = (long long)gridDim.x * blockDim.x / group;
    sub = lane / group;
  }
  for (; ub < nunits; ub += step) {
    long long u = ub + sub;
    Acc a[4] = {op.ident(), op.ident(), op.ident(), op.ident()};
    if (u < nunits) {
      long long r = u, c = 0;
      if (nsplit > 1) {
        r = u / nsplit;
        c = u - r * nsplit;
      }
      long long j0 = c * chunk, j1 = min_of(j0 + chunk, nred);
      const In* base = in + l.offset + offset_of(l, r, 0, nkeep);
      if (seglen >= nt) {
        for (long long j = j0; j < j1;) {
          long long s = j / seglen, o = j - s * seglen;
          long long n = min_of(seglen - o, j1 - j);
          fold_span<Op, V>(op, a, base + offset_of(l, s, nkeep, l.ndim - 1) + o, (int)n, j, t, nt);
          j += n;
        }
      } else {
        fold_strided<Op>(op, a, base, l, nkeep, j0, j1, t, nt);
      }
    }
    Acc v = op(op(a[0], a[1]), op(a[2], a[3]));
    v = whole ? block_reduce(v, op, scratch) : warp_reduce_n(v, op, group);
    if (t == 0 && u < nunits) {
      if (nsplit == 1) {
        out[u] = op.out(v);
      } else {
        part[u] = v;
      }
    }
  }
}

// ---- cols ----

template <typename Op>
DEVICE void reduce_cols(long long nout, long long nred, typename Op::Out* out, typename Op::Acc* part,
                        const typename Op::In* in, const Layout& l, int nkeep, int nsplit, long long chunk,
                        int tcols) {
  typedef typename Op::In In;
  typedef typename Op::Acc Acc;
  __shared__ Acc buf[REDUCE_THREADS];
  Op op;
  long long ncol = l.shape[nkeep - 1];
  long long ntile = (ncol + tcols - 1) / tcols;
  long long nunits = nout / ncol * ntile * nsplit;
  int rows = blockDim.x / tcols;
  int tx = threadIdx.x % tcols, ty = threadIdx.x / tcols;
  for (long long u = blockIdx.x; u < nunits; u += gridDim.x) {
    long long c = u % nsplit, rest = u / nsplit;
    long long tile = rest % ntile, ko = rest / ntile;
    long long k = tile * tcols + tx;
    long long j0 = c * chunk, j1 = min_of(j0 + chunk, nred);
    Acc a[4] = {op.ident(), op.ident(), op.ident(), op.ident()};
    if (k < ncol && ty < rows) {
      fold_strided<Op>(op, a, in + l.offset + offset_of(l, ko, 0, nkeep - 1) + k, l, nkeep, j0, j1, ty, rows);
    }
    buf[threadIdx.x] = op(op(a[0], a[1]), op(a[2], a[3]));
    __syncthreads();
    // A tree down each column: row ty takes row ty + s.
    for (int s = 1; s < rows; s <<= 1) {
      if (ty % (2 * s) == 0 && ty + s < rows) buf[threadIdx.x] = op(buf[threadIdx.x], buf[threadIdx.x + s * tcols]);
      __syncthreads();
    }
    if (ty == 0 && k < ncol) {
      long long r = ko * ncol + k;
      if (nsplit == 1) {
        out[r] = op.out(buf[tx]);
      } else {
        part[r * nsplit + c] = buf[tx];
      }
    }
    __syncthreads();
  }
}

// ---- entry points ----

#define ROWS(name, Op)                                                                                      \
  KERNEL name(long long nout, long long nred, Op::Out* out, Op::Acc* part, const Op::In* in, Layout l,     \
              int nkeep, long long seglen, int nsplit, long long chunk, int group) {                       \
    reduce_rows<Op>(nout, nred, out, part, in, l, nkeep, seglen, nsplit, chunk, group);                    \
  }
#define COLS(name, Op)                                                                                      \
  KERNEL name(long long nout, long long nred, Op::Out* out, Op::Acc* part, const Op::In* in, Layout l,     \
              int nkeep, int nsplit, long long chunk, int tcols) {                                         \
    reduce_cols<Op>(nout, nred, out, part, in, l, nkeep, nsplit, chunk, tcols);                            \
  }

#define REDUCE_VALUE(op, Op, T, dt) \
  typedef Op<T> op##_##dt##_t;      \
  ROWS(op##_rows_##dt, op##_##dt##_t) COLS(op##_cols_##dt, op##_##dt##_t)

#define REDUCE_ARG(op, max, T, dt)                                                  \
  typedef ArgOp<T, max> op##_##dt##_t;                                              \
  typedef PartOp<op##_##dt##_t> op##_part_##dt##_t;                                 \
  ROWS(op##_rows_##dt, op##_##dt##_t) COLS(op##_cols_##dt, op##_##dt##_t)           \
  ROWS(op##_rows_part_##dt, op##_part_##dt##_t)

#define REDUCE_ALL(T, dt)                                                                  \
  REDUCE_VALUE(sum, SumOp, T, dt) REDUCE_VALUE(max, MaxOp, T, dt) REDUCE_VALUE(min, MinOp, T, dt) \
  REDUCE_ARG(argmax, true, T, dt) REDUCE_ARG(argmin, false, T, dt)

REDUCE_ALL(float, f32)
REDUCE_ALL(double, f64)
REDUCE_ALL(long long, i64)
