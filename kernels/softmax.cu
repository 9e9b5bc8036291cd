// softmax.cu: softmax, log-softmax and softmax cross-entropy, fused: one
// pass over a row for its statistics, one for the result.
//
//   softmax_<dt>(rows, n, out, ol, x, xl, G, log)
//       out = exp(x - max) / sum(exp(x - max)) along each row, or
//       (x - max) - log(sum(...)) with log set
//   softmax_backward_<dt>(rows, n, out, ol, g, gl, y, yl, G, log)
//       out = y * (g - sum(g * y)), or g - exp(y) * sum(g) with log set,
//       for the result y of softmax_<dt>
//   softmax_warp<per>_<dt>(rows, n, out, os, x, xs, xe, log)
//   softmax_backward_warp<per>_<dt>(rows, n, out, os, g, gs, ge, y, ys, ye,
//                                   log)
//       the same for rows of adjacent elements, a warp a row (rows.cuh's
//       warp rows: per elements a lane, 1 to 32; os, xs, gs, ys the row strides,
//       xe, ge, ye the element strides, 1 or 0):
//       two passes over the row in registers, max then sum of exp(x - max)
//   cross_entropy_<dt>(rows, n, lse, loss, x, xl, labels, lstride, G, err)
//       lse[r] = logsumexp of row r, loss[r] = lse[r] - x[r, labels[r]];
//       a label outside [0, n) is reported through err (report_index)
//   mean_rows_<dt>(rows, out, loss)
//       out[0] = the mean of loss[0, rows), NaN for no rows (one block)
//   cross_entropy_backward_<dt>(rows, n, out, x, xl, labels, lstride,
//                               lse, g, G)
//       out = (exp(x - lse) - onehot(label)) * g[0] / rows
//
// ol, xl, gl, yl are row views (rows.cuh); out and lse are contiguous.
// Launch with groups of G threads per row (rows.cuh) and at most
// REDUCE_THREADS threads. The statistics are an online (max, sum) pair
// accumulated in the input's precision and merged in a fixed tree, so the
// result is the same on every run. NaN anywhere in a row makes the row NaN,
// and so do +Inf and a row of -Inf, as in the two-pass form max, then
// exp(x - max), that the CPU backend computes; -Inf elements (a causal
// mask) get probability 0.
#include "rows.cuh"

// row_stats returns the (max, sum of exp(x - max)) of the row in c or xr
// over the group, to every thread of the group; active is false for the
// groups past the last row.
template <typename T>
DEVICE RowMaxSum<T> row_stats(bool active, const RowCache<T>& c, bool cached, long long n, const T* xr, long long xs,
                              unsigned G) {
  RowMaxSumOp<T> op;
  RowMaxSum<T> acc = {limits<T>::lowest(), T(0)};
  if (active) row_each(c, cached, xr, xs, n, threadIdx.x & (G - 1), G, [&](long long, T v) { acc = op(acc, row_ms_of(v)); });
  return row_ms_final(rows_reduce(acc, G, op));
}

template <typename T>
DEVICE void softmax(long long rows, long long n, T* out, const Layout& ol, const T* x, const Layout& xl, unsigned G,
                    int log) {
  long long xs = row_stride(xl), os = row_stride(ol);
  unsigned lane = threadIdx.x & (G - 1);
  bool cached = n <= (long long)ROW_CACHE * G;
  FOR_EACH_ROW(r, active, rows, G) {
    const T* xr = active ? x + row_base(xl, r) : x;
    RowCache<T> c;
    if (active) row_load(c, cached, xr, xs, n, lane, G);
    RowMaxSum<T> st = row_stats(active, c, cached, n, xr, xs, G);
    if (!active) continue;
    T* orow = out + row_base(ol, r);
    if (log) {
      T ls = m_log(st.s);
      row_each(c, cached, xr, xs, n, lane, G, [&](long long j, T v) { orow[j * os] = (v - st.m) - ls; });
    } else {
      row_each(c, cached, xr, xs, n, lane, G, [&](long long j, T v) { orow[j * os] = m_exp(v - st.m) / st.s; });
    }
  }
}

template <typename T>
DEVICE void softmax_backward(long long rows, long long n, T* out, const Layout& ol, const T* g, const Layout& gl,
                             const T* y, const Layout& yl, unsigned G, int log) {
  long long gs = row_stride(gl), ys = row_stride(yl), os = row_stride(ol);
  unsigned lane = threadIdx.x & (G - 1);
  bool cached = n <= (long long)ROW_CACHE * G;
  FOR_EACH_ROW(r, active, rows, G) {
    const T* gr = active ? g + row_base(gl, r) : g;
    const T* yr = active ? y + row_base(yl, r) : y;
    RowCache<T> cg, cy;
    T acc = T(0);
    if (active) {
      row_load(cg, cached, gr, gs, n, lane, G);
      row_load(cy, cached, yr, ys, n, lane, G);
      row_each2(cg, cy, cached, gr, gs, yr, ys, n, lane, G,
                [&](long long, T gv, T yv) { acc += log ? gv : gv * yv; });
    }
    T sum = rows_reduce(acc, G, RowAddOp<T>());
    if (!active) continue;
    T* orow = out + row_base(ol, r);
    if (log) {
      row_each2(cg, cy, cached, gr, gs, yr, ys, n, lane, G,
                [&](long long j, T gv, T yv) { orow[j * os] = gv - m_exp(yv) * sum; });
    } else {
      row_each2(cg, cy, cached, gr, gs, yr, ys, n, lane, G,
                [&](long long j, T gv, T yv) { orow[j * os] = yv * (gv - sum); });
    }
  }
}

template <typename T, int PER>
DEVICE void softmax_warp(long long rows, int n, T* out, long long os, const T* x, long long xs, long long xe, int log) {
  int lane = threadIdx.x % WARP_SIZE;
  FOR_EACH_WARP_ROW(r, rows) {
    T v[PER];
    warp_row_load<T, PER>(v, x + r * xs, xe, n, limits<T>::lowest());
    T m = limits<T>::lowest();
    UNROLL for (int k = 0; k < PER; k++) m = rows_nan_max(m, v[k]);
    m = warp_reduce(m, RowNanMaxOp<T>());
    T s = T(0);
    UNROLL for (int k = 0; k < PER; k++) {
      if (lane + k * WARP_SIZE < n) {
        T e = m_exp(v[k] - m);
        s += e;
        if (!log) v[k] = e;
      }
    }
    s = warp_reduce(s, RowAddOp<T>());
    T* orow = out + r * os + lane;
    T ls = log ? m_log(s) : T(0), inv = T(1) / s;
    UNROLL for (int k = 0; k < PER; k++) {
      if (lane + k * WARP_SIZE < n) orow[k * WARP_SIZE] = log ? (v[k] - m) - ls : v[k] * inv;
    }
  }
}

template <typename T, int PER>
DEVICE void softmax_backward_warp(long long rows, int n, T* out, long long os, const T* g, long long gs, long long ge,
                                  const T* y, long long ys, long long ye, int log) {
  int lane = threadIdx.x % WARP_SIZE;
  FOR_EACH_WARP_ROW(r, rows) {
    T gv[PER], yv[PER];
    warp_row_load<T, PER>(gv, g + r * gs, ge, n, T(0));
    warp_row_load<T, PER>(yv, y + r * ys, ye, n, T(0));
    T acc = T(0);
    UNROLL for (int k = 0; k < PER; k++) acc += log ? gv[k] : gv[k] * yv[k];
    acc = warp_reduce(acc, RowAddOp<T>());
    T* orow = out + r * os;
    UNROLL for (int k = 0; k < PER; k++) {
      int j = lane + k * WARP_SIZE;
      if (j < n) orow[j] = log ? gv[k] - m_exp(yv[k]) * acc : yv[k] * (gv[k] - acc);
    }
  }
}

template <typename T>
DEVICE void cross_entropy(long long rows, long long n, T* lse, T* loss, const T* x, const Layout& xl,
                          const long long* labels, long long lstride, unsigned G, unsigned long long* err) {
  long long xs = row_stride(xl);
  FOR_EACH_ROW(r, active, rows, G) {
    const T* xr = active ? x + row_base(xl, r) : x;
    RowCache<T> c;
    RowMaxSum<T> st = row_stats(active, c, false, n, xr, xs, G);
    if (!active || (threadIdx.x & (G - 1)) != 0) continue;
    T l = st.m + m_log(st.s);
    long long y = labels[r * lstride];
    lse[r] = l;
    if (y < 0 || y >= n) {
      report_index(err, y, n);
      loss[r] = T(NAN);
      continue;
    }
    loss[r] = l - xr[y * xs];
  }
}

template <typename T> DEVICE void mean_rows(long long rows, T* out, const T* loss) {
  double acc = 0;
  for (long long i = threadIdx.x; i < rows; i += blockDim.x) acc += (double)loss[i];
  double sum = rows_reduce(acc, blockDim.x, RowAddOp<double>());
  if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = (T)(sum / (double)rows);
}

template <typename T>
DEVICE void cross_entropy_backward(long long rows, long long n, T* out, const T* x, const Layout& xl,
                                   const long long* labels, long long lstride, const T* lse, const T* g, unsigned G) {
  long long xs = row_stride(xl);
  unsigned lane = threadIdx.x & (G - 1);
  T scale = g[0] / (T)rows;
  FOR_EACH_ROW(r, active, rows, G) {
    if (!active) continue;
    const T* xr = x + row_base(xl, r);
    T* orow = out + r * n;
    T l = lse[r];
    long long y = labels[r * lstride];
    for (long long j = lane; j < n; j += G) {
      T v = m_exp(xr[j * xs] - l) * scale;
      orow[j] = j == y ? v - scale : v;
    }
  }
}

// The warp kernels, one entry point for each PER (WARP_ROW_KERNELS), so
// that each gets the registers its row takes and no more.
#define SOFTMAX_WARP(T, dt, P)                                                                                 \
  KERNEL softmax_warp##P##_##dt(long long rows, int n, T* out, long long os, const T* x, long long xs,          \
                                long long xe, int log) {                                                       \
    softmax_warp<T, P>(rows, n, out, os, x, xs, xe, log);                                                      \
  }                                                                                                            \
  KERNEL softmax_backward_warp##P##_##dt(long long rows, int n, T* out, long long os, const T* g, long long gs,  \
                                         long long ge, const T* y, long long ys, long long ye, int log) {      \
    softmax_backward_warp<T, P>(rows, n, out, os, g, gs, ge, y, ys, ye, log);                                  \
  }
WARP_ROW_KERNELS(SOFTMAX_WARP, float, f32)
WARP_ROW_KERNELS(SOFTMAX_WARP, double, f64)

#define SOFTMAX(T, dt)                                                                                        \
  KERNEL softmax_##dt(long long rows, long long n, T* out, Layout ol, const T* x, Layout xl, int G, int log) { \
    softmax<T>(rows, n, out, ol, x, xl, (unsigned)G, log);                                                    \
  }                                                                                                           \
  KERNEL softmax_backward_##dt(long long rows, long long n, T* out, Layout ol, const T* g, Layout gl,          \
                               const T* y, Layout yl, int G, int log) {                                       \
    softmax_backward<T>(rows, n, out, ol, g, gl, y, yl, (unsigned)G, log);                                    \
  }                                                                                                           \
  KERNEL cross_entropy_##dt(long long rows, long long n, T* lse, T* loss, const T* x, Layout xl,               \
                            const long long* labels, long long lstride, int G, unsigned long long* err) {     \
    cross_entropy<T>(rows, n, lse, loss, x, xl, labels, lstride, (unsigned)G, err);                           \
  }                                                                                                           \
  KERNEL mean_rows_##dt(long long rows, T* out, const T* loss) { mean_rows<T>(rows, out, loss); }             \
  KERNEL cross_entropy_backward_##dt(long long rows, long long n, T* out, const T* x, Layout xl,               \
                                     const long long* labels, long long lstride, const T* lse, const T* g,    \
                                     int G) {                                                                 \
    cross_entropy_backward<T>(rows, n, out, x, xl, labels, lstride, lse, g, (unsigned)G);                     \
  }

SOFTMAX(float, f32)
SOFTMAX(double, f64)
