// selftest.cu: kernels that exercise the warp primitives and the helpers
// of common.cuh (warp_reduce, block_reduce) and rows.cuh (rows_reduce), for the tests of the
// emulator (cuda/internal/emu) and of a GPU. No op uses them.
//
//   selftest_shfl_<t>(out, in, kind, arg, width)  out[i] = the shuffle
//       (kind 0 __shfl_sync, 1 up, 2 down, 3 xor) of in[i] across the warp
//   selftest_sums(out, in)                        per block: out[3b] =
//       block_reduce sum, out[3b+1] = block_reduce max, and
//       out[3b+2] = the sum of lane 0's warp_reduce<8> over the block's
//       threads (each group of 8 lanes' sum, counted once a group)
//   selftest_rows(out, in, G)                     out[2i], out[2i+1] = the
//       rows_reduce over thread i's group of G of the affine maps
//       x -> in[2j]*x + in[2j+1] (mod 2^64), composed in lane order
//       (an op that is not commutative, as a Welford merge is not)
//   selftest_syncwarp(out)                        out[i] = the value the
//       next lane of the warp wrote to shared memory before __syncwarp
//   selftest_diverge(out), selftest_mixed(out)    invalid on purpose: lanes
//       that skip a shuffle, lanes at __syncthreads while the others wait
//       at __syncwarp; the emulator must fail the launch
#include "rows.cuh"

template <typename T> DEVICE T shfl_kind(T v, int kind, int arg, int width) {
  switch (kind) {
    case 0: return __shfl_sync(FULL_MASK, v, arg, width);
    case 1: return __shfl_up_sync(FULL_MASK, v, (unsigned)arg, width);
    case 2: return __shfl_down_sync(FULL_MASK, v, (unsigned)arg, width);
    default: return __shfl_xor_sync(FULL_MASK, v, arg, width);
  }
}

#define SHFL(T, t)                                                                  \
  KERNEL selftest_shfl_##t(T* out, const T* in, int kind, int arg, int width) {    \
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;                 \
    out[i] = shfl_kind(in[i], kind, arg, width);                                    \
  }
SHFL(int, i32)
SHFL(unsigned, u32)
SHFL(float, f32)
SHFL(double, f64)
SHFL(long long, i64)

struct AddI64 {
  DEVICE long long operator()(long long a, long long b) const { return a + b; }
};
struct MaxI64 {
  DEVICE long long operator()(long long a, long long b) const { return b > a ? b : a; }
};

KERNEL selftest_sums(long long* out, const long long* in) {
  __shared__ long long scratch[WARP_SIZE];
  __shared__ long long groups[REDUCE_THREADS * 4];
  long long v = in[(long long)blockIdx.x * blockDim.x + threadIdx.x];
  long long s = block_reduce(v, AddI64(), scratch);
  long long m = block_reduce(v, MaxI64(), scratch);
  long long g = warp_reduce<8>(v, AddI64());
  groups[threadIdx.x] = threadIdx.x % 8 == 0 ? g : 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long t = 0;
    for (unsigned k = 0; k < blockDim.x; k++) t += groups[k];
    out[3 * blockIdx.x] = s;
    out[3 * blockIdx.x + 1] = m;
    out[3 * blockIdx.x + 2] = t;
  }
}

// Affine is the map x -> a*x + b on unsigned 64-bit integers.
struct Affine {
  unsigned long long a, b;
};

// ComposeAffine returns f after g (x -> f(g(x))): associative, not
// commutative, and exact.
struct ComposeAffine {
  DEVICE Affine operator()(Affine f, Affine g) const {
    Affine r = {f.a * g.a, f.a * g.b + f.b};
    return r;
  }
};

KERNEL selftest_rows(unsigned long long* out, const unsigned long long* in, int G) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  Affine f = {in[2 * i], in[2 * i + 1]};
  Affine r = rows_reduce(f, (unsigned)G, ComposeAffine());
  out[2 * i] = r.a;
  out[2 * i + 1] = r.b;
}

KERNEL selftest_syncwarp(int* out) {
  __shared__ int buf[1024];
  int t = threadIdx.x, lane = t % WARP_SIZE, base = t - lane;
  int lanes = (int)blockDim.x - base < WARP_SIZE ? (int)blockDim.x - base : WARP_SIZE;
  buf[t] = 1000 * (blockIdx.x + 1) + t;
  __syncwarp();
  out[blockIdx.x * blockDim.x + t] = buf[base + (lane + 1) % lanes];
}

KERNEL selftest_diverge(int* out) {
  int v = threadIdx.x;
  if (threadIdx.x % WARP_SIZE < 16) v = __shfl_xor_sync(FULL_MASK, v, 1);
  out[threadIdx.x] = v;
}

KERNEL selftest_mixed(int* out) {
  if (threadIdx.x == 0) {
    __syncthreads();
  } else {
    __syncwarp();
  }
  out[threadIdx.x] = 1;
}
