// elementwise.cuh: the fast path of the elementwise kernels
// (elementwise.cu, compare.cu).
//
// An elementwise kernel writes a dense output of n elements. When n fits
// in 32 bits and every input reads as an Operand (below), the kernel runs
// ew_loop: 32-bit indices, and, when every operand and the output allow,
// V elements at a time (16-byte loads and stores, V = VecWidth<T>::n: 4
// floats, 2 doubles) with the last n % V elements one at a time. Other
// layouts take the strided path of each kernel, which indexes every
// element through its Layout.
#pragma once

#include "common.cuh"

// The ways an Operand reads element i of the output's row-major order.
enum {
  OPERAND_DENSE,   // p[i]
  OPERAND_SCALAR,  // p[0]: every stride 0 (a 0-d tensor broadcast)
  OPERAND_BCAST,   // p[(i / inner) % c]: one dim of stride 1 and size c,
                   // all others of stride 0 (a bias row [C] over [N, C],
                   // a channel vector over [N, C, H*W], a column over
                   // [N, C]); inner is the product of the sizes after it
};

template <typename T> struct Operand {
  const T* p;
  int mode;
  unsigned inner, c;

  DEVICE T at(unsigned i) const {
    switch (mode) {
      case OPERAND_DENSE: return p[i];
      case OPERAND_SCALAR: return p[0];
      default: return p[(i / inner) % c];
    }
  }

  // vectorizable reports whether vec<N> may read this operand.
  template <int N> DEVICE bool vectorizable() const {
    switch (mode) {
      case OPERAND_DENSE: return is_aligned<N>(p);
      case OPERAND_SCALAR: return true;
      default: return inner % N == 0 || (inner == 1 && c % N == 0 && is_aligned<N>(p));
    }
  }

  // vec returns elements i to i+N-1, i a multiple of N.
  template <int N> DEVICE Vec<T, N> vec(unsigned i) const {
    if (mode == OPERAND_DENSE) return load_vec<N>(p + i);
    if (mode == OPERAND_BCAST && inner == 1) return load_vec<N>(p + i % c);
    T x = mode == OPERAND_SCALAR ? p[0] : p[(i / inner) % c];
    Vec<T, N> v;
#ifdef __CUDACC__
#pragma unroll
#endif
    for (int e = 0; e < N; e++) v.v[e] = x;
    return v;
  }
};

// as_operand reports whether the view l of base, over the output's n
// elements, reads as an Operand, and sets o.
template <typename T> DEVICE bool as_operand(const T* base, const Layout& l, long long n, Operand<T>& o) {
  if (n > INT_MAX) return false;
  o.p = base + l.offset;
  o.mode = OPERAND_DENSE;
  o.inner = o.c = 1;
  if (l.contig) return true;
  // Dense, or at most one dim of nonzero stride, which is 1.
  long long want = 1, inner = 1;
  bool dense = true;
  int moving = -1;
  for (int d = l.ndim - 1; d >= 0; d--) {
    long long s = l.shape[d], st = l.strides[d];
    if (s != 1 && st != want) dense = false;
    if (s != 1 && st != 0) {
      if (moving >= 0 || st != 1) moving = -2;
      if (moving == -1) moving = d;
    }
    if (moving == -1) inner *= s;
    want *= s;
  }
  if (dense) return true;
  if (moving == -1) {
    o.mode = OPERAND_SCALAR;
    return true;
  }
  if (moving < 0) return false;
  o.mode = OPERAND_BCAST;
  o.inner = (unsigned)inner;
  o.c = (unsigned)l.shape[moving];
  return true;
}

// ew_loop writes out[i] = f(i) for i in [0, n) over the grid, and, when
// vec, out[i..i+V) = fv(i) (a Vec<TO, V>) for i a multiple of V below n.
template <int V, typename TO, typename F, typename FV>
DEVICE void ew_loop(long long n, TO* out, bool vec, F f, FV fv) {
  unsigned m = (unsigned)n;
  unsigned i0 = blockIdx.x * blockDim.x + threadIdx.x, stride = blockDim.x * gridDim.x;
  unsigned nv = vec && is_aligned<V>(out) ? m / V : 0;
  for (unsigned k = i0; k < nv; k += stride) store_vec<V>(out + k * V, fv(k * V));
  for (unsigned i = nv * V + i0; i < m; i += stride) out[i] = f(i);
}
