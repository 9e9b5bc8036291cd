// pool.cu: 2-D max pooling over [N, C, H, W] tensors, forward and backward.
//
//   maxpool2d_<dt>(total, out, idx, in, l, g)
//       out, idx [N, C, OH, OW]: one thread per output, looping over its
//       window; in (l) is any 4-d view
//   maxpool2d_backward_<dt>(total, gx, g, gl, idx, w)
//       gx [N, C, H, W]: one thread per input element, summing the
//       gradients g [N, C, OH, OW] (gl, any 4-d view) of the windows
//       that hold it and chose it (idx, contiguous)
//
// Max pooling pads with -Inf and records the first maximum's position
// h*W + w in its plane; NaN wins. The backward gathers rather than
// scatters: each input element visits the at most ceil(KH/SH)*ceil(KW/SW)
// windows that cover it, so it needs no atomics, no zeroed output and no
// second pass, and sums in the windows' order, which is the CPU backend's
// (ScatterAdd over the outputs in order): the same bits, every run. With
// stride >= kernel (no overlap) each element has at most one window.
#include "window.cuh"

// split4 returns the coordinates (n, c, a, b) of element i of [N, C, A, B]
// in row-major order, in 32-bit arithmetic when i fits, which is several
// times cheaper on a GPU than 64-bit division.
DEVICE void split4(long long i, int C, int A, int B, long long& n, int& c, int& a, int& b) {
  if (i <= INT_MAX) {
    unsigned u = (unsigned)i;
    b = (int)(u % (unsigned)B);
    u /= (unsigned)B;
    a = (int)(u % (unsigned)A);
    u /= (unsigned)A;
    c = (int)(u % (unsigned)C);
    n = (long long)(u / (unsigned)C);
    return;
  }
  b = (int)(i % B);
  i /= B;
  a = (int)(i % A);
  i /= A;
  c = (int)(i % C);
  n = i / C;
}

template <typename T>
DEVICE void maxpool2d(long long total, T* out, long long* idx, const T* in, const Layout& l, const Conv& g) {
  FOR_EACH(i, total) {
    long long n;
    int c, oh, ow;
    split4(i, g.c, g.oh, g.ow, n, c, oh, ow);
    const T* plane = in + l.offset + n * l.strides[0] + c * l.strides[1];
    long long sh = l.strides[2], sw = l.strides[3];
    int h0 = oh * g.sh - g.ph, w0 = ow * g.sw - g.pw;
    int hlo = h0 < 0 ? 0 : h0, hhi = h0 + g.kh < g.h ? h0 + g.kh : g.h;
    int wlo = w0 < 0 ? 0 : w0, whi = w0 + g.kw < g.w ? w0 + g.kw : g.w;
    T best = T(0);
    long long bi = -1;
    for (int h = hlo; h < hhi; h++) {
      const T* rowp = plane + h * sh;
      for (int w = wlo; w < whi; w++) {
        T v = rowp[w * sw];
        if (bi < 0 || v > best || (is_nan(v) && !is_nan(best))) {
          best = v;
          bi = (long long)h * g.w + w;
        }
      }
    }
    if (bi < 0) {  // a window entirely in the padding
      best = limits<T>::lowest();
      bi = 0;
    }
    out[i] = best;
    idx[i] = bi;
  }
}

template <typename T>
DEVICE void maxpool2d_backward(long long total, T* gx, const T* g, const Layout& gl, const long long* idx,
                               const Conv& w) {
  FOR_EACH(i, total) {
    long long n;
    int c, h, x;
    split4(i, w.c, w.h, w.w, n, c, h, x);
    // Window oh covers rows [oh*SH - PH, oh*SH - PH + KH).
    int oh0 = h + w.ph < w.kh ? 0 : (h + w.ph - w.kh) / w.sh + 1;
    int oh1 = (h + w.ph) / w.sh + 1;
    if (oh1 > w.oh) oh1 = w.oh;
    int ow0 = x + w.pw < w.kw ? 0 : (x + w.pw - w.kw) / w.sw + 1;
    int ow1 = (x + w.pw) / w.sw + 1;
    if (ow1 > w.ow) ow1 = w.ow;
    const T* gp = g + gl.offset + n * gl.strides[0] + c * gl.strides[1];
    const long long* ip = idx + (n * w.c + c) * (long long)w.oh * w.ow;
    long long self = (long long)h * w.w + x;
    T acc = T(0);
    for (int oh = oh0; oh < oh1; oh++) {
      for (int ow = ow0; ow < ow1; ow++) {
        if (ip[(long long)oh * w.ow + ow] == self) acc += gp[oh * gl.strides[2] + ow * gl.strides[3]];
      }
    }
    gx[i] = acc;
  }
}

#define POOL(T, dt)                                                                                    \
  KERNEL maxpool2d_##dt(long long total, T* out, long long* idx, const T* in, Layout l, Conv g) {      \
    maxpool2d<T>(total, out, idx, in, l, g);                                                           \
  }
#define POOL_GRAD(T, dt)                                                                               \
  KERNEL maxpool2d_backward_##dt(long long total, T* gx, const T* g, Layout gl, const long long* idx, \
                                 Conv w) {                                                             \
    maxpool2d_backward<T>(total, gx, g, gl, idx, w);                                                   \
  }
POOL(float, f32)
POOL(double, f64)
POOL(long long, i64)
POOL_GRAD(float, f32)
POOL_GRAD(double, f64)
