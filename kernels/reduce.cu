// reduce.cu: reductions of a strided tensor over a set of dims.
//
// The Go side permutes the layout so that the kept dims come first (nkeep
// of them, nout elements) and the reduced dims last (nred elements): output
// r reduces in[offset + at_range(l, r, 0, nkeep) + at_range(l, j, nkeep,
// ndim)] over j.
//
//   <op>_<dt>(nout, nred, out, in, l, nkeep)          one block per output,
//                                                     shared-memory tree
//   <op>_serial_<dt>(nout, nred, out, in, l, nkeep)   one thread per output,
//                                                     for short reductions
//
// op is sum, max or min (out has in's dtype) or argmax, argmin (out is
// long long). Max and min propagate NaN; argmax and argmin return the
// first extreme, NaN counting as both the maximum and the minimum, as in
// PyTorch. Launch the block kernels with at most REDUCE_THREADS threads, a
// power of two.
#include "common.cuh"

template <typename T> struct SumOp {
  DEVICE T identity() const { return T(0); }
  DEVICE T operator()(T a, T b) const { return a + b; }
};
template <typename T> struct MaxOp {
  DEVICE T identity() const { return limits<T>::lowest(); }
  DEVICE T operator()(T a, T b) const { return (b > a || is_nan(b)) && !is_nan(a) ? b : a; }
};
template <typename T> struct MinOp {
  DEVICE T identity() const { return limits<T>::highest(); }
  DEVICE T operator()(T a, T b) const { return (b < a || is_nan(b)) && !is_nan(a) ? b : a; }
};

template <typename T, typename Op>
DEVICE void reduce_block(long long nout, long long nred, T* out, const T* in, const Layout& l, int nkeep) {
  __shared__ T buf[REDUCE_THREADS];
  Op op;
  unsigned t = threadIdx.x;
  FOR_EACH_BLOCK(r, nout) {
    const T* base = in + l.offset + at_range(l, r, 0, nkeep);
    T acc = op.identity();
    for (long long j = t; j < nred; j += blockDim.x) acc = op(acc, base[at_range(l, j, nkeep, l.ndim)]);
    buf[t] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (t < s) buf[t] = op(buf[t], buf[t + s]);
      __syncthreads();
    }
    if (t == 0) out[r] = buf[0];
    __syncthreads();
  }
}

template <typename T, typename Op>
DEVICE void reduce_serial(long long nout, long long nred, T* out, const T* in, const Layout& l, int nkeep) {
  Op op;
  FOR_EACH(r, nout) {
    const T* base = in + l.offset + at_range(l, r, 0, nkeep);
    T acc = op.identity();
    for (long long j = 0; j < nred; j++) acc = op(acc, base[at_range(l, j, nkeep, l.ndim)]);
    out[r] = acc;
  }
}

// better reports whether (b at ib) beats (a at ia) for argmax (max true) or
// argmin: NaN beats numbers, ties go to the lower index.
template <typename T> DEVICE bool better(bool max, T a, long long ia, T b, long long ib) {
  if (is_nan(a)) return is_nan(b) && ib < ia;
  if (is_nan(b)) return true;
  if (b == a) return ib < ia;
  return max ? b > a : b < a;
}

template <typename T>
DEVICE void arg_block(bool max, long long nout, long long nred, long long* out, const T* in, const Layout& l,
                      int nkeep) {
  __shared__ T val[REDUCE_THREADS];
  __shared__ long long idx[REDUCE_THREADS];
  unsigned t = threadIdx.x;
  FOR_EACH_BLOCK(r, nout) {
    const T* base = in + l.offset + at_range(l, r, 0, nkeep);
    T best = max ? limits<T>::lowest() : limits<T>::highest();
    long long bi = LLONG_MAX;
    for (long long j = t; j < nred; j += blockDim.x) {
      T v = base[at_range(l, j, nkeep, l.ndim)];
      if (better(max, best, bi, v, j)) best = v, bi = j;
    }
    val[t] = best;
    idx[t] = bi;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (t < s && better(max, val[t], idx[t], val[t + s], idx[t + s])) {
        val[t] = val[t + s];
        idx[t] = idx[t + s];
      }
      __syncthreads();
    }
    if (t == 0) out[r] = idx[0];
    __syncthreads();
  }
}

template <typename T>
DEVICE void arg_serial(bool max, long long nout, long long nred, long long* out, const T* in, const Layout& l,
                       int nkeep) {
  FOR_EACH(r, nout) {
    const T* base = in + l.offset + at_range(l, r, 0, nkeep);
    T best = max ? limits<T>::lowest() : limits<T>::highest();
    long long bi = LLONG_MAX;
    for (long long j = 0; j < nred; j++) {
      T v = base[at_range(l, j, nkeep, l.ndim)];
      if (better(max, best, bi, v, j)) best = v, bi = j;
    }
    out[r] = bi;
  }
}

#define REDUCE(name, Op, T, dt)                                                                             \
  KERNEL name##_##dt(long long nout, long long nred, T* out, const T* in, Layout l, int nkeep) {            \
    reduce_block<T, Op<T>>(nout, nred, out, in, l, nkeep);                                                  \
  }                                                                                                         \
  KERNEL name##_serial_##dt(long long nout, long long nred, T* out, const T* in, Layout l, int nkeep) {     \
    reduce_serial<T, Op<T>>(nout, nred, out, in, l, nkeep);                                                 \
  }

#define ARG(name, max, T, dt)                                                                               \
  KERNEL name##_##dt(long long nout, long long nred, long long* out, const T* in, Layout l, int nkeep) {    \
    arg_block<T>(max, nout, nred, out, in, l, nkeep);                                                       \
  }                                                                                                         \
  KERNEL name##_serial_##dt(long long nout, long long nred, long long* out, const T* in, Layout l, int nkeep) { \
    arg_serial<T>(max, nout, nred, out, in, l, nkeep);                                                      \
  }

#define REDUCE_ALL(T, dt) \
  REDUCE(sum, SumOp, T, dt) REDUCE(max, MaxOp, T, dt) REDUCE(min, MinOp, T, dt) ARG(argmax, true, T, dt) ARG(argmin, false, T, dt)

REDUCE_ALL(float, f32)
REDUCE_ALL(double, f64)
REDUCE_ALL(long long, i64)
