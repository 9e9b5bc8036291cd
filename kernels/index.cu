// index.cu: gather and scatter-add along a dim with Int64 indices.
//
//   gather_<dt>(n, out, src, sl, idx, il, size, stride, err)
//       out[i] = src[at(sl, i) + idx[at(il, i)] * stride]
//   scatter_add_<dt>(n, dst, dl, stride, idx, il, src, sl, size, err)
//       dst[at(dl, i) + idx[at(il, i)] * stride] += src[at(sl, i)]
//
// sl (dl) is the source (destination) layout in the index's shape with
// stride 0 along the indexed dim, whose stride is passed apart; IndexSelect
// and IndexAdd are the same kernels with the 1-D index broadcast. An index
// outside [0, size) is skipped and reported through err (see
// report_index). Scatter-add uses atomics: repeated indices add up, in an
// unspecified order.
#include "common.cuh"

template <typename T>
DEVICE void gather(long long n, T* out, const T* src, const Layout& sl, const long long* idx, const Layout& il,
                   long long size, long long stride, unsigned long long* err) {
  FOR_EACH(i, n) {
    long long k = idx[at(il, i)];
    if (k < 0 || k >= size) {
      report_index(err, k, size);
      out[i] = T(0);
      continue;
    }
    out[i] = src[at(sl, i) + k * stride];
  }
}

#define GATHER(T, dt)                                                                                  \
  KERNEL gather_##dt(long long n, T* out, const T* src, Layout sl, const long long* idx, Layout il,    \
                     long long size, long long stride, unsigned long long* err) {                      \
    gather<T>(n, out, src, sl, idx, il, size, stride, err);                                            \
  }
GATHER(float, f32)
GATHER(double, f64)
GATHER(long long, i64)
GATHER(unsigned char, bool)

DEVICE void atomic_add(float* p, float v) { atomicAdd(p, v); }
DEVICE void atomic_add(double* p, double v) { atomicAdd(p, v); }
DEVICE void atomic_add(long long* p, long long v) {
  atomicAdd(reinterpret_cast<unsigned long long*>(p), (unsigned long long)v);
}

template <typename T>
DEVICE void scatter_add(long long n, T* dst, const Layout& dl, long long stride, const long long* idx,
                        const Layout& il, const T* src, const Layout& sl, long long size,
                        unsigned long long* err) {
  FOR_EACH(i, n) {
    long long k = idx[at(il, i)];
    if (k < 0 || k >= size) {
      report_index(err, k, size);
      continue;
    }
    atomic_add(&dst[at(dl, i) + k * stride], src[at(sl, i)]);
  }
}

#define SCATTER_ADD(T, dt)                                                                             \
  KERNEL scatter_add_##dt(long long n, T* dst, Layout dl, long long stride, const long long* idx,      \
                          Layout il, const T* src, Layout sl, long long size, unsigned long long* err) { \
    scatter_add<T>(n, dst, dl, stride, idx, il, src, sl, size, err);                                   \
  }
SCATTER_ADD(float, f32)
SCATTER_ADD(double, f64)
SCATTER_ADD(long long, i64)
