// flash.cu: attention on the tensor cores, FlashAttention-2's way, forward
// and backward, for head sizes 64 and 128, causal or unmasked.
//
// nvcc-arch: compute_80
//
// Operands are contiguous: q, k, v [B, L or S, D] (B = batch × heads),
// out and dout [B, L, D], lse and delta [B, L] in float. scale multiplies
// the scores; causal hides key j from query i when j > i (top-left
// aligned, as torch.ones(L, S).tril()). Inputs of type T, float, bf16 or
// f16, are taken as M (bf16_t or f16_t, mma.cuh) as tiles are loaded,
// float ones rounded; every product accumulates in float, the softmax
// runs in float, and results are rounded to T once.
//
// Kernels are named <op>_<dtype> with the head size and M in the op:
// flash_fwd_d64_bf16_f32 takes float32 operands with D = 64 and computes
// in bfloat16, flash_fwd_d64_bf16_bf16 bfloat16 operands.
//
//   flash_fwd_d<D>_<m>_<t>(B, L, S, q, k, v, out, lse, scale, causal)
//       out = softmax(q kᵀ scale) v, lse = the rows' log-sum-exp (natural log)
//   flash_bwd_delta_<t>(n, D, out, dout, delta)
//       delta_i = Σ_d dout_id out_id, for the n = B·L rows
//   flash_bwd_dkdv_d<D>_<m>_<t>(B, L, S, q, k, v, dout, lse, delta, dk, dv, scale, causal)
//   flash_bwd_dq_d<D>_<m>_<t>(B, L, S, q, k, v, dout, lse, delta, dq, scale, causal)
//       with p_ij = exp(q_i·k_j scale − lse_i) recomputed tile by tile and
//       ds_ij = p_ij (dout_i·v_j − delta_i):
//       dv_j = Σ_i p_ij dout_i, dk_j = scale Σ_i ds_ij q_i, dq_i = scale Σ_j ds_ij k_j
//
// The forward gives each block of FA_THREADS threads (4 warps) FA_ROWS =
// 64 queries, 16 per warp, and runs over the keys a tile of 64 at a time
// through shared memory (rows padded by 16 bytes, so that ldmatrix's 8
// rows fall in distinct banks): S = Q Kᵀ by mma.sync into registers, the running
// row maximum and sum updated (the online softmax, in base 2), the tile's
// P rounded to M and used straight from the registers as the A operand of
// O += P V. Neither the [L, S] scores nor P ever reach memory.
//
// The backward splits the work twice instead of adding dq with atomics:
// dkdv gives each block 64 keys (16 per warp) and runs over the queries,
// dq gives each block 64 queries and runs over the keys. Both recompute
// S and dP = dO Vᵀ, so the backward does 7 tile products where one
// kernel with atomics on dq does 5; in exchange every result is the
// same bits on every run and no float dq buffer is needed.
//
// Rounding: q, k, v, dout to M as loaded; P and dS to M before their
// products; everything else in float. With bf16 that is a relative error
// of about 2^-9 per operand.
#include "mma.cuh"

#define FA_THREADS 128  // 4 warps
#define FA_ROWS 64      // queries (forward, dq) or keys (dkdv) per block, 16 per warp
#define FA_PAD 8        // 16-bit values of padding after each row of a shared tile

// FA_LOG2E turns natural-log units into base 2: exp(x) = exp2(x log2 e).
#define FA_LOG2E 1.4426950408889634f
#define FA_LN2 0.6931471805599453f

DEVICE float fa_exp2(float x) { return exp2f(x); }
DEVICE float fa_log2(float x) { return log2f(x); }

// FaIn<T, M> reads inputs of type T as pairs of M, and writes float results
// back as T: float operands are rounded to M, bf16 and f16 ones (the
// storage of BFloat16 and Float16 tensors, common.cuh) are M already.
template <typename T, typename M> struct FaIn;
template <typename M> struct FaIn<float, M> {
  DEVICE static unsigned pair(const float* p) { return Mma<M>::pack(p[0], p[1]); }
  DEVICE static void put(float* p, float v) { *p = v; }
};
template <typename T> struct FaIn16 {
  DEVICE static unsigned pair(const T* p) {
#ifdef __CUDACC__
    return *reinterpret_cast<const unsigned*>(p);  // p is even: 4-byte aligned
#else
    unsigned r;
    memcpy(&r, p, 4);
    return r;
#endif
  }
};
template <> struct FaIn<bf16, bf16_t> : FaIn16<bf16> {
  DEVICE static void put(bf16* p, float v) { *p = to_bf16(v); }
};
template <> struct FaIn<f16, f16_t> : FaIn16<f16> {
  DEVICE static void put(f16* p, float v) { *p = to_f16(v); }
};

// fa_f32 widens an operand to float.
DEVICE float fa_f32(float x) { return x; }
DEVICE float fa_f32(bf16 x) { return to_f32(x); }
DEVICE float fa_f32(f16 x) { return to_f32(x); }

// fa_load_tile copies rows [row0, row0+rows) of a [.., D] matrix into a
// shared tile of W = (D + FA_PAD)/2 words per row, as pairs of M; rows at
// or past end are zeros. All threads of the block take part.
template <typename T, typename M, int D>
DEVICE void fa_load_tile(unsigned* tile, const T* x, long long row0, long long end, int rows) {
  constexpr int W = (D + FA_PAD) / 2, P = D / 2;
  for (int i = threadIdx.x; i < rows * P; i += blockDim.x) {
    int r = i / P, c = i % P;
    tile[r * W + c] = row0 + r < end ? FaIn<T, M>::pair(x + (row0 + r) * D + 2 * c) : 0u;
  }
}

// fa_load_a reads the A fragments of the 16 rows [row0, row0+16) of a
// [.., D] matrix straight from global memory, one per 16 columns; rows
// at or past end are zeros.
template <typename T, typename M, int D>
DEVICE void fa_load_a(unsigned a[D / 16][4], const T* x, long long row0, long long end) {
  int g, q;
  mma_lane(&g, &q);
  long long r0 = row0 + g, r1 = row0 + g + 8;
  UNROLL
  for (int ks = 0; ks < D / 16; ks++) {
    int c = ks * 16 + 2 * q;
    a[ks][0] = r0 < end ? FaIn<T, M>::pair(x + r0 * D + c) : 0u;
    a[ks][1] = r1 < end ? FaIn<T, M>::pair(x + r1 * D + c) : 0u;
    a[ks][2] = r0 < end ? FaIn<T, M>::pair(x + r0 * D + c + 8) : 0u;
    a[ks][3] = r1 < end ? FaIn<T, M>::pair(x + r1 * D + c + 8) : 0u;
  }
}

// fa_rows_times_tile adds A · Tᵀ to acc, A being 16 rows of D in
// fragments and T the first 8·N rows of a shared tile (N tiles of 8
// columns of the result, N even): acc[n] is the 16×8 block of columns
// 8n..8n+7. One ldmatrix gives the B fragments of two blocks: matrices
// 0 and 1 are rows 8n..8n+7 at columns 16ks and 16ks+8, 2 and 3 the
// next 8 rows.
template <typename M, int D, int N>
DEVICE void fa_rows_times_tile(float acc[N][4], const unsigned a[D / 16][4], const unsigned* tile) {
  constexpr int W = (D + FA_PAD) / 2;
  int lane = threadIdx.x % WARP_SIZE;
  const unsigned* at = tile + ((lane / 16) * 8 + lane % 8) * W + (lane / 8) % 2 * 4;
  UNROLL
  for (int ks = 0; ks < D / 16; ks++) {
    UNROLL
    for (int n = 0; n < N; n += 2) {
      unsigned b[4];
      ldmatrix_x4<false>(b, at + n * 8 * W + ks * 8);
      Mma<M>::mma(acc[n], a[ks], b[0], b[1]);
      Mma<M>::mma(acc[n + 1], a[ks], b[2], b[3]);
    }
  }
}

// fa_frags_times_tile adds X · T to acc (16 × D, D/8 blocks of 8
// columns), X being 16 × 16K given as float accumulator blocks x[0..2K)
// (rounded to M here) and T the first 16K rows of a shared tile. One
// transposing ldmatrix gives the B fragments of two blocks of columns:
// matrices 0 and 1 are rows 16kk..16kk+7 and 16kk+8..16kk+15 at columns
// 8n..8n+7, 2 and 3 the same at the next 8 columns.
template <typename M, int D, int K>
DEVICE void fa_frags_times_tile(float acc[D / 8][4], const float x[2 * K][4], const unsigned* tile) {
  constexpr int W = (D + FA_PAD) / 2;
  int lane = threadIdx.x % WARP_SIZE;
  const unsigned* at = tile + ((lane / 8) % 2 * 8 + lane % 8) * W + (lane / 16) * 4;
  UNROLL
  for (int kk = 0; kk < K; kk++) {
    unsigned a[4] = {Mma<M>::pack(x[2 * kk][0], x[2 * kk][1]), Mma<M>::pack(x[2 * kk][2], x[2 * kk][3]),
                     Mma<M>::pack(x[2 * kk + 1][0], x[2 * kk + 1][1]),
                     Mma<M>::pack(x[2 * kk + 1][2], x[2 * kk + 1][3])};
    UNROLL
    for (int n = 0; n < D / 8; n += 2) {
      unsigned b[4];
      ldmatrix_x4<true>(b, at + kk * 16 * W + n * 4);
      Mma<M>::mma(acc[n], a, b[0], b[1]);
      Mma<M>::mma(acc[n + 1], a, b[2], b[3]);
    }
  }
}

// fa_zero clears N accumulator blocks.
template <int N> DEVICE void fa_zero(float acc[N][4]) {
  UNROLL
  for (int n = 0; n < N; n++) acc[n][0] = acc[n][1] = acc[n][2] = acc[n][3] = 0.f;
}

// fa_two_products sets x = A·Tᵀ and y = B·Uᵀ (16 × 8N each, as in
// fa_rows_times_tile): the backward's scores and dP, or their transposes.
template <typename M, int D, int N>
DEVICE void fa_two_products(float x[N][4], float y[N][4], const unsigned a[D / 16][4], const unsigned* t,
                            const unsigned b[D / 16][4], const unsigned* u) {
  fa_zero<N>(x);
  fa_zero<N>(y);
  fa_rows_times_tile<M, D, N>(x, a, t);
  fa_rows_times_tile<M, D, N>(y, b, u);
}

// fa_quad_max and fa_quad_sum combine v over the 4 lanes that share a
// fragment row.
DEVICE float fa_quad_max(float v) {
  v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, 1));
  return fmaxf(v, __shfl_xor_sync(FULL_MASK, v, 2));
}
DEVICE float fa_quad_sum(float v) {
  v += __shfl_xor_sync(FULL_MASK, v, 1);
  return v + __shfl_xor_sync(FULL_MASK, v, 2);
}

// fa_blocks returns the blocks of FA_ROWS rows for n rows.
DEVICE long long fa_blocks(long long n) { return (n + FA_ROWS - 1) / FA_ROWS; }

// fa_store_row writes row g + 8h of 16 × D accumulator blocks, times mul,
// to row (D values of type T): this lane's two columns of each block.
template <typename T, typename M, int D>
DEVICE void fa_store_row(T* row, const float acc[D / 8][4], int h, int qd, float mul) {
  UNROLL
  for (int n = 0; n < D / 8; n++) {
    FaIn<T, M>::put(row + n * 8 + 2 * qd, acc[n][2 * h] * mul);
    FaIn<T, M>::put(row + n * 8 + 2 * qd + 1, acc[n][2 * h + 1] * mul);
  }
}

template <typename T, typename M, int D>
DEVICE void flash_fwd(long long B, long long L, long long S, const T* q, const T* k, const T* v, T* out, float* lse,
                      float scale, int causal) {
  constexpr int W = (D + FA_PAD) / 2, NT = FA_ROWS / 8;
  __shared__ __align__(16) unsigned ks[FA_ROWS * W];
  __shared__ __align__(16) unsigned vs[FA_ROWS * W];
  int g, qd;
  mma_lane(&g, &qd);
  int warp = threadIdx.x / WARP_SIZE;
  long long nqb = fa_blocks(L);
  float sl2 = scale * FA_LOG2E;
  FOR_EACH_BLOCK(blk, B * nqb) {
    // The last query blocks have the most keys under causal: start them first.
    long long b = blk / nqb, i0 = (nqb - 1 - blk % nqb) * FA_ROWS, r0 = i0 + warp * 16;
    const T* qb = q + b * L * D;
    const T* kb = k + b * S * D;
    const T* vb = v + b * S * D;
    unsigned qf[D / 16][4];
    fa_load_a<T, M, D>(qf, qb, r0, L);
    float o[D / 8][4];
    fa_zero<D / 8>(o);
    // Rows g and g+8 of the warp's 16: running maximum (base 2) and this
    // lane's part of the running sum.
    float m[2] = {-INFINITY, -INFINITY}, l[2] = {0.f, 0.f};
    long long end = causal ? (S < i0 + FA_ROWS ? S : i0 + FA_ROWS) : S;
    for (long long j0 = 0; j0 < end; j0 += FA_ROWS) {
      __syncthreads();  // the previous tile is read
      fa_load_tile<T, M, D>(ks, kb, j0, S, FA_ROWS);
      fa_load_tile<T, M, D>(vs, vb, j0, S, FA_ROWS);
      __syncthreads();
      float s[NT][4];
      fa_zero<NT>(s);
      fa_rows_times_tile<M, D, NT>(s, qf, ks);
      float mx[2] = {-INFINITY, -INFINITY};
      UNROLL
      for (int n = 0; n < NT; n++) {
        UNROLL
        for (int i = 0; i < 4; i++) {
          long long key = j0 + n * 8 + 2 * qd + (i & 1), row = r0 + g + 8 * (i >> 1);
          float x = s[n][i] * sl2;
          if (key >= S || (causal && key > row)) x = -INFINITY;
          s[n][i] = x;
          mx[i >> 1] = fmaxf(mx[i >> 1], x);
        }
      }
      float base[2];
      UNROLL
      for (int h = 0; h < 2; h++) {
        float mn = fmaxf(m[h], fa_quad_max(mx[h]));
        // A row with no key yet keeps m = -inf: subtract 0, not -inf.
        base[h] = mn == -INFINITY ? 0.f : mn;
        float corr = fa_exp2(m[h] - base[h]);
        l[h] *= corr;
        UNROLL
        for (int n = 0; n < D / 8; n++) o[n][2 * h] *= corr, o[n][2 * h + 1] *= corr;
        m[h] = mn;
      }
      UNROLL
      for (int n = 0; n < NT; n++) {
        UNROLL
        for (int i = 0; i < 4; i++) {
          float p = fa_exp2(s[n][i] - base[i >> 1]);
          s[n][i] = p;
          l[i >> 1] += p;
        }
      }
      fa_frags_times_tile<M, D, NT / 2>(o, s, vs);
    }
    UNROLL
    for (int h = 0; h < 2; h++) {
      float sum = fa_quad_sum(l[h]);
      long long row = r0 + g + 8 * h;
      if (row >= L) continue;
      fa_store_row<T, M, D>(out + (b * L + row) * D, o, h, qd, 1.f / sum);
      if (qd == 0) lse[b * L + row] = (m[h] + fa_log2(sum)) * FA_LN2;
    }
  }
}

struct FaAdd {
  DEVICE float operator()(float a, float b) const { return a + b; }
};

// flash_bwd_delta gives each warp a row at a time.
template <typename T>
DEVICE void flash_bwd_delta(long long n, int D, const T* out, const T* dout, float* delta) {
  int lane = threadIdx.x % WARP_SIZE;
  long long warps = (long long)gridDim.x * (blockDim.x / WARP_SIZE);
  for (long long r = (long long)blockIdx.x * (blockDim.x / WARP_SIZE) + threadIdx.x / WARP_SIZE; r < n; r += warps) {
    float acc = 0.f;
    for (int e = lane; e < D; e += WARP_SIZE)
      acc += fa_f32(out[r * D + e]) * fa_f32(dout[r * D + e]);
    acc = warp_reduce(acc, FaAdd());
    if (lane == 0) delta[r] = acc;
  }
}

// FaBwd<D>::QT is the query tile of dkdv and the key tile of dq: 64 rows
// for D 64, 32 for D 128 (fewer live registers).
template <int D> struct FaBwd { static constexpr int QT = D == 128 ? 32 : 64; };

template <typename T, typename M, int D>
DEVICE void flash_bwd_dkdv(long long B, long long L, long long S, const T* q, const T* k, const T* v, const T* dout,
                           const float* lse, const float* delta, T* dk, T* dv, float scale, int causal) {
  constexpr int W = (D + FA_PAD) / 2, QT = FaBwd<D>::QT, NT = QT / 8;
  __shared__ __align__(16) unsigned qs[QT * W];
  __shared__ __align__(16) unsigned dos[QT * W];
  __shared__ float ls[QT], ds[QT];
  int g, qd;
  mma_lane(&g, &qd);
  int warp = threadIdx.x / WARP_SIZE;
  long long nkb = fa_blocks(S);
  float sl2 = scale * FA_LOG2E;
  FOR_EACH_BLOCK(blk, B * nkb) {
    // Under causal the first key blocks see the most queries.
    long long b = blk / nkb, j0 = (blk % nkb) * FA_ROWS, c0 = j0 + warp * 16;
    const T* qb = q + b * L * D;
    const T* dob = dout + b * L * D;
    unsigned kf[D / 16][4], vf[D / 16][4];
    fa_load_a<T, M, D>(kf, k + b * S * D, c0, S);
    fa_load_a<T, M, D>(vf, v + b * S * D, c0, S);
    float gk[D / 8][4], gv[D / 8][4];
    fa_zero<D / 8>(gk);
    fa_zero<D / 8>(gv);
    // With causal, no query before j0 sees the block's keys.
    long long start = causal ? j0 / QT * QT : 0;
    for (long long i0 = start; i0 < L; i0 += QT) {
      __syncthreads();
      fa_load_tile<T, M, D>(qs, qb, i0, L, QT);
      fa_load_tile<T, M, D>(dos, dob, i0, L, QT);
      for (int r = threadIdx.x; r < QT; r += blockDim.x) {
        bool in = i0 + r < L;
        ls[r] = in ? lse[b * L + i0 + r] * FA_LOG2E : INFINITY;
        ds[r] = in ? delta[b * L + i0 + r] : 0.f;
      }
      __syncthreads();
      // Sᵀ and dPᵀ: the warp's 16 keys by the tile's QT queries.
      float st[NT][4], dpt[NT][4];
      fa_two_products<M, D, NT>(st, dpt, kf, qs, vf, dos);
      UNROLL
      for (int n = 0; n < NT; n++) {
        UNROLL
        for (int i = 0; i < 4; i++) {
          int c = n * 8 + 2 * qd + (i & 1);
          long long key = c0 + g + 8 * (i >> 1), query = i0 + c;
          float p = fa_exp2(st[n][i] * sl2 - ls[c]);
          if (key >= S || query >= L || (causal && key > query)) p = 0.f;
          st[n][i] = p;
          dpt[n][i] = p * (dpt[n][i] - ds[c]);
        }
      }
      fa_frags_times_tile<M, D, NT / 2>(gv, st, dos);
      fa_frags_times_tile<M, D, NT / 2>(gk, dpt, qs);
    }
    UNROLL
    for (int h = 0; h < 2; h++) {
      long long key = c0 + g + 8 * h;
      if (key >= S) continue;
      fa_store_row<T, M, D>(dk + (b * S + key) * D, gk, h, qd, scale);
      fa_store_row<T, M, D>(dv + (b * S + key) * D, gv, h, qd, 1.f);
    }
  }
}

template <typename T, typename M, int D>
DEVICE void flash_bwd_dq(long long B, long long L, long long S, const T* q, const T* k, const T* v, const T* dout,
                         const float* lse, const float* delta, T* dq, float scale, int causal) {
  constexpr int W = (D + FA_PAD) / 2, KT = FaBwd<D>::QT, NT = KT / 8;
  __shared__ __align__(16) unsigned ks[KT * W];
  __shared__ __align__(16) unsigned vs[KT * W];
  int g, qd;
  mma_lane(&g, &qd);
  int warp = threadIdx.x / WARP_SIZE;
  long long nqb = fa_blocks(L);
  float sl2 = scale * FA_LOG2E;
  FOR_EACH_BLOCK(blk, B * nqb) {
    long long b = blk / nqb, i0 = (nqb - 1 - blk % nqb) * FA_ROWS, r0 = i0 + warp * 16;
    const T* kb = k + b * S * D;
    const T* vb = v + b * S * D;
    unsigned qf[D / 16][4], dof[D / 16][4];
    fa_load_a<T, M, D>(qf, q + b * L * D, r0, L);
    fa_load_a<T, M, D>(dof, dout + b * L * D, r0, L);
    float lr[2], dr[2];
    UNROLL
    for (int h = 0; h < 2; h++) {
      long long row = r0 + g + 8 * h;
      lr[h] = row < L ? lse[b * L + row] * FA_LOG2E : INFINITY;
      dr[h] = row < L ? delta[b * L + row] : 0.f;
    }
    float gq[D / 8][4];
    fa_zero<D / 8>(gq);
    long long end = causal ? (S < i0 + FA_ROWS ? S : i0 + FA_ROWS) : S;
    for (long long j0 = 0; j0 < end; j0 += KT) {
      __syncthreads();
      fa_load_tile<T, M, D>(ks, kb, j0, S, KT);
      fa_load_tile<T, M, D>(vs, vb, j0, S, KT);
      __syncthreads();
      float s[NT][4], dp[NT][4];
      fa_two_products<M, D, NT>(s, dp, qf, ks, dof, vs);
      UNROLL
      for (int n = 0; n < NT; n++) {
        UNROLL
        for (int i = 0; i < 4; i++) {
          int h = i >> 1;
          long long key = j0 + n * 8 + 2 * qd + (i & 1), row = r0 + g + 8 * h;
          float p = fa_exp2(s[n][i] * sl2 - lr[h]);
          if (key >= S || row >= L || (causal && key > row)) p = 0.f;
          dp[n][i] = p * (dp[n][i] - dr[h]);
        }
      }
      fa_frags_times_tile<M, D, NT / 2>(gq, dp, ks);
    }
    UNROLL
    for (int h = 0; h < 2; h++) {
      long long row = r0 + g + 8 * h;
      if (row >= L) continue;
      fa_store_row<T, M, D>(dq + (b * L + row) * D, gq, h, qd, scale);
    }
  }
}

// mma_check_<m>_f32 runs one mma.sync on a 16×16 a and a 16×8 b (row-major
// float, rounded to M) plus c (16×8) and writes d = a·b + c (16×8): the
// tests compare it with a CPU product, on the emulator and on a GPU, which
// checks the fragment layout of mma.cuh against the hardware's. One warp.
template <typename M>
DEVICE void mma_check(const float* a, const float* b, const float* c, float* d) {
  int g, q;
  mma_lane(&g, &q);
  unsigned af[4] = {Mma<M>::pack(a[g * 16 + 2 * q], a[g * 16 + 2 * q + 1]),
                    Mma<M>::pack(a[(g + 8) * 16 + 2 * q], a[(g + 8) * 16 + 2 * q + 1]),
                    Mma<M>::pack(a[g * 16 + 2 * q + 8], a[g * 16 + 2 * q + 9]),
                    Mma<M>::pack(a[(g + 8) * 16 + 2 * q + 8], a[(g + 8) * 16 + 2 * q + 9])};
  unsigned b0 = Mma<M>::pack(b[(2 * q) * 8 + g], b[(2 * q + 1) * 8 + g]);
  unsigned b1 = Mma<M>::pack(b[(2 * q + 8) * 8 + g], b[(2 * q + 9) * 8 + g]);
  float acc[4];
  for (int i = 0; i < 4; i++) acc[i] = c[(g + 8 * (i / 2)) * 8 + 2 * q + i % 2];
  Mma<M>::mma(acc, af, b0, b1);
  for (int i = 0; i < 4; i++) d[(g + 8 * (i / 2)) * 8 + 2 * q + i % 2] = acc[i];
}

KERNEL mma_check_bf16_f32(const float* a, const float* b, const float* c, float* d) { mma_check<bf16_t>(a, b, c, d); }
KERNEL mma_check_f16_f32(const float* a, const float* b, const float* c, float* d) { mma_check<f16_t>(a, b, c, d); }

#define FLASH(T, M, D, name)                                                                                          \
  KERNEL flash_fwd_d##D##_##name(long long B, long long L, long long S, const T* q, const T* k, const T* v, T* out,   \
                                 float* lse, float scale, int causal) {                                               \
    flash_fwd<T, M, D>(B, L, S, q, k, v, out, lse, scale, causal);                                                    \
  }                                                                                                                   \
  KERNEL flash_bwd_dkdv_d##D##_##name(long long B, long long L, long long S, const T* q, const T* k, const T* v,      \
                                      const T* dout, const float* lse, const float* delta, T* dk, T* dv, float scale, \
                                      int causal) {                                                                   \
    flash_bwd_dkdv<T, M, D>(B, L, S, q, k, v, dout, lse, delta, dk, dv, scale, causal);                               \
  }                                                                                                                   \
  KERNEL flash_bwd_dq_d##D##_##name(long long B, long long L, long long S, const T* q, const T* k, const T* v,        \
                                    const T* dout, const float* lse, const float* delta, T* dq, float scale,          \
                                    int causal) {                                                                     \
    flash_bwd_dq<T, M, D>(B, L, S, q, k, v, dout, lse, delta, dq, scale, causal);                                     \
  }

FLASH(float, bf16_t, 64, bf16_f32)
FLASH(float, bf16_t, 128, bf16_f32)
FLASH(float, f16_t, 64, f16_f32)
FLASH(float, f16_t, 128, f16_f32)
FLASH(bf16, bf16_t, 64, bf16_bf16)
FLASH(bf16, bf16_t, 128, bf16_bf16)
FLASH(f16, f16_t, 64, f16_f16)
FLASH(f16, f16_t, 128, f16_f16)

KERNEL flash_bwd_delta_f32(long long n, int D, const float* out, const float* dout, float* delta) {
  flash_bwd_delta<float>(n, D, out, dout, delta);
}
KERNEL flash_bwd_delta_bf16(long long n, int D, const bf16* out, const bf16* dout, float* delta) {
  flash_bwd_delta<bf16>(n, D, out, dout, delta);
}
KERNEL flash_bwd_delta_f16(long long n, int D, const f16* out, const f16* dout, float* delta) {
  flash_bwd_delta<f16>(n, D, out, dout, delta);
}
