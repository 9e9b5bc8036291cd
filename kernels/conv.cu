// conv.cu: im2col and col2im over [N, C, H, W] tensors (max pooling is in
// pool.cu).
//
//   im2col_<dt>(total, out, in, l, g)    out [N, C*KH*KW, OH*OW] contiguous
//   col2im_<dt>(total, out, cols, cl, g) out [N, C, H, W] contiguous; cols
//                                        [N, C*KH*KW, OH*OW] under cl
//
// in (l) is any 4-d view. col2im gathers rather than scatters: each input
// element sums the columns that read it, in the CPU backend's order, so it
// needs no atomics and is deterministic.
#include "window.cuh"

template <typename T>
DEVICE void im2col(long long total, T* out, const T* in, const Layout& l, const Conv& g) {
  FOR_EACH(i, total) {
    long long r = i;
    int ow = r % g.ow; r /= g.ow;
    int oh = r % g.oh; r /= g.oh;
    int kj = r % g.kw; r /= g.kw;
    int ki = r % g.kh; r /= g.kh;
    int c = r % g.c; r /= g.c;
    long long n = r;
    int h = oh * g.sh - g.ph + ki * g.dh;
    int w = ow * g.sw - g.pw + kj * g.dw;
    T v = T(0);
    if (h >= 0 && h < g.h && w >= 0 && w < g.w)
      v = in[l.offset + n * l.strides[0] + c * l.strides[1] + h * l.strides[2] + w * l.strides[3]];
    out[i] = v;
  }
}

template <typename T>
DEVICE void col2im(long long total, T* out, const T* cols, const Layout& cl, const Conv& g) {
  FOR_EACH(i, total) {
    long long r = i;
    int w = r % g.w; r /= g.w;
    int h = r % g.h; r /= g.h;
    int c = r % g.c; r /= g.c;
    long long n = r;
    const T* base = cols + cl.offset + n * cl.strides[0];
    T acc = T(0);
    for (int ki = 0; ki < g.kh; ki++) {
      int hh = h + g.ph - ki * g.dh;
      if (hh < 0 || hh % g.sh != 0) continue;
      int oh = hh / g.sh;
      if (oh >= g.oh) continue;
      for (int kj = 0; kj < g.kw; kj++) {
        int ww = w + g.pw - kj * g.dw;
        if (ww < 0 || ww % g.sw != 0) continue;
        int ow = ww / g.sw;
        if (ow >= g.ow) continue;
        long long row = ((long long)c * g.kh + ki) * g.kw + kj;
        acc += base[row * cl.strides[1] + ((long long)oh * g.ow + ow) * cl.strides[2]];
      }
    }
    out[i] = acc;
  }
}

#define CONV(T, dt)                                                                                    \
  KERNEL im2col_##dt(long long total, T* out, const T* in, Layout l, Conv g) {                         \
    im2col<T>(total, out, in, l, g);                                                                   \
  }                                                                                                    \
  KERNEL col2im_##dt(long long total, T* out, const T* cols, Layout cl, Conv g) {                      \
    col2im<T>(total, out, cols, cl, g);                                                                \
  }
CONV(float, f32)
CONV(double, f64)
CONV(long long, i64)
