// sort.cu: ordering and scanning along one dim, for transformers' sampling
// (Sort, Argsort, TopK, Multinomial) and CumSum.
//
// As in reduce.cu, the Go side permutes the layout so that the other dims
// come first (nkeep of them, nrows rows) and the sorted dim last (size
// elements): element j of row r is in[offset + at_range(l, r, 0, nkeep) +
// at_range(l, j, nkeep, ndim)]. Results are written row-major as [nrows,
// size]; the Go side moves the dim back.
//
//   argsort_<dt>(n, size, out, in, l, nkeep, descending)
//       out[r*size + rank(j)] = j, one thread per element (n = nrows*size):
//       rank(j) counts the elements of the row that sort before element j,
//       ties broken by position, so the sort is stable. It costs size
//       comparisons per element: meant for rows of up to some thousands
//       (vocabularies, attention rows).
//   cumsum_<dt>(nrows, size, out, in, l, nkeep)
//       out[r*size + j] = in[r][0] + ... + in[r][j], one thread per row,
//       floats accumulated in double.
//
// NaN sorts above every number, as in PyTorch.
#include "common.cuh"

// sorts_before reports whether (a at ia) comes before (b at ib).
template <typename T>
DEVICE bool sorts_before(T a, long long ia, T b, long long ib, bool descending) {
  bool an = is_nan(a), bn = is_nan(b);
  if (an || bn) {
    if (an && bn) return ia < ib;
    return descending ? an : bn;  // NaN is the largest
  }
  if (a == b) return ia < ib;
  return descending ? a > b : a < b;
}

template <typename T>
DEVICE void argsort(long long n, long long size, long long* out, const T* in, const Layout& l, int nkeep,
                    int descending) {
  FOR_EACH(i, n) {
    long long r = i / size, j = i % size;
    const T* base = in + l.offset + at_range(l, r, 0, nkeep);
    T v = base[at_range(l, j, nkeep, l.ndim)];
    long long rank = 0;
    for (long long k = 0; k < size; k++) {
      if (k != j && sorts_before(base[at_range(l, k, nkeep, l.ndim)], k, v, j, descending != 0)) rank++;
    }
    out[r * size + rank] = j;
  }
}

#define ARGSORT(T, dt)                                                                                 \
  KERNEL argsort_##dt(long long n, long long size, long long* out, const T* in, Layout l, int nkeep,  \
                      int descending) {                                                                \
    argsort<T>(n, size, out, in, l, nkeep, descending);                                                \
  }
ARGSORT(float, f32)
ARGSORT(double, f64)
ARGSORT(long long, i64)

template <typename T> struct scan_acc { typedef double type; };
template <> struct scan_acc<long long> { typedef long long type; };

template <typename T>
DEVICE void cumsum(long long nrows, long long size, T* out, const T* in, const Layout& l, int nkeep) {
  FOR_EACH(r, nrows) {
    const T* base = in + l.offset + at_range(l, r, 0, nkeep);
    typename scan_acc<T>::type acc = 0;
    for (long long j = 0; j < size; j++) {
      acc += base[at_range(l, j, nkeep, l.ndim)];
      out[r * size + j] = T(acc);
    }
  }
}

#define CUMSUM(T, dt)                                                                                  \
  KERNEL cumsum_##dt(long long nrows, long long size, T* out, const T* in, Layout l, int nkeep) {     \
    cumsum<T>(nrows, size, out, in, l, nkeep);                                                         \
  }
CUMSUM(float, f32)
CUMSUM(double, f64)
CUMSUM(long long, i64)
