// cuda_emu.h lets the host C++ compiler (g++ -std=c++20) build the CUDA C
// sources of kernels/ for the CPU emulator in package cuda/internal/emu.
//
// It supplies what the kernels use of CUDA: the built-in index variables,
// warpSize, the __global__/__device__/__shared__ qualifiers, __syncthreads,
// the warp primitives (__syncwarp, __shfl_sync, __shfl_up_sync,
// __shfl_down_sync, __shfl_xor_sync), atomics and the device math functions
// (the C library's). The emulator runs the blocks of a grid one after
// another on one host thread; the threads of a block run one after another,
// as coroutines that switch at __syncthreads and at every warp primitive,
// so __shared__ variables are per-host-thread statics and atomics need no
// hardware support (they use std::atomic_ref all the same, so that the
// emulator may spread blocks over host threads one day).
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
#define __shared__ static thread_local

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
