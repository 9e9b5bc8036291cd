// copy.cu: strided copies, dtype casts, fills and aranges.
//
//   copy_<dt>(n, dst, dl, src, sl)        dst under dl = src under sl
//   copy_rows_<w>(rows, len, small, dst, dl, src, sl)
//                                         rows of len elements, contiguous
//                                         in both, at the row offsets of
//                                         dl and sl (their outer dims)
//   copy_flat_b16(n, dst, src)            n 16-byte vectors, both dense
//   transpose_<w>(R, C, batch, small, dst, dl, drs, dcs, src, sl, srs, scs)
//                                         dst(b, r, c) = src(b, r, c) through
//                                         32x32 shared-memory tiles
//   cast_<from>_<to>(n, dst, src, sl)     contiguous dst = (to) src under sl
//   fill_<dt>(n, dst, dl, v)              dst under dl = v
//   arange_<dt>(n, dst, start, step)      dst[i] = start + i*step
//
// dtypes: f32 (float), f64 (double), i64 (long long), bool (unsigned char,
// 0 or 1), bf16 and f16 (the 16-bit floats, common.cuh). Casts truncate
// floats toward zero for i64 and map nonzero to 1 for bool, as the CPU
// backend does; casts to bf16 and f16 round through float (a double is
// rounded twice, as PyTorch converts).
#include "common.cuh"

template <typename T>
DEVICE void copy_strided(long long n, T* dst, const Layout& dl, const T* src, const Layout& sl) {
  if (dl.contig && sl.contig) {
    T* d = dst + dl.offset;
    const T* s = src + sl.offset;
    FOR_EACH(i, n) d[i] = s[i];
  } else {
    FOR_EACH(i, n) dst[at(dl, i)] = src[at(sl, i)];
  }
}

#define COPY(T, dt) \
  KERNEL copy_##dt(long long n, T* dst, Layout dl, const T* src, Layout sl) { copy_strided<T>(n, dst, dl, src, sl); }
COPY(float, f32)
COPY(double, f64)
COPY(long long, i64)
COPY(unsigned char, bool)
COPY(bf16, bf16)
COPY(f16, f16)

// The row copy and the tiled transpose move bytes, so they come in one
// version per element width <w>: b1 (bool), b2 (bf16, f16), b4 (float),
// b8 (double, long long) and, for the row copy, b16: four floats or two doubles at once,
// which the Go side uses when every row and its length are 16-byte
// aligned (vectorized loads and stores).
struct alignas(16) vec16 {
  unsigned int x, y, z, w;
};

// at_small is at for views whose dims and element count fit 32 bits
// (small != 0): unsigned 32-bit division is several times cheaper on a GPU
// than 64-bit.
DEVICE long long at_small(const Layout& l, long long i, int small) {
  if (!small) return at(l, i);
  if (l.contig) return l.offset + i;
  long long off = l.offset;
  unsigned u = (unsigned)i;
#ifdef __CUDACC__
#pragma unroll 1
#endif
  for (int d = l.ndim - 1; d >= 0; d--) {
    unsigned s = (unsigned)l.shape[d];
    off += (long long)(u % s) * l.strides[d];
    u /= s;
  }
  return off;
}

// copy_rows copies rows of len contiguous elements: row r starts at
// at(dl, r) in dst and at(sl, r) in src. A block of (bx, by) threads
// copies by rows at a time, bx threads along each row, so that the row's
// offsets are computed once per row rather than once per element, and
// both reads and writes are coalesced.
template <typename T>
DEVICE void copy_rows(long long rows, long long len, int small, T* dst, const Layout& dl, const T* src,
                      const Layout& sl) {
  for (long long r = (long long)blockIdx.x * blockDim.y + threadIdx.y; r < rows;
       r += (long long)gridDim.x * blockDim.y) {
    T* d = dst + at_small(dl, r, small);
    const T* s = src + at_small(sl, r, small);
    for (long long c = threadIdx.x; c < len; c += blockDim.x) d[c] = s[c];
  }
}

#define COPY_ROWS(T, w)                                                                         \
  KERNEL copy_rows_##w(long long rows, long long len, int small, T* dst, Layout dl, const T* src, \
                       Layout sl) {                                                             \
    copy_rows<T>(rows, len, small, dst, dl, src, sl);                                           \
  }
COPY_ROWS(unsigned char, b1)
COPY_ROWS(unsigned short, b2)
COPY_ROWS(unsigned int, b4)
COPY_ROWS(unsigned long long, b8)
COPY_ROWS(vec16, b16)

// copy_flat copies n 16-byte vectors between dense, aligned buffers: the
// contiguous copy (Clone, Contiguous of a dense view at an aligned
// offset), one 16-byte load and store per thread and iteration.
KERNEL copy_flat_b16(long long n, vec16* dst, const vec16* src) { FOR_EACH(i, n) dst[i] = src[i]; }

// TILE is the side of the transpose's shared-memory tile and TILE_ROWS
// the rows of threads of its (TILE, TILE_ROWS) blocks.
#define TILE 32
#define TILE_ROWS 8

// transpose copies the [batch, R, C] view src to dst where the element
// stride of R is small in src (1 for a transpose) and that of C small in
// dst: a block reads a 32x32 tile with consecutive threads along R, so
// that reads are coalesced, and writes it with consecutive threads along
// C, so that writes are too. The tile has one column of padding, so that
// neither pass has shared-memory bank conflicts. dl and sl are the batch
// dims' layouts (their offsets included); the grid's z dim walks the batch.
template <typename T>
DEVICE void transpose(long long R, long long C, long long batch, int small, T* dst, const Layout& dl,
                      long long drs, long long dcs, const T* src, const Layout& sl, long long srs,
                      long long scs) {
  __shared__ T tile[TILE][TILE + 1];
  long long tilesR = (R + TILE - 1) / TILE, tilesC = (C + TILE - 1) / TILE;
  for (long long b = blockIdx.z; b < batch; b += gridDim.z) {
    T* d = dst + at_small(dl, b, small);
    const T* s = src + at_small(sl, b, small);
    for (long long tr = blockIdx.y; tr < tilesR; tr += gridDim.y) {
      for (long long tc = blockIdx.x; tc < tilesC; tc += gridDim.x) {
        long long r0 = tr * TILE, c0 = tc * TILE;
        for (int j = threadIdx.y; j < TILE; j += TILE_ROWS) {
          long long r = r0 + threadIdx.x, c = c0 + j;
          if (r < R && c < C) tile[j][threadIdx.x] = s[r * srs + c * scs];
        }
        __syncthreads();
        for (int j = threadIdx.y; j < TILE; j += TILE_ROWS) {
          long long r = r0 + j, c = c0 + threadIdx.x;
          if (r < R && c < C) d[r * drs + c * dcs] = tile[threadIdx.x][j];
        }
        __syncthreads();
      }
    }
  }
}

#define TRANSPOSE(T, w)                                                                         \
  KERNEL transpose_##w(long long R, long long C, long long batch, int small, T* dst, Layout dl,   \
                       long long drs, long long dcs, const T* src, Layout sl, long long srs,      \
                       long long scs) {                                                         \
    transpose<T>(R, C, batch, small, dst, dl, drs, dcs, src, sl, srs, scs);                     \
  }
TRANSPOSE(unsigned char, b1)
TRANSPOSE(unsigned short, b2)
TRANSPOSE(unsigned int, b4)
TRANSPOSE(unsigned long long, b8)

template <typename D, typename S> struct Convert {
  DEVICE static D apply(S v) { return (D)v; }
};
template <typename S> struct Convert<unsigned char, S> {
  DEVICE static unsigned char apply(S v) { return v != S(0) ? 1 : 0; }
};
// To the 16-bit floats through float; from them through float, exactly.
template <typename S> struct Convert<bf16, S> {
  DEVICE static bf16 apply(S v) { return to_bf16((float)v); }
};
template <typename S> struct Convert<f16, S> {
  DEVICE static f16 apply(S v) { return to_f16((float)v); }
};
template <typename H> struct FromHalf {
  template <typename D> DEVICE static D to(H v) { return Convert<D, float>::apply(to_f32(v)); }
};
template <typename D> struct Convert<D, bf16> {
  DEVICE static D apply(bf16 v) { return FromHalf<bf16>::to<D>(v); }
};
template <typename D> struct Convert<D, f16> {
  DEVICE static D apply(f16 v) { return FromHalf<f16>::to<D>(v); }
};
template <> struct Convert<unsigned char, bf16> {
  DEVICE static unsigned char apply(bf16 v) { return to_f32(v) != 0.0f ? 1 : 0; }
};
template <> struct Convert<unsigned char, f16> {
  DEVICE static unsigned char apply(f16 v) { return to_f32(v) != 0.0f ? 1 : 0; }
};
template <> struct Convert<bf16, bf16> {
  DEVICE static bf16 apply(bf16 v) { return v; }
};
template <> struct Convert<f16, f16> {
  DEVICE static f16 apply(f16 v) { return v; }
};
template <> struct Convert<bf16, f16> {
  DEVICE static bf16 apply(f16 v) { return to_bf16(to_f32(v)); }
};
template <> struct Convert<f16, bf16> {
  DEVICE static f16 apply(bf16 v) { return to_f16(to_f32(v)); }
};

template <typename D, typename S>
DEVICE void cast(long long n, D* dst, const S* src, const Layout& sl) {
  FOR_EACH(i, n) dst[i] = Convert<D, S>::apply(src[at(sl, i)]);
}

#define CAST(S, sn, D, dn) \
  KERNEL cast_##sn##_##dn(long long n, D* dst, const S* src, Layout sl) { cast<D, S>(n, dst, src, sl); }
#define CAST_FROM(S, sn)                                                                          \
  CAST(S, sn, float, f32) CAST(S, sn, double, f64) CAST(S, sn, long long, i64) CAST(S, sn, unsigned char, bool) \
  CAST(S, sn, bf16, bf16) CAST(S, sn, f16, f16)
CAST_FROM(float, f32)
CAST_FROM(double, f64)
CAST_FROM(long long, i64)
CAST_FROM(unsigned char, bool)
CAST_FROM(bf16, bf16)
CAST_FROM(f16, f16)

template <typename T>
DEVICE void fill(long long n, T* dst, const Layout& dl, double v) {
  T x = Convert<T, double>::apply(v);
  FOR_EACH(i, n) dst[at(dl, i)] = x;
}

template <typename T>
DEVICE void arange(long long n, T* dst, double start, double step) {
  FOR_EACH(i, n) dst[i] = Convert<T, double>::apply(start + (double)i * step);
}

#define FILL(T, dt)                                                                             \
  KERNEL fill_##dt(long long n, T* dst, Layout dl, double v) { fill<T>(n, dst, dl, v); }      \
  KERNEL arange_##dt(long long n, T* dst, double start, double step) { arange<T>(n, dst, start, step); }
FILL(float, f32)
FILL(double, f64)
FILL(long long, i64)
FILL(unsigned char, bool)
FILL(bf16, bf16)
FILL(f16, f16)
