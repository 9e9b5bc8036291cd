// cuda_emu.h lets the host C++ compiler (g++ -std=c++20) build the CUDA C
// sources of kernels/ for the CPU emulator in package cuda/internal/emu.
//
// It supplies what the kernels use of CUDA: the built-in index variables,
// warpSize, the __global__/__device__/__shared__ qualifiers, __syncthreads,
// the warp primitives (__syncwarp, __shfl_sync, __shfl_up_sync,
// __shfl_down_sync, __shfl_xor_sync), the tensor cores' mma.sync m16n8k16
// and the shared-memory fragment load ldmatrix (emu_mma_m16n8k16 and
// emu_ldmatrix_x4, for kernels/mma.cuh), atomics and the device math
// functions (the C library's). The emulator runs the blocks of a grid one after
// another on one host thread; the threads of a block run one after another,
// as coroutines that switch at __syncthreads and at every warp primitive,
// and one launch runs at a time in the process (emu_launch holds a lock),
// so __shared__ variables are plain statics and atomics need no hardware
// support (they use std::atomic_ref all the same, so that the emulator may
// spread blocks over host threads one day). Statics, not thread_local: a
// thread_local array is in every thread's static TLS block, which the C
// library clears whenever a thread starts (the flash kernels' shared
// tiles made that 728 KB for each of the Go runtime's threads).
//
// Warps are the threads of a block in groups of 32 by linear thread index,
// the last one partial when the block is not a multiple of 32. A warp
// primitive waits until every lane of the warp has reached a warp
// primitive, then exchanges values: the emulator checks that every lane
// takes part (a lane that has returned, or one waiting at __syncthreads
// while the others shuffle, fails the launch, where a GPU's behaviour is
// undefined) and that the mask names every lane of the warp (only full
// masks are emulated). A shuffle from a lane outside the width's segment,
// or past the end of a partial warp, returns the caller's own value.
#pragma once

#include <atomic>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <math.h>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __shared__ static

struct uint3 {
  unsigned x, y, z;
};
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};

// The index variables of the running emulated thread; the scheduler sets
// them before it runs or resumes a thread.
inline thread_local uint3 threadIdx;
inline thread_local uint3 blockIdx;
inline thread_local dim3 blockDim;
inline thread_local dim3 gridDim;

// __syncthreads suspends the running thread until every thread of the
// block has reached it. The emulator's scheduler defines it.
extern "C" void emu_syncthreads(void);
#define __syncthreads() emu_syncthreads()

// warpSize is the number of threads of a warp.
inline constexpr int warpSize = 32;

// emu_shfl is a warp exchange: the calling lane offers bits and receives
// those of the lane that kind (0 idx, 1 up, 2 down, 3 xor), arg and width
// select, as CUDA's shuffles do. emu_syncwarp is the warp barrier, and
// emu_fault fails the launch with msg. The scheduler defines them.
extern "C" unsigned long long emu_shfl(unsigned mask, unsigned long long bits, int kind, int arg, int width);
extern "C" void emu_syncwarp(unsigned mask);
extern "C" void emu_fault(const char* msg);

// emu_warp_gather is the emulator's warp-wide exchange of whole
// fragments: every lane of the calling warp offers bytes bytes (at most
// EMU_GATHER_MAX) at mine, and each receives all 32 lanes' offers at all,
// lane by lane (zeros for lanes past the end of a partial warp). It
// returns the caller's lane. The scheduler defines it; the tensor-core
// instructions below are built on it.
#define EMU_GATHER_MAX 64
extern "C" int emu_warp_gather(unsigned mask, const void* mine, int bytes, void* all);

inline void __syncwarp(unsigned mask = 0xffffffffu) { emu_syncwarp(mask); }

template <typename T> inline T emu_shfl_as(unsigned mask, T v, int kind, int arg, int width) {
  static_assert(sizeof(T) <= 8, "shuffles move at most 8 bytes");
  unsigned long long bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  bits = emu_shfl(mask, bits, kind, arg, width);
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

// The shuffles of CUDA, for the types CUDA has them for.
#define EMU_SHFL(T)                                                                     \
  inline T __shfl_sync(unsigned mask, T v, int src, int width = warpSize) {            \
    return emu_shfl_as(mask, v, 0, src, width);                                        \
  }                                                                                    \
  inline T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = warpSize) {  \
    return emu_shfl_as(mask, v, 1, (int)delta, width);                                 \
  }                                                                                    \
  inline T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = warpSize) { \
    return emu_shfl_as(mask, v, 2, (int)delta, width);                                 \
  }                                                                                    \
  inline T __shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = warpSize) {  \
    return emu_shfl_as(mask, v, 3, lane_mask, width);                                  \
  }
EMU_SHFL(int)
EMU_SHFL(unsigned)
EMU_SHFL(long)
EMU_SHFL(unsigned long)
EMU_SHFL(long long)
EMU_SHFL(unsigned long long)
EMU_SHFL(float)
EMU_SHFL(double)
#undef EMU_SHFL

// Atomics return the old value, as CUDA's do.
template <typename T> inline T emu_atomic_add(T* p, T v) {
  return std::atomic_ref<T>(*p).fetch_add(v);
}
inline float atomicAdd(float* p, float v) { return emu_atomic_add(p, v); }
inline double atomicAdd(double* p, double v) { return emu_atomic_add(p, v); }
inline int atomicAdd(int* p, int v) { return emu_atomic_add(p, v); }
inline unsigned atomicAdd(unsigned* p, unsigned v) { return emu_atomic_add(p, v); }
inline unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) {
  return emu_atomic_add(p, v);
}

template <typename T> inline T emu_atomic_max(T* p, T v) {
  std::atomic_ref<T> r(*p);
  T old = r.load();
  while (old < v && !r.compare_exchange_weak(old, v)) {
  }
  return old;
}
template <typename T> inline T emu_atomic_min(T* p, T v) {
  std::atomic_ref<T> r(*p);
  T old = r.load();
  while (old > v && !r.compare_exchange_weak(old, v)) {
  }
  return old;
}
inline int atomicMax(int* p, int v) { return emu_atomic_max(p, v); }
inline long long atomicMax(long long* p, long long v) { return emu_atomic_max(p, v); }
inline unsigned long long atomicMax(unsigned long long* p, unsigned long long v) {
  return emu_atomic_max(p, v);
}
inline int atomicMin(int* p, int v) { return emu_atomic_min(p, v); }
inline long long atomicMin(long long* p, long long v) { return emu_atomic_min(p, v); }

template <typename T> inline T emu_atomic_cas(T* p, T cmp, T val) {
  std::atomic_ref<T>(*p).compare_exchange_strong(cmp, val);
  return cmp;  // the old value: cmp is overwritten with it on failure
}
inline int atomicCAS(int* p, int cmp, int val) { return emu_atomic_cas(p, cmp, val); }
inline unsigned atomicCAS(unsigned* p, unsigned cmp, unsigned val) {
  return emu_atomic_cas(p, cmp, val);
}
inline unsigned long long atomicCAS(unsigned long long* p, unsigned long long cmp,
                                    unsigned long long val) {
  return emu_atomic_cas(p, cmp, val);
}
inline int atomicExch(int* p, int v) { return std::atomic_ref<int>(*p).exchange(v); }

// Fast-math intrinsics map to the C library.
inline float __expf(float x) { return expf(x); }
inline float __logf(float x) { return logf(x); }
inline float __fdividef(float x, float y) { return x / y; }

// Bit casts.
inline float __int_as_float(int x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}
inline int __float_as_int(float x) {
  int i;
  std::memcpy(&i, &x, 4);
  return i;
}
inline double __longlong_as_double(long long x) {
  double f;
  std::memcpy(&f, &x, 8);
  return f;
}
inline long long __double_as_longlong(double x) {
  long long i;
  std::memcpy(&i, &x, 8);
  return i;
}
inline unsigned __umulhi(unsigned a, unsigned b) {
  return (unsigned)(((unsigned long long)a * b) >> 32);
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}

// ---- tensor cores ----

// emu_bf16_to_f32 and emu_f16_to_f32 widen the 16 bits of a bfloat16 or
// an IEEE half to float, exactly.
inline float emu_bf16_to_f32(unsigned h) {
  unsigned u = (h & 0xffffu) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline float emu_f16_to_f32(unsigned h) {
  unsigned sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu, u;
  if (exp == 0) {
    float f = std::ldexp((float)man, -24);  // zero or subnormal: exact
    return sign ? -f : f;
  }
  if (exp == 31) u = sign | 0x7f800000u | (man << 13);  // inf or NaN
  else u = sign | ((exp + 112) << 23) | (man << 13);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// emu_full_warp fails the launch unless the calling thread's warp has all
// 32 lanes, as the tensor-core instructions need; what names the
// instruction.
inline void emu_full_warp(const char* what) {
  unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
  unsigned linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  if ((linear / 32 + 1) * 32 > nthreads) emu_fault(what);
}

// emu_mma_m16n8k16 is PTX's mma.sync.aligned.m16n8k16.row.col.f32.T.T.f32
// for T bf16 (f16 == 0) or f16: d = a·b + c for a 16×16 A, a 16×8 B and
// 16×8 C and D, spread over the 32 lanes of the warp in the fragment
// layout of the PTX ISA ("Matrix Fragments for mma.m16n8k16 with floating
// point type"). With g = lane/4 and q = lane%4, a lane holds
//
//   a[0] A[g][2q..2q+1]     a[1] A[g+8][2q..2q+1]
//   a[2] A[g][2q+8..2q+9]   a[3] A[g+8][2q+8..2q+9]   (low half first)
//   b[0] B[2q..2q+1][g]     b[1] B[2q+8..2q+9][g]
//   c[i], d[i]  C[g + 8(i/2)][2q + i%2]
//
// Every lane of a full warp must call it (the emulator checks). Each
// lane gathers the warp's fragments and computes its own four outputs:
// the sixteen products are exact (8 or 11 significant bits each), and the
// sum of the products and c is rounded once to float. A GPU adds them in
// an order and with internal truncation that NVIDIA does not document,
// so its results may differ from these in the last bits of float.
inline void emu_mma_m16n8k16(float d[4], const unsigned a[4], const unsigned b[2], const float c[4], int f16) {
  struct Frag {
    unsigned a[4], b[2];
    float c[4];
  } mine, all[32];
  static_assert(sizeof(Frag) <= EMU_GATHER_MAX, "fragment larger than a gather");
  for (int i = 0; i < 4; i++) mine.a[i] = a[i], mine.c[i] = c[i];
  mine.b[0] = b[0], mine.b[1] = b[1];
  emu_full_warp("mma.sync in a partial warp (the block is not a multiple of 32 threads)");
  int lane = emu_warp_gather(0xffffffffu, &mine, sizeof mine, all);
  auto half = [&](unsigned reg, int k) -> double {
    unsigned h = (reg >> (16 * (k & 1))) & 0xffffu;
    return f16 ? emu_f16_to_f32(h) : emu_bf16_to_f32(h);
  };
  // A[r][k] and B[k][n] from the lanes that hold them.
  auto A = [&](int r, int k) { return half(all[(r % 8) * 4 + (k % 8) / 2].a[r / 8 + 2 * (k / 8)], k); };
  auto B = [&](int k, int n) { return half(all[n * 4 + (k % 8) / 2].b[k / 8], k); };
  int g = lane / 4, q = lane % 4;
  for (int i = 0; i < 4; i++) {
    int r = g + 8 * (i / 2), n = 2 * q + i % 2;
    double s = c[i];
    for (int k = 0; k < 16; k++) s += A(r, k) * B(k, n);
    d[i] = (float)s;
  }
}

// emu_ldmatrix_x4 is PTX's ldmatrix.sync.aligned.m8n8.x4[.trans].shared.b16:
// four 8×8 matrices of 16-bit values, lane l giving the address of row
// l%8 of matrix l/8 (16 bytes, aligned to 16). Lane l receives in r[i]
// row l/4, columns 2(l%4) and 2(l%4)+1 of matrix i (low half first); with
// trans, the same of matrix i transposed: rows 2(l%4) and 2(l%4)+1 of
// column l/4. Each lane reads its row when it reaches the instruction,
// and every lane of a full warp must call it.
inline void emu_ldmatrix_x4(unsigned r[4], const void* row, int trans) {
  struct Row {
    unsigned short h[8];
  } mine, all[32];
  if ((unsigned long long)row % 16 != 0) emu_fault("ldmatrix with a row address not aligned to 16 bytes");
  emu_full_warp("ldmatrix in a partial warp (the block is not a multiple of 32 threads)");
  std::memcpy(&mine, row, sizeof mine);
  int lane = emu_warp_gather(0xffffffffu, &mine, sizeof mine, all);
  int g = lane / 4, q = lane % 4;
  for (int i = 0; i < 4; i++) {
    const Row* m = all + 8 * i;
    if (trans) r[i] = m[2 * q].h[g] | (unsigned)m[2 * q + 1].h[g] << 16;
    else r[i] = m[g].h[2 * q] | (unsigned)m[g].h[2 * q + 1] << 16;
  }
}
