// common.cuh holds what every kernel family shares: the strided layout
// passed by value to kernels, index arithmetic, grid-stride loops, math
// overloads for float and double, and the KERNEL macro.
//
// The same sources compile two ways: with nvcc to PTX (go generate
// ./kernels), and with the host C++ compiler against emu/cuda_emu.h for the
// CPU emulator (package cuda/internal/emu). Keep to what both accept: no
// dynamic shared memory, no warp intrinsics, no device-side printf.
#pragma once

#ifdef __CUDACC__
#include <climits>
#include <math.h>
#else
#include "emu/cuda_emu.h"
#endif

// KERNEL declares a kernel entry point. Entry points are extern "C" so that
// their PTX names are the plain <op>_<dtype> names the Go side looks up; in
// the emulator they are static functions of one translation unit, listed
// in a table generated from the PTX.
#ifdef __CUDACC__
#define KERNEL extern "C" __global__ void
#define DEVICE __device__ __forceinline__
#else
#define KERNEL static void
#define DEVICE inline
#endif

// MAXDIMS is the most dimensions a Layout holds. The Go side merges
// dimensions that are contiguous in every operand before launching, so only
// unusual views come near it.
#define MAXDIMS 8

// Layout is a view of a buffer: element (i0, i1, ...) is at offset +
// i0*strides[0] + i1*strides[1] + .... When contig is nonzero the view is
// row-major and dense, and element i is at offset + i. The Go side
// (cuda.packLayout) writes this struct byte for byte: keep them in sync.
struct Layout {
  int ndim;
  int contig;
  long long offset;
  long long shape[MAXDIMS];
  long long strides[MAXDIMS];
};

// at returns the buffer offset of the i-th element in row-major order.
DEVICE long long at(const Layout& l, long long i) {
  if (l.contig) return l.offset + i;
  long long off = l.offset;
#ifdef __CUDACC__
#pragma unroll 1
#endif
  for (int d = l.ndim - 1; d >= 0; d--) {
    long long s = l.shape[d];
    off += (i % s) * l.strides[d];
    i /= s;
  }
  return off;
}

// at_range is at over the dimensions [lo, hi) only, without the offset.
DEVICE long long at_range(const Layout& l, long long i, int lo, int hi) {
  long long off = 0;
#ifdef __CUDACC__
#pragma unroll 1
#endif
  for (int d = hi - 1; d >= lo; d--) {
    long long s = l.shape[d];
    off += (i % s) * l.strides[d];
    i /= s;
  }
  return off;
}

// FOR_EACH runs its body for i in [0, n), spread over the whole grid
// (a grid-stride loop), so any grid size covers any n.
#define FOR_EACH(i, n)                                                        \
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
       i += (long long)blockDim.x * gridDim.x)

// FOR_EACH_BLOCK runs its body once per block for rows r in [0, n), the
// whole block cooperating on each row.
#define FOR_EACH_BLOCK(r, n) \
  for (long long r = blockIdx.x; r < (n); r += gridDim.x)

// Math overloads that resolve the same way under nvcc and the host
// compiler.
DEVICE float m_exp(float x) { return expf(x); }
DEVICE double m_exp(double x) { return exp(x); }
DEVICE float m_log(float x) { return logf(x); }
DEVICE double m_log(double x) { return log(x); }
DEVICE float m_sqrt(float x) { return sqrtf(x); }
DEVICE double m_sqrt(double x) { return sqrt(x); }
DEVICE float m_sin(float x) { return sinf(x); }
DEVICE double m_sin(double x) { return sin(x); }
DEVICE float m_cos(float x) { return cosf(x); }
DEVICE double m_cos(double x) { return cos(x); }
DEVICE float m_tanh(float x) { return tanhf(x); }
DEVICE double m_tanh(double x) { return tanh(x); }
DEVICE float m_erf(float x) { return erff(x); }
DEVICE double m_erf(double x) { return erf(x); }
DEVICE float m_pow(float x, float y) { return powf(x, y); }
DEVICE double m_pow(double x, double y) { return pow(x, y); }
DEVICE float m_abs(float x) { return fabsf(x); }
DEVICE double m_abs(double x) { return fabs(x); }
DEVICE long long m_abs(long long x) { return x < 0 ? -x : x; }

// Limits for max/min identities.
template <typename T> struct limits;
template <> struct limits<float> {
  DEVICE static float lowest() { return -INFINITY; }
  DEVICE static float highest() { return INFINITY; }
};
template <> struct limits<double> {
  DEVICE static double lowest() { return -INFINITY; }
  DEVICE static double highest() { return INFINITY; }
};
template <> struct limits<long long> {
  DEVICE static long long lowest() { return LLONG_MIN; }
  DEVICE static long long highest() { return LLONG_MAX; }
};

// is_nan is false for integers.
DEVICE bool is_nan(float x) { return x != x; }
DEVICE bool is_nan(double x) { return x != x; }
DEVICE bool is_nan(long long) { return false; }

// report_index records the first out-of-range index a kernel meets: err[0]
// goes from 0 to 1 once, and err[1] holds the index and err[2] the size. The
// Go side reads err after the launch and panics with a *tensor.IndexError.
DEVICE void report_index(unsigned long long* err, long long idx, long long size) {
  if (atomicCAS(err, 0ULL, 1ULL) == 0ULL) {
    err[1] = (unsigned long long)idx;
    err[2] = (unsigned long long)size;
  }
}

// REDUCE_THREADS is the block size of kernels that reduce in shared memory;
// launch them with exactly this many threads or fewer (a power of two).
#define REDUCE_THREADS 256
