// copy.cu: strided copies, dtype casts, fills and aranges.
//
//   copy_<dt>(n, dst, dl, src, sl)        dst under dl = src under sl
//   cast_<from>_<to>(n, dst, src, sl)     contiguous dst = (to) src under sl
//   fill_<dt>(n, dst, dl, v)              dst under dl = v
//   arange_<dt>(n, dst, start, step)      dst[i] = start + i*step
//
// dtypes: f32 (float), f64 (double), i64 (long long), bool (unsigned char,
// 0 or 1). Casts truncate floats toward zero for i64 and map nonzero to 1
// for bool, as the CPU backend does.
#include "common.cuh"

template <typename T>
DEVICE void copy_strided(long long n, T* dst, const Layout& dl, const T* src, const Layout& sl) {
  if (dl.contig && sl.contig) {
    T* d = dst + dl.offset;
    const T* s = src + sl.offset;
    FOR_EACH(i, n) d[i] = s[i];
  } else {
    FOR_EACH(i, n) dst[at(dl, i)] = src[at(sl, i)];
  }
}

#define COPY(T, dt) \
  KERNEL copy_##dt(long long n, T* dst, Layout dl, const T* src, Layout sl) { copy_strided<T>(n, dst, dl, src, sl); }
COPY(float, f32)
COPY(double, f64)
COPY(long long, i64)
COPY(unsigned char, bool)

template <typename D, typename S> struct Convert {
  DEVICE static D apply(S v) { return (D)v; }
};
template <typename S> struct Convert<unsigned char, S> {
  DEVICE static unsigned char apply(S v) { return v != S(0) ? 1 : 0; }
};

template <typename D, typename S>
DEVICE void cast(long long n, D* dst, const S* src, const Layout& sl) {
  FOR_EACH(i, n) dst[i] = Convert<D, S>::apply(src[at(sl, i)]);
}

#define CAST(S, sn, D, dn) \
  KERNEL cast_##sn##_##dn(long long n, D* dst, const S* src, Layout sl) { cast<D, S>(n, dst, src, sl); }
#define CAST_FROM(S, sn) \
  CAST(S, sn, float, f32) CAST(S, sn, double, f64) CAST(S, sn, long long, i64) CAST(S, sn, unsigned char, bool)
CAST_FROM(float, f32)
CAST_FROM(double, f64)
CAST_FROM(long long, i64)
CAST_FROM(unsigned char, bool)

template <typename T>
DEVICE void fill(long long n, T* dst, const Layout& dl, double v) {
  T x = Convert<T, double>::apply(v);
  FOR_EACH(i, n) dst[at(dl, i)] = x;
}

template <typename T>
DEVICE void arange(long long n, T* dst, double start, double step) {
  FOR_EACH(i, n) dst[i] = Convert<T, double>::apply(start + (double)i * step);
}

#define FILL(T, dt)                                                                             \
  KERNEL fill_##dt(long long n, T* dst, Layout dl, double v) { fill<T>(n, dst, dl, v); }      \
  KERNEL arange_##dt(long long n, T* dst, double start, double step) { arange<T>(n, dst, start, step); }
FILL(float, f32)
FILL(double, f64)
FILL(long long, i64)
FILL(unsigned char, bool)
