// norm.cu: layer and batch normalization, fused, forward and backward.
// Statistics are Welford's running (count, mean, M2) in the input's
// precision, merged in a fixed order (Chan's formula), so that results do
// not change from run to run; no kernel here uses atomics.
//
// Layer norm, over rows (rows.cuh; groups of G threads per row):
//
//   layer_norm_<dt>(rows, n, y, yl, x, xl, w, b, mean, rstd, eps, G)
//       y = (x - mean) * rstd * w + b per row (w, b [n] contiguous, or
//       null for 1 and 0); mean and rstd = 1/sqrt(var + eps) [rows]
//   layer_norm_backward_<dt>(rows, n, gx, ol, g, gl, x, xl, mean, rstd, w, G)
//       gx = rstd * (g*w - mean(g*w) - xhat * mean(g*w*xhat)) per row
//   layer_norm_backward_wb_<dt>(rows, n, P, pw, pb, g, gl, x, xl, mean, rstd)
//       column sums of g * xhat (into pw) and of g (pb) over P slices of
//       the rows, [P, n] each; either may be null
//   layer_norm_warp<per>_<dt>(rows, n, y, ys, x, xs, xe, w, b, mean, rstd,
//                             eps)
//   layer_norm_backward_warp<per>_<dt>(rows, n, gx, os, g, gs, ge, x, xs,
//                                      xe, mean, rstd, w)
//       the same for rows of adjacent elements, a warp a row (rows.cuh's
//       warp rows: per elements a lane, 1 to 32; ys, xs, os, gs the row strides,
//       xe, ge the element strides, 1 or 0);
//       the statistics in two passes over the row in registers (mean,
//       then the mean of squared deviations)
//   sum_parts_<dt>(n, P, out, parts)
//       out[j] = sum over p of parts[p*n + j], in order
//
// Batch norm, over x viewed as [N, C, S] (xl: 3 dims, any strides), each
// channel's N*S values split into P slices so that few channels still
// fill the device; the slices are merged by a second kernel:
//
//   batch_norm_stats_<dt>(C, P, pn, pmean, pm2, x, xl)
//       block q = c*P + p: Welford statistics of slice p of channel c
//   batch_norm_stats_final_<dt>(C, P, mean, var, pn, pmean, pm2)
//       mean and biased variance per channel
//   batch_norm_apply_<dt>(y, x, xl, mean, ms, var, vs, w, ws, b, bs, eps, flat)
//       y [N, C, S] contiguous = (x - mean) * w / sqrt(var + eps) + b, the
//       per-channel operands strided (ms, vs, ws, bs; w, b may be null);
//       flat: one thread per element (short planes), else a block per
//       plane (n, c)
//   batch_norm_backward_stats_<dt>(C, P, psg, psgx, g, gl, x, xl, mean)
//       block q = c*P + p: sums of g and of g * (x - mean) over slice p
//   batch_norm_backward_final_<dt>(C, P, m, psg, psgx, var, w, ws, eps, gw, gb, coef)
//       gw = sum(g (x - mean)) * invstd, gb = sum(g) (either may be null),
//       and coef [3, C] = a, k, k0 of gx = a*g + k*(x - mean) + k0
//       (coef may be null)
//   batch_norm_backward_apply_<dt>(gx, g, gl, x, xl, mean, coef, flat)
//       gx [N, C, S] contiguous; gx may be g's own contiguous storage
#include "rows.cuh"

template <typename T>
DEVICE void layer_norm(long long rows, long long n, T* y, const Layout& yl, const T* x, const Layout& xl, const T* w,
                       const T* b, T* mean, T* rstd, T eps, unsigned G) {
  long long xs = row_stride(xl), ys = row_stride(yl);
  unsigned lane = threadIdx.x & (G - 1);
  bool cached = n <= (long long)ROW_CACHE * G;
  FOR_EACH_ROW(r, active, rows, G) {
    const T* xr = active ? x + row_base(xl, r) : x;
    RowCache<T> c;
    RowWelford<T> acc = {T(0), T(0), T(0)};
    if (active) {
      row_load(c, cached, xr, xs, n, lane, G);
      row_each(c, cached, xr, xs, n, lane, G, [&](long long, T v) { acc = row_welford_add(acc, v); });
    }
    acc = rows_reduce(acc, G, RowWelfordOp<T>());
    if (!active) continue;
    T mu = acc.mean, rs = T(1) / m_sqrt(acc.m2 / T(n) + eps);
    if (lane == 0) {
      mean[r] = mu;
      rstd[r] = rs;
    }
    T* yr = y + row_base(yl, r);
    row_each(c, cached, xr, xs, n, lane, G, [&](long long j, T xv) {
      T v = (xv - mu) * rs;
      if (w) v *= w[j];
      if (b) v += b[j];
      yr[j * ys] = v;
    });
  }
}

template <typename T>
DEVICE void layer_norm_backward(long long rows, long long n, T* gx, const Layout& ol, const T* g, const Layout& gl,
                                const T* x, const Layout& xl, const T* mean, const T* rstd, const T* w, unsigned G) {
  long long gs = row_stride(gl), xs = row_stride(xl), os = row_stride(ol);
  unsigned lane = threadIdx.x & (G - 1);
  bool cached = n <= (long long)ROW_CACHE * G;
  FOR_EACH_ROW(r, active, rows, G) {
    const T* gr = active ? g + row_base(gl, r) : g;
    const T* xr = active ? x + row_base(xl, r) : x;
    T mu = active ? mean[r] : T(0), rs = active ? rstd[r] : T(0);
    RowCache<T> cg, cx;
    RowPair<T> acc = {T(0), T(0)};
    if (active) {
      row_load(cg, cached, gr, gs, n, lane, G);
      row_load(cx, cached, xr, xs, n, lane, G);
      row_each2(cg, cx, cached, gr, gs, xr, xs, n, lane, G, [&](long long j, T gv, T xv) {
        T gw = w ? m_mul(gv, w[j]) : gv;
        acc.a += gw;
        acc.b += gw * ((xv - mu) * rs);
      });
    }
    acc = rows_reduce(acc, G, RowPairSumOp<T>());
    if (!active) continue;
    T ca = acc.a / T(n), cb = acc.b / T(n);
    T* orow = gx + row_base(ol, r);
    row_each2(cg, cx, cached, gr, gs, xr, xs, n, lane, G, [&](long long j, T gv, T xv) {
      T gw = w ? m_mul(gv, w[j]) : gv;
      T xh = (xv - mu) * rs;
      orow[j * os] = rs * ((gw - ca) - xh * cb);
    });
  }
}

template <typename T, int PER>
DEVICE void layer_norm_warp(long long rows, int n, T* y, long long ys, const T* x, long long xs, long long xe, const T* w,
                            const T* b, T* mean, T* rstd, T eps) {
  int lane = threadIdx.x % WARP_SIZE;
  FOR_EACH_WARP_ROW(r, rows) {
    T v[PER];
    warp_row_load<T, PER>(v, x + r * xs, xe, n, T(0));
    T s = T(0);
    UNROLL for (int k = 0; k < PER; k++) s += v[k];
    T mu = warp_reduce(s, RowAddOp<T>()) / T(n);
    T q = T(0);
    UNROLL for (int k = 0; k < PER; k++) {
      if (lane + k * WARP_SIZE < n) {
        T dv = v[k] - mu;
        q += dv * dv;
      }
    }
    T rs = T(1) / m_sqrt(warp_reduce(q, RowAddOp<T>()) / T(n) + eps);
    if (lane == 0) {
      mean[r] = mu;
      rstd[r] = rs;
    }
    T* yr = y + r * ys;
    UNROLL for (int k = 0; k < PER; k++) {
      int j = lane + k * WARP_SIZE;
      if (j < n) {
        T o = (v[k] - mu) * rs;
        if (w) o *= w[j];
        if (b) o += b[j];
        yr[j] = o;
      }
    }
  }
}

template <typename T, int PER>
DEVICE void layer_norm_backward_warp(long long rows, int n, T* gx, long long os, const T* g, long long gs, long long ge,
                                     const T* x, long long xs, long long xe, const T* mean, const T* rstd, const T* w) {
  int lane = threadIdx.x % WARP_SIZE;
  FOR_EACH_WARP_ROW(r, rows) {
    T gv[PER], xv[PER];
    warp_row_load<T, PER>(gv, g + r * gs, ge, n, T(0));
    warp_row_load<T, PER>(xv, x + r * xs, xe, n, T(0));
    T mu = mean[r], rs = rstd[r];
    T sa = T(0), sb = T(0);
    UNROLL for (int k = 0; k < PER; k++) {
      int j = lane + k * WARP_SIZE;
      if (j < n) {
        T gw = w ? m_mul(gv[k], w[j]) : gv[k];
        T xh = (xv[k] - mu) * rs;
        gv[k] = gw;
        xv[k] = xh;
        sa += gw;
        sb += gw * xh;
      }
    }
    T ca = warp_reduce(sa, RowAddOp<T>()) / T(n), cb = warp_reduce(sb, RowAddOp<T>()) / T(n);
    T* orow = gx + r * os;
    UNROLL for (int k = 0; k < PER; k++) {
      int j = lane + k * WARP_SIZE;
      if (j < n) orow[j] = rs * ((gv[k] - ca) - xv[k] * cb);
    }
  }
}

template <typename T>
DEVICE void layer_norm_backward_wb(long long rows, long long n, int P, T* pw, T* pb, const T* g, const Layout& gl,
                                   const T* x, const Layout& xl, const T* mean, const T* rstd) {
  long long gs = row_stride(gl), xs = row_stride(xl);
  long long ntiles = (n + blockDim.x - 1) / blockDim.x;
  FOR_EACH_BLOCK(q, ntiles * P) {
    long long tile = q % ntiles, part = q / ntiles;
    long long j = tile * blockDim.x + threadIdx.x;
    if (j >= n) continue;
    long long r0 = rows * part / P, r1 = rows * (part + 1) / P;
    T sw = T(0), sb = T(0);
    for (long long r = r0; r < r1; r++) {
      T gv = g[row_base(gl, r) + j * gs];
      sb += gv;
      if (pw) sw += gv * ((x[row_base(xl, r) + j * xs] - mean[r]) * rstd[r]);
    }
    if (pw) pw[part * n + j] = sw;
    if (pb) pb[part * n + j] = sb;
  }
}

template <typename T> DEVICE void sum_parts(long long n, int P, T* out, const T* parts) {
  FOR_EACH(j, n) {
    T s = T(0);
    for (int p = 0; p < P; p++) s += parts[(long long)p * n + j];
    out[j] = s;
  }
}

// FOR_EACH_SLICE runs its body for the elements (n, s) of slice p of P of
// a channel of [N, C, S] (the channel's N*S values in row-major order),
// the block's threads sharing each run of a plane.
#define FOR_EACH_SLICE(n, s, N, S, p, P, ...)                                                 \
  do {                                                                                        \
    long long M_ = (N) * (S), k0_ = M_ * (p) / (P), k1_ = M_ * ((p) + 1) / (P);               \
    for (long long n = (S) > 0 ? k0_ / (S) : 0; (S) > 0 && n * (S) < k1_; n++) {              \
      long long lo_ = k0_ - n * (S), hi_ = k1_ - n * (S);                                     \
      if (lo_ < 0) lo_ = 0;                                                                   \
      if (hi_ > (S)) hi_ = (S);                                                               \
      for (long long s = lo_ + threadIdx.x; s < hi_; s += blockDim.x) {                       \
        __VA_ARGS__                                                                           \
      }                                                                                       \
    }                                                                                         \
  } while (0)

template <typename T>
DEVICE void batch_norm_stats(long long C, int P, T* pn, T* pmean, T* pm2, const T* x, const Layout& xl) {
  FOR_EACH_BLOCK(q, C * P) {
    long long c = q / P, p = q % P;
    const T* xc = x + xl.offset + c * xl.strides[1];
    RowWelford<T> acc = {T(0), T(0), T(0)};
    FOR_EACH_SLICE(n, s, xl.shape[0], xl.shape[2], p, P,
                   { acc = row_welford_add(acc, xc[n * xl.strides[0] + s * xl.strides[2]]); });
    acc = rows_reduce(acc, blockDim.x, RowWelfordOp<T>());
    if (threadIdx.x == 0) {
      pn[q] = acc.n;
      pmean[q] = acc.mean;
      pm2[q] = acc.m2;
    }
  }
}

template <typename T>
DEVICE void batch_norm_stats_final(long long C, int P, T* mean, T* var, const T* pn, const T* pmean, const T* pm2) {
  RowWelfordOp<T> op;
  FOR_EACH(c, C) {
    RowWelford<T> acc = {T(0), T(0), T(0)};
    for (int p = 0; p < P; p++) {
      long long q = c * P + p;
      RowWelford<T> part = {pn[q], pmean[q], pm2[q]};
      acc = op(acc, part);
    }
    mean[c] = acc.mean;
    var[c] = acc.m2 / acc.n;
  }
}

// FOR_EACH_NCS runs its body for every element (n, c, s) of [N, C, S], i
// being its position in the contiguous result: flat, one thread per
// element; else a block per plane (n, c).
#define FOR_EACH_NCS(i, n, c, s, N, C, S, flat, ...)                                \
  do {                                                                            \
    if (flat) {                                                                   \
      FOR_EACH(i, (N) * (C) * (S)) {                                              \
        long long q_ = i / (S), s = i - q_ * (S), c = q_ % (C), n = q_ / (C);     \
        __VA_ARGS__                                                               \
      }                                                                           \
    } else {                                                                      \
      FOR_EACH_BLOCK(q_, (N) * (C)) {                                             \
        long long c = q_ % (C), n = q_ / (C);                                     \
        for (long long s = threadIdx.x; s < (S); s += blockDim.x) {               \
          long long i = q_ * (S) + s;                                             \
          __VA_ARGS__                                                             \
        }                                                                         \
      }                                                                           \
    }                                                                             \
  } while (0)

template <typename T>
DEVICE void batch_norm_apply(T* y, const T* x, const Layout& xl, const T* mean, long long ms, const T* var,
                             long long vs, const T* w, long long ws, const T* b, long long bs, T eps, int flat) {
  long long N = xl.shape[0], C = xl.shape[1], S = xl.shape[2];
  FOR_EACH_NCS(i, n, c, s, N, C, S, flat, {
    T scale = (w ? w[c * ws] : T(1)) / m_sqrt(var[c * vs] + eps);
    T shift = b ? b[c * bs] : T(0);
    T v = x[xl.offset + n * xl.strides[0] + c * xl.strides[1] + s * xl.strides[2]];
    y[i] = (v - mean[c * ms]) * scale + shift;
  });
}

template <typename T>
DEVICE void batch_norm_backward_stats(long long C, int P, T* psg, T* psgx, const T* g, const Layout& gl, const T* x,
                                      const Layout& xl, const T* mean) {
  FOR_EACH_BLOCK(q, C * P) {
    long long c = q / P, p = q % P;
    const T* xc = x + xl.offset + c * xl.strides[1];
    const T* gc = g + gl.offset + c * gl.strides[1];
    T mu = mean[c];
    RowPair<T> acc = {T(0), T(0)};
    FOR_EACH_SLICE(n, s, xl.shape[0], xl.shape[2], p, P, {
      T gv = gc[n * gl.strides[0] + s * gl.strides[2]];
      acc.a += gv;
      acc.b += gv * (xc[n * xl.strides[0] + s * xl.strides[2]] - mu);
    });
    acc = rows_reduce(acc, blockDim.x, RowPairSumOp<T>());
    if (threadIdx.x == 0) {
      psg[q] = acc.a;
      psgx[q] = acc.b;
    }
  }
}

template <typename T>
DEVICE void batch_norm_backward_final(long long C, int P, long long m, const T* psg, const T* psgx, const T* var,
                                      const T* w, long long ws, T eps, T* gw, T* gb, T* coef) {
  FOR_EACH(c, C) {
    T sg = T(0), sgx = T(0);
    for (int p = 0; p < P; p++) {
      sg += psg[c * P + p];
      sgx += psgx[c * P + p];
    }
    T invstd = T(1) / m_sqrt(var[c] + eps);
    if (gw) gw[c] = sgx * invstd;
    if (gb) gb[c] = sg;
    if (coef) {
      T a = (w ? w[c * ws] : T(1)) * invstd;
      coef[c] = a;
      coef[C + c] = -a * invstd * invstd * sgx / T(m);
      coef[2 * C + c] = -a * sg / T(m);
    }
  }
}

template <typename T>
DEVICE void batch_norm_backward_apply(T* gx, const T* g, const Layout& gl, const T* x, const Layout& xl,
                                      const T* mean, const T* coef, int flat) {
  long long N = xl.shape[0], C = xl.shape[1], S = xl.shape[2];
  FOR_EACH_NCS(i, n, c, s, N, C, S, flat, {
    T gv = g[gl.offset + n * gl.strides[0] + c * gl.strides[1] + s * gl.strides[2]];
    T xv = x[xl.offset + n * xl.strides[0] + c * xl.strides[1] + s * xl.strides[2]];
    gx[i] = (coef[c] * gv + coef[C + c] * (xv - mean[c])) + coef[2 * C + c];
  });
}

// The warp kernels, one entry point for each PER (WARP_ROW_KERNELS), so
// that each gets the registers its row takes and no more.
#define LAYER_NORM_WARP(T, dt, P)                                                                                 \
  KERNEL layer_norm_warp##P##_##dt(long long rows, int n, T* y, long long ys, const T* x, long long xs,            \
                                   long long xe, const T* w, const T* b, T* mean, T* rstd, T eps) {                \
    layer_norm_warp<T, P>(rows, n, y, ys, x, xs, xe, w, b, mean, rstd, eps);                                      \
  }                                                                                                               \
  KERNEL layer_norm_backward_warp##P##_##dt(long long rows, int n, T* gx, long long os, const T* g, long long gs,   \
                                            long long ge, const T* x, long long xs, long long xe, const T* mean,   \
                                            const T* rstd, const T* w) {                                          \
    layer_norm_backward_warp<T, P>(rows, n, gx, os, g, gs, ge, x, xs, xe, mean, rstd, w);                         \
  }
WARP_ROW_KERNELS(LAYER_NORM_WARP, float, f32)
WARP_ROW_KERNELS(LAYER_NORM_WARP, double, f64)

#define NORM(T, dt)                                                                                              \
  KERNEL layer_norm_##dt(long long rows, long long n, T* y, Layout yl, const T* x, Layout xl, const T* w,         \
                         const T* b, T* mean, T* rstd, T eps, int G) {                                           \
    layer_norm<T>(rows, n, y, yl, x, xl, w, b, mean, rstd, eps, (unsigned)G);                                    \
  }                                                                                                              \
  KERNEL layer_norm_backward_##dt(long long rows, long long n, T* gx, Layout ol, const T* g, Layout gl,           \
                                  const T* x, Layout xl, const T* mean, const T* rstd, const T* w, int G) {      \
    layer_norm_backward<T>(rows, n, gx, ol, g, gl, x, xl, mean, rstd, w, (unsigned)G);                           \
  }                                                                                                              \
  KERNEL layer_norm_backward_wb_##dt(long long rows, long long n, int P, T* pw, T* pb, const T* g, Layout gl,     \
                                     const T* x, Layout xl, const T* mean, const T* rstd) {                      \
    layer_norm_backward_wb<T>(rows, n, P, pw, pb, g, gl, x, xl, mean, rstd);                                     \
  }                                                                                                              \
  KERNEL sum_parts_##dt(long long n, int P, T* out, const T* parts) { sum_parts<T>(n, P, out, parts); }          \
  KERNEL batch_norm_stats_##dt(long long C, int P, T* pn, T* pmean, T* pm2, const T* x, Layout xl) {              \
    batch_norm_stats<T>(C, P, pn, pmean, pm2, x, xl);                                                            \
  }                                                                                                              \
  KERNEL batch_norm_stats_final_##dt(long long C, int P, T* mean, T* var, const T* pn, const T* pmean,            \
                                     const T* pm2) {                                                             \
    batch_norm_stats_final<T>(C, P, mean, var, pn, pmean, pm2);                                                  \
  }                                                                                                              \
  KERNEL batch_norm_apply_##dt(T* y, const T* x, Layout xl, const T* mean, long long ms, const T* var,            \
                               long long vs, const T* w, long long ws, const T* b, long long bs, T eps,          \
                               int flat) {                                                                       \
    batch_norm_apply<T>(y, x, xl, mean, ms, var, vs, w, ws, b, bs, eps, flat);                                   \
  }                                                                                                              \
  KERNEL batch_norm_backward_stats_##dt(long long C, int P, T* psg, T* psgx, const T* g, Layout gl, const T* x,   \
                                        Layout xl, const T* mean) {                                              \
    batch_norm_backward_stats<T>(C, P, psg, psgx, g, gl, x, xl, mean);                                           \
  }                                                                                                              \
  KERNEL batch_norm_backward_final_##dt(long long C, int P, long long m, const T* psg, const T* psgx,             \
                                        const T* var, const T* w, long long ws, T eps, T* gw, T* gb, T* coef) {  \
    batch_norm_backward_final<T>(C, P, m, psg, psgx, var, w, ws, eps, gw, gb, coef);                             \
  }                                                                                                              \
  KERNEL batch_norm_backward_apply_##dt(T* gx, const T* g, Layout gl, const T* x, Layout xl, const T* mean,       \
                                        const T* coef, int flat) {                                               \
    batch_norm_backward_apply<T>(gx, g, gl, x, xl, mean, coef, flat);                                            \
  }

NORM(float, f32)
NORM(double, f64)
