// common.cuh holds what every kernel family shares: the strided layout
// passed by value to kernels, index arithmetic, grid-stride loops, math
// overloads for float and double, aligned vector loads, warp and block
// reductions, and the KERNEL macro.
//
// The same sources compile two ways: with nvcc to PTX (go generate
// ./kernels), and with the host C++ compiler for the CPU emulator (package
// cuda/internal/emu), whose cuda_emu.h comes before them there. Keep to what both accept: no
// dynamic shared memory, no device-side printf, and of the warp intrinsics
// only warpSize, __syncwarp and the shuffles (__shfl_sync, __shfl_up_sync,
// __shfl_down_sync, __shfl_xor_sync) with the full mask 0xffffffff, every
// lane of the warp taking part; prefer the helpers below (warp_reduce,
// block_reduce, shfl_xor).
#pragma once

#ifdef __CUDACC__
#include <climits>
#include <cstring>
#include <math.h>
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

// UNROLL asks nvcc to unroll the loop that follows completely (loops over
// a register array must be, for the array to stay in registers).
#ifdef __CUDACC__
#define UNROLL _Pragma("unroll")
#else
#define UNROLL
#endif

// m_mul is a product rounded on its own: nvcc contracts a*b+c into a fused
// multiply-add, which keeps the product's rounding error, so a product
// that must equal the same product rounded elsewhere (layer_norm_backward's
// g*w minus the row mean of g*w, exactly 0 for rows of one) is written
// m_mul(a, b).
#ifdef __CUDACC__
DEVICE float m_mul(float a, float b) { return __fmul_rn(a, b); }
DEVICE double m_mul(double a, double b) { return __dmul_rn(a, b); }
#else
DEVICE float m_mul(float a, float b) { return a * b; }
DEVICE double m_mul(double a, double b) { return a * b; }
#endif
DEVICE float m_abs(float x) { return fabsf(x); }
DEVICE double m_abs(double x) { return fabs(x); }
DEVICE long long m_abs(long long x) { return x < 0 ? -x : x; }

// ---- 16-bit floats ----

// bf16 and f16 are bfloat16 and float16 (IEEE binary16) as their bits, the
// storage of gotensor's BFloat16 and Float16 tensors. Kernels load them as
// float, compute in float and store the result rounded to nearest, ties to
// even, as PyTorch does; the conversions below are bit arithmetic, the
// same under nvcc and in the emulator (tensorlib/backend's BF16FromFloat32
// and F16FromFloat32 are the Go twins, checked against PyTorch), except
// float16's on a GPU, which take the hardware's cvt instructions (the same
// numbers; a NaN's bits differ).
struct bf16 {
  unsigned short bits;
};
struct f16 {
  unsigned short bits;
};

DEVICE unsigned f32_bits(float f) {
#ifdef __CUDACC__
  return __float_as_uint(f);
#else
  unsigned u;
  memcpy(&u, &f, 4);
  return u;
#endif
}

DEVICE float bits_f32(unsigned u) {
#ifdef __CUDACC__
  return __uint_as_float(u);
#else
  float f;
  memcpy(&f, &u, 4);
  return f;
#endif
}

DEVICE float to_f32(bf16 b) { return bits_f32((unsigned)b.bits << 16); }

DEVICE float to_f32(f16 h) {
#ifdef __CUDACC__
  // The hardware's conversion: exact, as the bit arithmetic below.
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.bits));
  return f;
#else
  unsigned sign = (unsigned)(h.bits & 0x8000) << 16, e = (h.bits >> 10) & 0x1f, m = h.bits & 0x3ff;
  if (e == 0x1f) return bits_f32(sign | 0x7f800000u | m << 13);
  if (e != 0) return bits_f32(sign | (e + 112) << 23 | m << 13);
  float v = (float)m * (1.0f / 16777216.0f);  // a subnormal or zero, exact
  return sign ? -v : v;
#endif
}

DEVICE bf16 to_bf16(float f) {
  unsigned u = f32_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return bf16{(unsigned short)(u >> 16 | 0x40)};  // NaN stays quiet NaN
  u += 0x7fffu + ((u >> 16) & 1);
  return bf16{(unsigned short)(u >> 16)};
}

DEVICE f16 to_f16(float f) {
#ifdef __CUDACC__
  // The hardware's conversion, round to nearest even as the bit arithmetic
  // below (a NaN becomes the canonical 0x7fff, the emulator's sign|0x7e00).
  unsigned short h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  return f16{h};
#else
  unsigned u = f32_bits(f);
  unsigned short sign = (unsigned short)((u >> 16) & 0x8000);
  unsigned a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return f16{(unsigned short)(sign | 0x7e00)};  // NaN
  if (a >= 0x477ff000u) return f16{(unsigned short)(sign | 0x7c00)};  // 65520 and up: Inf
  if (a >= 0x38800000u) {                                             // normal
    a -= 112u << 23;
    a += 0xfffu + ((a >> 13) & 1);
    return f16{(unsigned short)(sign | (a >> 13))};
  }
  if (a <= 0x33000000u) return f16{sign};  // 2^-25 and less: zero
  unsigned e = a >> 23, m = (a & 0x7fffffu) | 0x800000u, shift = 126 - e;
  unsigned q = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
  if (rem > half || (rem == half && (q & 1))) q++;
  return f16{(unsigned short)(sign | q)};
#endif
}

// from_f32<H> rounds v to the 16-bit float H.
template <typename H> DEVICE H from_f32(float v);
template <> DEVICE bf16 from_f32<bf16>(float v) { return to_bf16(v); }
template <> DEVICE f16 from_f32<f16>(float v) { return to_f16(v); }

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

// ---- vector loads ----

// Vec is N elements of T read or written as one aligned access (ld.v4.f32
// for Vec<float, 4>): the pointer must be aligned to sizeof(Vec). The
// emulator checks the alignment, as the GPU faults on a misaligned one.
template <typename T, int N> struct alignas(sizeof(T) * N) Vec {
  T v[N];
};

// VecWidth<T>::n is how many T make a 16-byte vector access (1 for types
// that have none).
template <typename T> struct VecWidth { static constexpr int n = 1; };
template <> struct VecWidth<float> { static constexpr int n = 4; };
template <> struct VecWidth<double> { static constexpr int n = 2; };
template <> struct VecWidth<long long> { static constexpr int n = 2; };
template <> struct VecWidth<unsigned char> { static constexpr int n = 4; };
template <> struct VecWidth<bf16> { static constexpr int n = 8; };
template <> struct VecWidth<f16> { static constexpr int n = 8; };

// is_aligned reports whether p may be read as Vec<T, N>.
template <int N, typename T> DEVICE bool is_aligned(const T* p) {
  return ((unsigned long long)p % (sizeof(T) * N)) == 0;
}

// load_vec reads p[0..N) in one access; p must be aligned (is_aligned).
template <int N, typename T> DEVICE Vec<T, N> load_vec(const T* p) {
#ifdef __CUDACC__
  return *reinterpret_cast<const Vec<T, N>*>(p);
#else
  if (!is_aligned<N>(p)) emu_fault("misaligned vector load (a GPU raises an illegal address error)");
  Vec<T, N> v;
  std::memcpy(&v, p, sizeof v);
  return v;
#endif
}

// store_vec writes v to p[0..N) in one access; p must be aligned.
template <int N, typename T> DEVICE void store_vec(T* p, const Vec<T, N>& v) {
#ifdef __CUDACC__
  *reinterpret_cast<Vec<T, N>*>(p) = v;
#else
  if (!is_aligned<N>(p)) emu_fault("misaligned vector store (a GPU raises an illegal address error)");
  std::memcpy(p, &v, sizeof v);
#endif
}

// ---- warp and block reductions ----

// WARP_SIZE is warpSize as a constant, for array sizes.
#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu

// shfl_words moves v, of any trivially copyable type (a struct of a value
// and an index, say), as 32-bit words through the shuffle selected by Down
// (__shfl_down_sync, else __shfl_xor_sync) with arg.
template <bool Down, typename T> DEVICE T shfl_words(T v, int arg) {
  constexpr int words = (sizeof(T) + 3) / 4;
  int w[words];
  memcpy(w, &v, sizeof(T));
#ifdef __CUDACC__
#pragma unroll
#endif
  for (int k = 0; k < words; k++) {
    w[k] = Down ? __shfl_down_sync(FULL_MASK, w[k], arg) : __shfl_xor_sync(FULL_MASK, w[k], arg);
  }
  memcpy(&v, w, sizeof(T));
  return v;
}

// shfl_xor returns v of lane (this lane ^ mask) of the calling warp, for
// any trivially copyable T. Every lane of the warp must call it.
template <typename T> DEVICE T shfl_xor(T v, int mask) { return shfl_words<false>(v, mask); }

// shfl_down returns v of lane (this lane + delta) of the calling warp, or
// this lane's own v past lane 31; like shfl_xor otherwise.
template <typename T> DEVICE T shfl_down(T v, int delta) { return shfl_words<true>(v, delta); }

// warp_reduce combines v over aligned groups of W lanes of the calling warp
// (W a power of two up to 32: all 32 lanes by default, or lanes 0-7, 8-15,
// ... for W = 8) with op, a binary function object, by a butterfly of
// shuffles: every lane of a group gets the same result. With an op that
// is commutative (a + b and b + a round alike), the result is the same bits
// on every run. Every lane of the warp must call it, with the same W.
template <int W = WARP_SIZE, typename T, typename Op> DEVICE T warp_reduce(T v, Op op) {
#ifdef __CUDACC__
#pragma unroll
#endif
  for (int m = W / 2; m > 0; m >>= 1) v = op(v, shfl_xor(v, m));
  return v;
}

// warp_reduce_n is warp_reduce over groups of w lanes, w a power of two up
// to 32 known only at run time.
template <typename T, typename Op> DEVICE T warp_reduce_n(T v, Op op, int w) {
  for (int m = w / 2; m > 0; m >>= 1) v = op(v, shfl_xor(v, m));
  return v;
}

// warp_reduce_ordered_n is warp_reduce_n for an op that need not be
// commutative (a Welford merge, composition): the result is op over the
// group's lanes in lane order, (v0 op v1) op (v2 op v3) for w = 4, the
// same bits on every lane of the group. Neighbouring runs of lanes combine
// first, and both lanes of a pair put the lower run's value first.
template <typename T, typename Op> DEVICE T warp_reduce_ordered_n(T v, Op op, int w) {
  int lane = threadIdx.x % WARP_SIZE;
  for (int m = 1; m < w; m <<= 1) {
    T o = shfl_xor(v, m);
    v = (lane & m) ? op(o, v) : op(v, o);
  }
  return v;
}

// block_reduce combines v over all threads of the block (blockDim.x a
// multiple of 32, at most 1024; blockDim.y and .z 1) with op and returns
// the result to every thread: each warp reduces with shuffles, warp 0
// combines the warps' results in warp order, and thread 0's result is
// broadcast. It calls __syncthreads, so every thread of the block must
// call it; scratch is WARP_SIZE elements of __shared__ memory, which it
// may reuse at once (declare `__shared__ T scratch[WARP_SIZE];` in the
// kernel; T must have no constructor, as __shared__ variables cannot).
// The result is the same bits on every run for a given block size.
template <typename T, typename Op> DEVICE T block_reduce(T v, Op op, T* scratch) {
  int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  int nwarps = (blockDim.x + WARP_SIZE - 1) / WARP_SIZE;
  v = warp_reduce(v, op);
  __syncthreads();  // an earlier call may still be reading scratch
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = scratch[lane < nwarps ? lane : 0];
    // A tree over the nwarps values, lane i taking lane i + m's.
#ifdef __CUDACC__
#pragma unroll
#endif
    for (int m = WARP_SIZE / 2; m > 0; m >>= 1) {
      T o = shfl_down(v, m);
      if (lane + m < nwarps) v = op(v, o);
    }
    if (lane == 0) scratch[0] = v;
  }
  __syncthreads();
  return scratch[0];
}
