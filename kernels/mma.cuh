// mma.cuh: the tensor cores' matrix product for kernels that include it
// (flash.cu): mma.sync.aligned.m16n8k16 with bfloat16 or float16
// operands and float accumulators, which needs compute capability 8.0
// (Ampere) or later, the conversions that pack operands for it, and
// ldmatrix, which loads their fragments from shared memory.
//
// A source that includes this file must be compiled for compute_80:
// put the line
//
//	// nvcc-arch: compute_80
//
// in it (kernels/internal/gen reads it), and have the Go side launch its
// kernels only on devices of capability 8.0 and up.
//
// Under nvcc the product is one inline PTX instruction; in the CPU
// emulator it is emu_mma_m16n8k16 (cuda/internal/emu/cuda_emu.h), which gives each lane
// the same outputs from the same per-lane fragments (and ldmatrix is
// emu_ldmatrix_x4), so one kernel source runs on both. The fragment layout (PTX ISA, "Matrix Fragments for
// mma.m16n8k16 with floating point type"), with g = lane/4 and q = lane%4:
//
//	A (16×16, row-major)  a[0] A[g][2q..2q+1]    a[1] A[g+8][2q..2q+1]
//	                      a[2] A[g][2q+8..2q+9]  a[3] A[g+8][2q+8..2q+9]
//	B (16×8, "col")       b[0] B[2q..2q+1][g]    b[1] B[2q+8..2q+9][g]
//	C, D (16×8, float)    c[i] C[g + 8(i/2)][2q + i%2]
//
// where each 32-bit register holds two 16-bit values, the lower index in
// the low half. A C fragment of two neighbouring 16×8 tiles is, once
// packed to 16 bits, an A fragment (FlashAttention's reuse of the scores
// as the next product's operand): see Mma::pack_a.
#pragma once

#include "common.cuh"

// bf16_t and f16_t name the 16-bit formats an Mma computes in: bfloat16
// (8 significant bits, float's range) and IEEE half (11 significant bits,
// largest finite 65504).
struct bf16_t {};
struct f16_t {};

// Mma<M>::pack(lo, hi) rounds two floats to M, to nearest even, and packs
// them in one register, lo in the low half; lo(r) and hi(r) widen them
// back. Mma<M>::mma(c, a, b0, b1) adds A·B to the accumulators c.
template <typename M> struct Mma;

template <> struct Mma<bf16_t> {
  DEVICE static unsigned pack(float lo, float hi) {
#ifdef __CUDACC__
    unsigned r;
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
#else
    return bits(lo) | (bits(hi) << 16);
#endif
  }
  DEVICE static float lo(unsigned r) { return __uint_as_float_(r << 16); }
  DEVICE static float hi(unsigned r) { return __uint_as_float_(r & 0xffff0000u); }
  DEVICE static void mma(float c[4], const unsigned a[4], unsigned b0, unsigned b1) {
#ifdef __CUDACC__
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%0,%1,%2,%3};"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
    unsigned b[2] = {b0, b1};
    emu_mma_m16n8k16(c, a, b, c, 0);
#endif
  }
#ifndef __CUDACC__
  // bits rounds x to bfloat16, to nearest even (cvt.rn.bf16.f32); NaN
  // stays a quiet NaN.
  static unsigned bits(float x) {
    unsigned u;
    std::memcpy(&u, &x, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (u >> 16) | 0x40u;
    u += 0x7fffu + ((u >> 16) & 1u);
    return u >> 16;
  }
#endif
  DEVICE static float __uint_as_float_(unsigned u) {
#ifdef __CUDACC__
    return __uint_as_float(u);
#else
    float f;
    std::memcpy(&f, &u, 4);
    return f;
#endif
  }
};

template <> struct Mma<f16_t> {
  DEVICE static unsigned pack(float lo, float hi) {
#ifdef __CUDACC__
    unsigned r;
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
#else
    return bits(lo) | (bits(hi) << 16);
#endif
  }
  DEVICE static float lo(unsigned r) { return widen(r & 0xffffu); }
  DEVICE static float hi(unsigned r) { return widen(r >> 16); }
  DEVICE static void mma(float c[4], const unsigned a[4], unsigned b0, unsigned b1) {
#ifdef __CUDACC__
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%0,%1,%2,%3};"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
    unsigned b[2] = {b0, b1};
    emu_mma_m16n8k16(c, a, b, c, 1);
#endif
  }
  DEVICE static float widen(unsigned h) {
#ifdef __CUDACC__
    float f;
    asm("{ .reg .b16 t; cvt.u16.u32 t, %1; cvt.f32.f16 %0, t; }" : "=f"(f) : "r"(h));
    return f;
#else
    return emu_f16_to_f32(h);
#endif
  }
#ifndef __CUDACC__
  // bits rounds x to IEEE half, to nearest even (cvt.rn.f16.f32): past
  // 65504 to infinity, below 2^-14 to a subnormal; NaN stays NaN.
  static unsigned bits(float x) {
    unsigned u;
    std::memcpy(&u, &x, 4);
    unsigned sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return sign | 0x7e00u;
    if (a >= 0x477ff000u) return sign | 0x7c00u;  // 65520 and up round to infinity
    if (a >= 0x38800000u) {                         // a normal half
      unsigned r = a - 0x38000000u;                 // rebias the exponent from 127 to 15
      r += 0xfffu + ((r >> 13) & 1u);
      return sign | (r >> 13);
    }
    // Subnormal (or the smallest normal, 0x400, when it rounds up): units
    // of 2^-24, rounded to nearest even by the default rounding mode.
    return sign | (unsigned)nearbyintf(fabsf(x) * 16777216.0f);
  }
#endif
};

// ldmatrix_x4 loads four 8×8 matrices of 16-bit values from shared
// memory (ldmatrix.sync.aligned.m8n8.x4.shared.b16): lane l gives row, the
// address of row l%8 of matrix l/8 (16 bytes, aligned to 16), and gets in
// r[i] row l/4, columns 2(l%4) and 2(l%4)+1 of matrix i: the layout of an
// A or B fragment's register. With Trans (ldmatrix...x4.trans) the
// matrices are transposed: r[i] holds rows 2(l%4) and 2(l%4)+1 of column
// l/4, a B fragment's register read from a row-major K×N tile. Every lane
// of the warp calls it.
template <bool Trans> DEVICE void ldmatrix_x4(unsigned r[4], const void* row) {
#ifdef __CUDACC__
  unsigned a = (unsigned)__cvta_generic_to_shared(row);
  if constexpr (Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a)
                 : "memory");
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a)
                 : "memory");
#else
  emu_ldmatrix_x4(r, row, Trans);
#endif
}

// mma_lane returns the calling thread's lane and its fragment
// coordinates g = lane/4 and q = lane%4.
DEVICE int mma_lane(int* g, int* q) {
  int lane = threadIdx.x % WARP_SIZE;
  *g = lane >> 2;
  *q = lane & 3;
  return lane;
}
