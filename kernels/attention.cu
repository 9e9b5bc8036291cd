// attention.cu: fused scaled dot-product attention, forward and backward,
// FlashAttention's way: the [L, S] scores are never written to memory. The
// keys (or queries) are taken a tile of ATT_TILE rows at a time into shared
// memory, and each thread owns one query (or key) row, keeping a running
// maximum and sum for the softmax (the online softmax) in registers. No
// warp intrinsics: the CPU emulator runs the same source.
//
// Operands are contiguous: q [B, L, E], k [B, S, E], v [B, S, Ev], out and
// dout [B, L, Ev], lse and D [B, L] (E, Ev <= ATT_MAXD). causal keeps key j
// from query i when j > i. Launch with blockDim.x <= ATT_THREADS threads.
//
//   attn_fwd_<dt>(B, L, S, E, Ev, q, k, v, out, lse, scale, causal)
//       out = softmax(q kᵀ scale) v; lse = the rows' log-sum-exp
//   attn_bwd_dq_<dt>(B, L, S, E, Ev, q, k, v, out, dout, lse, D, dq, scale, causal)
//       D = rowsum(dout * out); dq = scale * sum_j p_ij (dout_i·v_j - D_i) k_j
//   attn_bwd_dkv_<dt>(B, L, S, E, Ev, q, k, v, dout, lse, D, dk, dv, scale, causal)
//       dv_j = sum_i p_ij dout_i; dk_j = scale * sum_i p_ij (dout_i·v_j - D_i) q_i
//
// with p_ij = exp(q_i·k_j scale - lse_i), recomputed. dq runs before dkv,
// which reads D.
#include "common.cuh"

#define ATT_MAXD 128
#define ATT_TILE 16
#define ATT_THREADS 64

DEVICE long long att_min(long long a, long long b) { return a < b ? a : b; }

// load_tile copies rows row0.. (at most ATT_TILE, and at most left) of a
// [.., E] and b [.., Ev] into shared memory, between barriers, and returns
// how many.
template <typename T>
DEVICE int load_tile(T* as, T* bs, const T* a, const T* b, long long row0, long long left, int E, int Ev) {
  int n = (int)att_min(ATT_TILE, left);
  __syncthreads();
  for (int x = threadIdx.x; x < n * E; x += blockDim.x) as[x] = a[row0 * E + x];
  for (int x = threadIdx.x; x < n * Ev; x += blockDim.x) bs[x] = b[row0 * Ev + x];
  __syncthreads();
  return n;
}

template <typename T>
DEVICE void attn_fwd(long long B, long long L, long long S, int E, int Ev, const T* q, const T* k, const T* v, T* out,
                     T* lse, double scale, int causal) {
  __shared__ T ks[ATT_TILE * ATT_MAXD];
  __shared__ T vs[ATT_TILE * ATT_MAXD];
  long long per = (L + blockDim.x - 1) / blockDim.x;
  FOR_EACH_BLOCK(blk, B * per) {
    long long b = blk / per, i0 = (blk % per) * blockDim.x, i = i0 + threadIdx.x;
    bool active = i < L;
    T qr[ATT_MAXD], acc[ATT_MAXD];
    T m = limits<T>::lowest(), l = T(0);
    for (int e = 0; e < E; e++) qr[e] = active ? q[(b * L + i) * E + e] * T(scale) : T(0);
    for (int e = 0; e < Ev; e++) acc[e] = T(0);
    long long end = causal ? att_min(S, i0 + (long long)blockDim.x) : S;
    for (long long j0 = 0; j0 < end; j0 += ATT_TILE) {
      int nk = load_tile(ks, vs, k, v, b * S + j0, end - j0, E, Ev);
      if (!active) continue;
      for (int c = 0; c < nk; c++) {
        if (causal && j0 + c > i) break;
        T s = T(0);
        for (int e = 0; e < E; e++) s += qr[e] * ks[c * E + e];
        T mn = s > m ? s : m;
        T corr = m_exp(m - mn), p = m_exp(s - mn);
        l = l * corr + p;
        for (int e = 0; e < Ev; e++) acc[e] = acc[e] * corr + p * vs[c * Ev + e];
        m = mn;
      }
    }
    if (active) {
      for (int e = 0; e < Ev; e++) out[(b * L + i) * Ev + e] = acc[e] / l;
      lse[b * L + i] = m + m_log(l);
    }
  }
}

template <typename T>
DEVICE void attn_bwd_dq(long long B, long long L, long long S, int E, int Ev, const T* q, const T* k, const T* v,
                        const T* out, const T* dout, const T* lse, T* D, T* dq, double scale, int causal) {
  __shared__ T ks[ATT_TILE * ATT_MAXD];
  __shared__ T vs[ATT_TILE * ATT_MAXD];
  long long per = (L + blockDim.x - 1) / blockDim.x;
  FOR_EACH_BLOCK(blk, B * per) {
    long long b = blk / per, i0 = (blk % per) * blockDim.x, i = i0 + threadIdx.x;
    bool active = i < L;
    T qr[ATT_MAXD], dor[ATT_MAXD], acc[ATT_MAXD];
    T d = T(0), li = active ? lse[b * L + i] : T(0);
    for (int e = 0; e < E; e++) {
      qr[e] = active ? q[(b * L + i) * E + e] * T(scale) : T(0);
      acc[e] = T(0);
    }
    for (int e = 0; e < Ev; e++) {
      dor[e] = active ? dout[(b * L + i) * Ev + e] : T(0);
      if (active) d += dor[e] * out[(b * L + i) * Ev + e];
    }
    if (active) D[b * L + i] = d;
    long long end = causal ? att_min(S, i0 + (long long)blockDim.x) : S;
    for (long long j0 = 0; j0 < end; j0 += ATT_TILE) {
      int nk = load_tile(ks, vs, k, v, b * S + j0, end - j0, E, Ev);
      if (!active) continue;
      for (int c = 0; c < nk; c++) {
        if (causal && j0 + c > i) break;
        T s = T(0), dp = T(0);
        for (int e = 0; e < E; e++) s += qr[e] * ks[c * E + e];
        for (int e = 0; e < Ev; e++) dp += dor[e] * vs[c * Ev + e];
        T ds = m_exp(s - li) * (dp - d);
        for (int e = 0; e < E; e++) acc[e] += ds * ks[c * E + e];
      }
    }
    if (active)
      for (int e = 0; e < E; e++) dq[(b * L + i) * E + e] = acc[e] * T(scale);
  }
}

template <typename T>
DEVICE void attn_bwd_dkv(long long B, long long L, long long S, int E, int Ev, const T* q, const T* k, const T* v,
                         const T* dout, const T* lse, const T* D, T* dk, T* dv, double scale, int causal) {
  __shared__ T qs[ATT_TILE * ATT_MAXD];
  __shared__ T dos[ATT_TILE * ATT_MAXD];
  __shared__ T ls[ATT_TILE], ds_[ATT_TILE];
  long long per = (S + blockDim.x - 1) / blockDim.x;
  FOR_EACH_BLOCK(blk, B * per) {
    long long b = blk / per, j0b = (blk % per) * blockDim.x, j = j0b + threadIdx.x;
    bool active = j < S;
    T kr[ATT_MAXD], vr[ATT_MAXD], gk[ATT_MAXD], gv[ATT_MAXD];
    for (int e = 0; e < E; e++) {
      kr[e] = active ? k[(b * S + j) * E + e] * T(scale) : T(0);
      gk[e] = T(0);
    }
    for (int e = 0; e < Ev; e++) {
      vr[e] = active ? v[(b * S + j) * Ev + e] : T(0);
      gv[e] = T(0);
    }
    // With causal, no query before this block's first key sees it.
    long long start = causal ? (j0b / ATT_TILE) * ATT_TILE : 0;
    for (long long i0 = start; i0 < L; i0 += ATT_TILE) {
      int nq = (int)att_min(ATT_TILE, L - i0);
      __syncthreads();
      for (int x = threadIdx.x; x < nq * E; x += blockDim.x) qs[x] = q[(b * L + i0) * E + x];
      for (int x = threadIdx.x; x < nq * Ev; x += blockDim.x) dos[x] = dout[(b * L + i0) * Ev + x];
      for (int x = threadIdx.x; x < nq; x += blockDim.x) {
        ls[x] = lse[b * L + i0 + x];
        ds_[x] = D[b * L + i0 + x];
      }
      __syncthreads();
      if (!active) continue;
      for (int c = 0; c < nq; c++) {
        if (causal && i0 + c < j) continue;
        T s = T(0), dp = T(0);
        for (int e = 0; e < E; e++) s += qs[c * E + e] * kr[e];
        for (int e = 0; e < Ev; e++) dp += dos[c * Ev + e] * vr[e];
        T p = m_exp(s - ls[c]);
        for (int e = 0; e < Ev; e++) gv[e] += p * dos[c * Ev + e];
        T g = p * (dp - ds_[c]);
        for (int e = 0; e < E; e++) gk[e] += g * qs[c * E + e];
      }
    }
    if (active) {
      for (int e = 0; e < E; e++) dk[(b * S + j) * E + e] = gk[e] * T(scale);
      for (int e = 0; e < Ev; e++) dv[(b * S + j) * Ev + e] = gv[e];
    }
  }
}

#define ATTENTION(T, dt)                                                                                    \
  KERNEL attn_fwd_##dt(long long B, long long L, long long S, int E, int Ev, const T* q, const T* k,       \
                       const T* v, T* out, T* lse, double scale, int causal) {                              \
    attn_fwd<T>(B, L, S, E, Ev, q, k, v, out, lse, scale, causal);                                          \
  }                                                                                                         \
  KERNEL attn_bwd_dq_##dt(long long B, long long L, long long S, int E, int Ev, const T* q, const T* k,    \
                          const T* v, const T* out, const T* dout, const T* lse, T* D, T* dq, double scale, \
                          int causal) {                                                                     \
    attn_bwd_dq<T>(B, L, S, E, Ev, q, k, v, out, dout, lse, D, dq, scale, causal);                          \
  }                                                                                                         \
  KERNEL attn_bwd_dkv_##dt(long long B, long long L, long long S, int E, int Ev, const T* q, const T* k,   \
                           const T* v, const T* dout, const T* lse, const T* D, T* dk, T* dv, double scale, \
                           int causal) {                                                                    \
    attn_bwd_dkv<T>(B, L, S, E, Ev, q, k, v, dout, lse, D, dk, dv, scale, causal);                          \
  }
ATTENTION(float, f32)
ATTENTION(double, f64)
