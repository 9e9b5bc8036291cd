//go:build cgo && amd64

// This file must stay in sync with simd_other.go.

package cpu

/*
#cgo CFLAGS: -O3
#cgo LDFLAGS: -lm
#cgo noescape gtBinF32
#cgo nocallback gtBinF32
#cgo noescape gtBinF64
#cgo nocallback gtBinF64
#cgo noescape gtExpF32
#cgo nocallback gtExpF32
#cgo noescape gtSigmoidF32
#cgo nocallback gtSigmoidF32
#cgo noescape gtTanhF32
#cgo nocallback gtTanhF32
#cgo noescape gtReluF32
#cgo nocallback gtReluF32
#cgo noescape gtExtremumF32
#cgo nocallback gtExtremumF32
#cgo noescape gtAccRows4F32
#cgo nocallback gtAccRows4F32
#cgo noescape gtSumF32
#cgo nocallback gtSumF32
#cgo noescape gtMaxPool2F32
#cgo nocallback gtMaxPool2F32
#cgo noescape gtCmpScalarF32
#cgo nocallback gtCmpScalarF32
#cgo noescape gtWhereF32
#cgo nocallback gtWhereF32
#cgo noescape gtAdamF32
#cgo nocallback gtAdamF32
#cgo noescape gtReluGradF32
#cgo nocallback gtReluGradF32
#cgo noescape gtReluGradInPlaceF32
#cgo nocallback gtReluGradInPlaceF32
#cgo noescape gtNormGradInPlaceF32
#cgo nocallback gtNormGradInPlaceF32
#cgo noescape gtRowSumsF32
#cgo nocallback gtRowSumsF32
#cgo noescape gtShiftedSumsF32
#cgo nocallback gtShiftedSumsF32
#cgo noescape gtGradSumsF32
#cgo nocallback gtGradSumsF32
#cgo noescape gtNormF32
#cgo nocallback gtNormF32
#cgo noescape gtNormGradF32
#cgo nocallback gtNormGradF32
#cgo noescape gtIm2colF32
#cgo nocallback gtIm2colF32
#cgo noescape gtCol2imF32
#cgo nocallback gtCol2imF32
// No fused multiply-adds: they would round differently from Go. No FP
// traps either (Go has none): GCC may then turn the comparisons of a loop
// into vector selects and vectorize it (exp's clamps); results do not
// change.
#pragma GCC optimize("-ffp-contract=off", "-fno-trapping-math")
#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

// The loops below are plain C that GCC vectorizes, compiled twice: for
// AVX2 and for the baseline (SSE2), picked at run time. Without
// -ffast-math (and with -ffp-contract=off: no fused multiply-adds) every
// element is computed with the same IEEE operations, in the same order,
// as the Go loops they replace, so results are bit-identical.

#define GT_INLINE static inline __attribute__((always_inline))
#define GT_AVX2 __attribute__((target("avx2")))

// Operation codes: the values of tensor.BinaryOp.
enum { gtAdd, gtSub, gtMul, gtDiv, gtPow, gtMax, gtMin };

// GT_BIN runs E (of x and y) over n elements; a and b are contiguous
// (stride 1) or one repeated value (stride 0), not both repeated.
#define GT_BIN(T, E) \
	if (as == 1 && bs == 1) { \
		for (long i = 0; i < n; i++) { T x = a[i], y = b[i]; d[i] = (E); } \
	} else if (as == 1) { \
		T y = b[0]; \
		for (long i = 0; i < n; i++) { T x = a[i]; d[i] = (E); } \
	} else { \
		T x = a[0]; \
		for (long i = 0; i < n; i++) { T y = b[i]; d[i] = (E); } \
	}

#define GT_BIN_BODY(T) \
	switch (op) { \
	case gtAdd: GT_BIN(T, x + y) break; \
	case gtSub: GT_BIN(T, x - y) break; \
	case gtMul: GT_BIN(T, x * y) break; \
	case gtDiv: GT_BIN(T, x / y) break; \
	case gtMax: GT_BIN(T, (x != x || x > y) ? x : y) break; \
	case gtMin: GT_BIN(T, (x != x || x < y) ? x : y) break; \
	}

GT_INLINE void binF32(int op, float *restrict d, const float *restrict a, long as,
		const float *restrict b, long bs, long n) {
	GT_BIN_BODY(float)
}

GT_INLINE void binF64(int op, double *restrict d, const double *restrict a, long as,
		const double *restrict b, long bs, long n) {
	GT_BIN_BODY(double)
}

// gtExpCore is expfCore (math.go) for x in [-87, 88].
GT_INLINE float gtExpCore(float x) {
	float k = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
	float r = (x - k * 0.693359375f) - k * -2.12194440e-4f;
	float p = 1.9875691500e-4f * r + 1.3981999507e-3f;
	p = p * r + 8.3334519073e-3f;
	p = p * r + 4.1665795894e-2f;
	p = p * r + 1.6666665459e-1f;
	p = p * r + 5.0000001201e-1f;
	p = (p * (r * r) + r) + 1.0f;
	uint32_t bits = (uint32_t)((int32_t)k + 127) << 23;
	float sc;
	memcpy(&sc, &bits, sizeof sc);
	return p * sc;
}

// expF32 is expSlice (math.go): the in-range lanes take expfCore's
// operations on a clamped argument; a second pass redoes the rare
// out-of-range and NaN elements in double precision.
GT_INLINE void expF32(float *restrict d, const float *restrict s, long n) {
	int out = 0; // some element is outside [-87, 88] or NaN
	for (long i = 0; i < n; i++) {
		float x = s[i];
		out |= !(x >= -87.0f && x <= 88.0f);
		x = x < -87.0f ? -87.0f : x;
		x = x > 88.0f ? 88.0f : x;
		d[i] = gtExpCore(x);
	}
	for (long i = 0; out && i < n; i++) {
		float x = s[i];
		if (!(x >= -87.0f && x <= 88.0f)) {
			d[i] = (float)exp((double)x);
		}
	}
}

// sigmoidF32 is sigmoidSlice: 1 / (1 + expf(-x)), the rare -x outside
// [-87, 88] redone in double precision in a second pass.
GT_INLINE void sigmoidF32(float *restrict d, const float *restrict s, long n) {
	int out = 0;
	for (long i = 0; i < n; i++) {
		float t = -s[i];
		out |= !(t >= -87.0f && t <= 88.0f);
		t = t < -87.0f ? -87.0f : t;
		t = t > 88.0f ? 88.0f : t;
		d[i] = 1.0f / (1.0f + gtExpCore(t));
	}
	for (long i = 0; out && i < n; i++) {
		float t = -s[i];
		if (!(t >= -87.0f && t <= 88.0f)) {
			d[i] = 1.0f / (1.0f + (float)exp((double)t));
		}
	}
}

// tanhF32 is tanhSlice, both branches computed and one selected.
GT_INLINE void tanhF32(float *restrict d, const float *restrict s, long n) {
	for (long i = 0; i < n; i++) {
		float x = s[i];
		uint32_t bits;
		memcpy(&bits, &x, sizeof bits);
		bits &= 0x7fffffffu;
		float z;
		memcpy(&z, &bits, sizeof z);
		float zc = z < 10.0f ? z : 10.0f;
		float e = 1.0f - 2.0f / (gtExpCore(zc + zc) + 1.0f);
		e = x < 0.0f ? -e : e;
		float q = x * x;
		float p = -5.70498872745e-3f * q + 2.06390887954e-2f;
		p = p * q + -5.37397155531e-2f;
		p = p * q + 1.33314422036e-1f;
		p = p * q + -3.33332819422e-1f;
		p = (p * q) * x + x;
		p = x == 0.0f ? x : p;
		d[i] = z >= 0.625f ? e : p;
	}
}

// reluF32 is reluSlice: Go's max(x, 0), which keeps NaN and maps -0 to 0.
GT_INLINE void reluF32(float *restrict d, const float *restrict s, long n) {
	for (long i = 0; i < n; i++) {
		float x = s[i];
		d[i] = (x > 0.0f || x != x) ? x : 0.0f;
	}
}

// reluGradF32 is reluGrad (elementwise.go) for float32.
GT_INLINE void reluGradF32(float *restrict d, const float *restrict g, const float *restrict y, long n) {
	for (long i = 0; i < n; i++) {
		d[i] = y[i] > 0.0f ? g[i] : 0.0f;
	}
}

// reluGradInPlaceF32 is reluGradF32 with d == g (restrict forbids passing
// one pointer twice).
GT_INLINE void reluGradInPlaceF32(float *restrict g, const float *restrict y, long n) {
	for (long i = 0; i < n; i++) {
		g[i] = y[i] > 0.0f ? g[i] : 0.0f;
	}
}

// adamF32 is adamRun (optim.go) for float32, in vectors of W lanes
// and a scalar tail. (Written with intrinsics: GCC does not vectorize
// sqrtf unless errno is off, which cgo's flags cannot say.)
#define GT_ADAM(V, W, set1, loadu, storeu, add, mul, div, sqrt) \
	long i = 0; \
	V vb1 = set1(b1), vb2 = set1(b2), c1 = set1(1 - b1), c2 = set1(1 - b2); \
	V veps = set1(eps), vwd = set1(wd), vstep = set1(-stepSize), vinv = set1(invBc2s); \
	for (; i + W <= n; i += W) { \
		V pi = loadu(p + i), gi = loadu(g + i); \
		if (l2) { gi = add(gi, mul(pi, vwd)); } \
		V mi = add(mul(loadu(m + i), vb1), mul(gi, c1)); \
		V vi = add(mul(loadu(v + i), vb2), mul(mul(gi, gi), c2)); \
		storeu(m + i, mi); \
		storeu(v + i, vi); \
		V denom = add(mul(sqrt(vi), vinv), veps); \
		storeu(p + i, add(pi, mul(vstep, div(mi, denom)))); \
	} \
	for (; i < n; i++) { \
		float pi = p[i], gi = g[i]; \
		if (l2) { gi += pi * wd; } \
		float mi = m[i] * b1 + gi * (1 - b1); \
		float vi = v[i] * b2 + gi * gi * (1 - b2); \
		m[i] = mi; \
		v[i] = vi; \
		float denom = sqrtf(vi) * invBc2s + eps; \
		p[i] = pi + -stepSize * (mi / denom); \
	}

#define GT_ADAM_PARAMS (float *restrict p, const float *restrict g, float *restrict m, float *restrict v, \
		long n, float b1, float b2, float eps, float wd, int l2, float stepSize, float invBc2s)

GT_AVX2 static void gtAdamF32_avx2 GT_ADAM_PARAMS {
	GT_ADAM(__m256, 8, _mm256_set1_ps, _mm256_loadu_ps, _mm256_storeu_ps, _mm256_add_ps, _mm256_mul_ps,
		_mm256_div_ps, _mm256_sqrt_ps)
}

static void gtAdamF32_base GT_ADAM_PARAMS {
	GT_ADAM(__m128, 4, _mm_set1_ps, _mm_loadu_ps, _mm_storeu_ps, _mm_add_ps, _mm_mul_ps, _mm_div_ps, _mm_sqrt_ps)
}

// sumF32 sums x in blocks of 256 elements, each added in 32 float lanes
// (four AVX2 registers, each a chain of 8 adds) and folded pairwise; the
// block sums and the tail add up in double. The error stays near
// NumPy's pairwise sum. (The Go loop in reduceContig uses 8 lanes, so
// the last bits of a sum differ between cgo and pure-Go builds.)
GT_INLINE float sumF32(const float *restrict x, long n) {
	double total = 0;
	for (; n >= 256; x += 256, n -= 256) {
		float s[32] = {0};
		for (int i = 0; i < 256; i += 32) {
			for (int j = 0; j < 32; j++) {
				s[j] += x[i + j];
			}
		}
		for (int w = 16; w >= 1; w /= 2) {
			for (int j = 0; j < w; j++) {
				s[j] += s[j + w];
			}
		}
		total += (double)s[0];
	}
	float r = 0;
	for (long i = 0; i < n; i++) {
		r += x[i];
	}
	return (float)(total + (double)r);
}

// extremumF32 is extremumLanesLoop (reduce.go) for float32, n >= 8:
// eight running maxima (minima when isMin), folded pairwise, or the first
// NaN. The AVX2 variant keeps the eight lanes in one register:
// _mm256_max_ps(v, m) is v > m ? v : m, as the loop below.
GT_INLINE float extremumFinish(const float *x, long n, long i, float *m, int nan, int isMin) {
	for (; i < n; i++) {
		float v = x[i];
		nan |= v != v;
		m[0] = (isMin ? v < m[0] : v > m[0]) ? v : m[0];
	}
	if (nan) {
		for (long k = 0; k < n; k++) {
			if (x[k] != x[k]) {
				return x[k];
			}
		}
	}
	for (int w = 4; w >= 1; w /= 2) {
		for (int j = 0; j < w; j++) {
			m[j] = (isMin ? m[j + w] < m[j] : m[j + w] > m[j]) ? m[j + w] : m[j];
		}
	}
	return m[0];
}

static float gtExtremumF32_base(const float *x, long n, int isMin) {
	float m[8];
	int nan = 0;
	for (int j = 0; j < 8; j++) {
		m[j] = x[j];
		nan |= x[j] != x[j];
	}
	long i = 8;
	for (; i + 8 <= n; i += 8) {
		for (int j = 0; j < 8; j++) {
			float v = x[i + j];
			nan |= v != v;
			m[j] = (isMin ? v < m[j] : v > m[j]) ? v : m[j];
		}
	}
	return extremumFinish(x, n, i, m, nan, isMin);
}

GT_AVX2 static float gtExtremumF32_avx2(const float *x, long n, int isMin) {
	__m256 m = _mm256_loadu_ps(x);
	__m256 nan = _mm256_cmp_ps(m, m, _CMP_UNORD_Q);
	long i = 8;
	if (isMin) {
		for (; i + 8 <= n; i += 8) {
			__m256 v = _mm256_loadu_ps(x + i);
			nan = _mm256_or_ps(nan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
			m = _mm256_min_ps(v, m);
		}
	} else {
		for (; i + 8 <= n; i += 8) {
			__m256 v = _mm256_loadu_ps(x + i);
			nan = _mm256_or_ps(nan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
			m = _mm256_max_ps(v, m);
		}
	}
	float lanes[8];
	_mm256_storeu_ps(lanes, m);
	return extremumFinish(x, n, i, lanes, _mm256_movemask_ps(nan) != 0, isMin);
}

// accRows4F32 is accRows4 (reduce.go) for float32 rows.
GT_INLINE void accRows4F32(double *restrict acc, const float *restrict r0, const float *restrict r1,
		const float *restrict r2, const float *restrict r3, long n) {
	for (long i = 0; i < n; i++) {
		acc[i] += (double)((r0[i] + r1[i]) + (r2[i] + r3[i]));
	}
}

// gtSel returns a where the mask m is all ones and b where it is zero.
GT_INLINE float gtSel(int32_t m, float a, float b) {
	uint32_t ua, ub;
	memcpy(&ua, &a, 4);
	memcpy(&ub, &b, 4);
	uint32_t r = (ua & (uint32_t)m) | (ub & ~(uint32_t)m);
	float f;
	memcpy(&f, &r, 4);
	return f;
}

// cmpScalarF32 sets d[i] = op(a[i], s) for the comparisons of
// tensor.CompareOp (Eq, Ne, Lt, Le, Gt, Ge); d holds Go bools (0 or 1).
GT_INLINE void cmpScalarF32(int op, uint8_t *restrict d, const float *restrict a, float s, long n) {
	switch (op) {
	case 0: for (long i = 0; i < n; i++) d[i] = a[i] == s; break;
	case 1: for (long i = 0; i < n; i++) d[i] = a[i] != s; break;
	case 2: for (long i = 0; i < n; i++) d[i] = a[i] < s; break;
	case 3: for (long i = 0; i < n; i++) d[i] = a[i] <= s; break;
	case 4: for (long i = 0; i < n; i++) d[i] = a[i] > s; break;
	case 5: for (long i = 0; i < n; i++) d[i] = a[i] >= s; break;
	}
}

// whereF32 is whereF32Run (elementwise.go): d[i] = c[i] ? a[i*sa] :
// b[i*sb], strides 0 or 1, selecting bits.
GT_INLINE void whereF32(float *restrict d, const uint8_t *restrict c, const float *restrict a, long sa,
		const float *restrict b, long sb, long n) {
	if (sa == 1 && sb == 1) {
		for (long i = 0; i < n; i++) d[i] = gtSel(-(int32_t)c[i], a[i], b[i]);
	} else if (sa == 1) {
		float y = b[0];
		for (long i = 0; i < n; i++) d[i] = gtSel(-(int32_t)c[i], a[i], y);
	} else if (sb == 1) {
		float x = a[0];
		for (long i = 0; i < n; i++) d[i] = gtSel(-(int32_t)c[i], x, b[i]);
	} else {
		float x = a[0], y = b[0];
		for (long i = 0; i < n; i++) d[i] = gtSel(-(int32_t)c[i], x, y);
	}
}

// maxPool2F32 is maxPool2x2F32 (conv.go) over several planes of
// h×w inputs and oh×ow outputs: a candidate replaces the best so far when
// the best is not NaN and the candidate is not <= it.
GT_INLINE void maxPool2F32(float *restrict out, int64_t *restrict idx, const float *restrict in,
		long planes, long h, long w, long oh, long ow) {
	for (long p = 0; p < planes; p++, in += h * w, out += oh * ow, idx += oh * ow) {
		for (long y = 0; y < oh; y++) {
			const float *r0 = in + 2 * y * w, *r1 = r0 + w;
			long h0 = 2 * y * w;
			for (long x = 0; x < ow; x++) {
				long c = 2 * x;
				float v0 = r0[c], v1 = r0[c + 1], v2 = r1[c], v3 = r1[c + 1];
				// Masks select without branches, so the loop vectorizes.
				int32_t at = 0;
				float best = v0;
				int32_t m;
				m = -(int32_t)(!(v1 <= best) & (best == best));
				best = gtSel(m, v1, best); at = (at & ~m) | (1 & m);
				m = -(int32_t)(!(v2 <= best) & (best == best));
				best = gtSel(m, v2, best); at = (at & ~m) | (2 & m);
				m = -(int32_t)(!(v3 <= best) & (best == best));
				best = gtSel(m, v3, best); at = (at & ~m) | (3 & m);
				out[y * ow + x] = best;
				// at is the window position: 0, 1 (same row) or 2, 3 (next row).
				idx[y * ow + x] = h0 + c + (at & 1) + (at >> 1) * w;
			}
		}
	}
}

// The batch norm loops (norm.go). The sums keep 8 double lanes,
// element i in lane i%8, folded pairwise (4, 2, 1) at the end, as
// shiftedSums and gradSums do; GCC vectorizes across the lanes.
GT_INLINE double gtFold8(double *a) {
	for (int w = 4; w >= 1; w /= 2) {
		for (int j = 0; j < w; j++) {
			a[j] += a[j + w];
		}
	}
	return a[0];
}

GT_INLINE void shiftedSumsF32(const float *restrict x, long n, double shift, double *s1, double *s2) {
	double a[8] = {0}, b[8] = {0};
	long i = 0;
	for (; i + 8 <= n; i += 8) {
		for (int j = 0; j < 8; j++) {
			double d = (double)x[i + j] - shift;
			a[j] += d;
			b[j] += d * d;
		}
	}
	for (; i < n; i++) {
		double d = (double)x[i] - shift;
		a[0] += d;
		b[0] += d * d;
	}
	*s1 = gtFold8(a);
	*s2 = gtFold8(b);
}

// rowSumsF32 sets out[r] to the sum of row r of x (rows of n), each as
// shiftedSumsF32's first sum with shift 0.
GT_INLINE void rowSumsF32(const float *restrict x, long rows, long n, double *restrict out) {
	for (long r = 0; r < rows; r++) {
		double s2;
		shiftedSumsF32(x + r * n, n, 0.0, out + r, &s2);
	}
}

GT_INLINE void gradSumsF32(const float *restrict g, const float *restrict x, long n, double mean, double *sg, double *sgx) {
	double a[8] = {0}, b[8] = {0};
	long i = 0;
	for (; i + 8 <= n; i += 8) {
		for (int j = 0; j < 8; j++) {
			double gv = (double)g[i + j];
			a[j] += gv;
			b[j] += gv * ((double)x[i + j] - mean);
		}
	}
	for (; i < n; i++) {
		double gv = (double)g[i];
		a[0] += gv;
		b[0] += gv * ((double)x[i] - mean);
	}
	*sg = gtFold8(a);
	*sgx = gtFold8(b);
}

// normF32 is normPlane: y = (x - mean) * scale + shift.
GT_INLINE void normF32(float *restrict y, const float *restrict x, long n, float mean, float scale, float shift) {
	for (long i = 0; i < n; i++) {
		y[i] = (x[i] - mean) * scale + shift;
	}
}

// normGradF32 is normGradPlane: gx = a*g + k*(x - mean) + k0.
GT_INLINE void normGradF32(float *restrict gx, const float *restrict g, const float *restrict x, long n,
		float mean, float a, float k, float k0) {
	for (long i = 0; i < n; i++) {
		gx[i] = (a * g[i] + k * (x[i] - mean)) + k0;
	}
}

// normGradInPlaceF32 is normGradF32 with gx == g.
GT_INLINE void normGradInPlaceF32(float *restrict g, const float *restrict x, long n,
		float mean, float a, float k, float k0) {
	for (long i = 0; i < n; i++) {
		g[i] = (a * g[i] + k * (x[i] - mean)) + k0;
	}
}

// gtWin is backend.Window's fields for one sample (C planes of H×W).
typedef struct {
	long C, H, W, KH, KW, SH, SW, PH, PW, DH, DW, OH, OW;
} gtWin;

// gtInside is inside (conv.go): the range [*lo, *hi) of t in [0, n)
// for which t*stride + off is in [0, size).
GT_INLINE void gtInside(long n, long stride, long off, long size, long *lo, long *hi) {
	long l = 0, h = 0;
	if (off < 0) {
		l = (-off + stride - 1) / stride;
	}
	if (size - off > 0) {
		h = (size - off - 1) / stride + 1;
		h = h < n ? h : n;
	}
	*lo = l < h ? l : h;
	*hi = h;
}

// gtCopy copies n floats in blocks of 8, which compile to one vector
// move each (the rows of a convolution's windows are short).
GT_INLINE void gtCopy(float *restrict d, const float *restrict s, long n) {
	long k = 0;
	for (; k + 8 <= n; k += 8) {
		for (int j = 0; j < 8; j++) d[k + j] = s[k + j];
	}
	for (; k < n; k++) d[k] = s[k];
}

// gtAddTo adds n floats of s to d, in blocks of 8 as gtCopy.
GT_INLINE void gtAddTo(float *restrict d, const float *restrict s, long n) {
	long k = 0;
	for (; k + 8 <= n; k += 8) {
		for (int j = 0; j < 8; j++) d[k + j] += s[k + j];
	}
	for (; k < n; k++) d[k] += s[k];
}

// im2colF32 is im2colSample (conv.go): the C*KH*KW rows of OH*OW
// windows of one sample.
GT_INLINE void im2colF32(float *restrict cols, const float *restrict x, const gtWin *g) {
	long L = g->OH * g->OW;
	for (long c = 0; c < g->C; c++) {
		const float *in = x + c * g->H * g->W;
		for (long i = 0; i < g->KH; i++) {
			long h0 = i * g->DH - g->PH, oh0, oh1;
			gtInside(g->OH, g->SH, h0, g->H, &oh0, &oh1);
			for (long j = 0; j < g->KW; j++, cols += L) {
				long w0 = j * g->DW - g->PW, a, z;
				gtInside(g->OW, g->SW, w0, g->W, &a, &z);
				for (long k = 0; k < oh0 * g->OW; k++) cols[k] = 0;
				for (long k = oh1 * g->OW; k < L; k++) cols[k] = 0;
				if (g->SW == 1 && a == 0 && z == g->OW) {
					// The common case: whole rows, copied.
					for (long oh = oh0; oh < oh1; oh++) {
						float *dst = cols + oh * g->OW;
						const float *src = in + (oh * g->SH + h0) * g->W + w0;
						gtCopy(dst, src, z);
					}
					continue;
				}
				for (long oh = oh0; oh < oh1; oh++) {
					float *dst = cols + oh * g->OW;
					const float *src = in + (oh * g->SH + h0) * g->W + w0;
					for (long k = 0; k < a; k++) dst[k] = 0;
					for (long k = z; k < g->OW; k++) dst[k] = 0;
					if (g->SW == 1) {
						gtCopy(dst + a, src + a, z - a);
					} else {
						for (long k = a; k < z; k++) dst[k] = src[k * g->SW];
					}
				}
			}
		}
	}
}

// col2imF32 is col2imSample: the adjoint of im2colF32, adding each
// window element back into x in the order of the Go loop.
GT_INLINE void col2imF32(float *restrict x, const float *restrict cols, const gtWin *g) {
	long L = g->OH * g->OW;
	for (long c = 0; c < g->C; c++) {
		float *in = x + c * g->H * g->W;
		for (long i = 0; i < g->KH; i++) {
			long h0 = i * g->DH - g->PH, oh0, oh1;
			gtInside(g->OH, g->SH, h0, g->H, &oh0, &oh1);
			for (long j = 0; j < g->KW; j++, cols += L) {
				long w0 = j * g->DW - g->PW, a, z;
				gtInside(g->OW, g->SW, w0, g->W, &a, &z);
				for (long oh = oh0; oh < oh1; oh++) {
					const float *src = cols + oh * g->OW;
					float *dst = in + (oh * g->SH + h0) * g->W + w0;
					if (g->SW == 1) {
						gtAddTo(dst + a, src + a, z - a);
					} else {
						for (long k = a; k < z; k++) dst[k * g->SW] += src[k];
					}
				}
			}
		}
	}
}

// GT_VARIANTS defines name_avx2 and name_base around the inline body and
// a dispatching name.
#define GT_VARIANTS(name, body, params, args) \
	GT_AVX2 static void name##_avx2 params { body args; } \
	static void name##_base params { body args; } \
	static void name params { \
		if (gtHasAVX2) { name##_avx2 args; } else { name##_base args; } \
	}

static int gtHasAVX2 = -1;

static void gtInitSIMD(void) {
	__builtin_cpu_init();
	gtHasAVX2 = __builtin_cpu_supports("avx2") ? 1 : 0;
}

GT_VARIANTS(gtBinF32, binF32,
	(int op, float *d, const float *a, long as, const float *b, long bs, long n),
	(op, d, a, as, b, bs, n))
GT_VARIANTS(gtBinF64, binF64,
	(int op, double *d, const double *a, long as, const double *b, long bs, long n),
	(op, d, a, as, b, bs, n))
GT_VARIANTS(gtExpF32, expF32, (float *d, const float *s, long n), (d, s, n))
GT_VARIANTS(gtSigmoidF32, sigmoidF32, (float *d, const float *s, long n), (d, s, n))
GT_VARIANTS(gtTanhF32, tanhF32, (float *d, const float *s, long n), (d, s, n))
GT_VARIANTS(gtReluF32, reluF32, (float *d, const float *s, long n), (d, s, n))
GT_VARIANTS(gtReluGradF32, reluGradF32, (float *d, const float *g, const float *y, long n), (d, g, y, n))
GT_VARIANTS(gtReluGradInPlaceF32, reluGradInPlaceF32, (float *g, const float *y, long n), (g, y, n))
static float gtExtremumF32(const float *x, long n, int isMin) {
	return gtHasAVX2 ? gtExtremumF32_avx2(x, n, isMin) : gtExtremumF32_base(x, n, isMin);
}
GT_AVX2 static float gtSumF32_avx2(const float *x, long n) { return sumF32(x, n); }
static float gtSumF32_base(const float *x, long n) { return sumF32(x, n); }
static float gtSumF32(const float *x, long n) {
	return gtHasAVX2 ? gtSumF32_avx2(x, n) : gtSumF32_base(x, n);
}

GT_VARIANTS(gtMaxPool2F32, maxPool2F32,
	(float *out, int64_t *idx, const float *in, long planes, long h, long w, long oh, long ow),
	(out, idx, in, planes, h, w, oh, ow))

GT_VARIANTS(gtShiftedSumsF32, shiftedSumsF32, (const float *x, long n, double shift, double *s1, double *s2),
	(x, n, shift, s1, s2))
GT_VARIANTS(gtRowSumsF32, rowSumsF32, (const float *x, long rows, long n, double *out), (x, rows, n, out))
GT_VARIANTS(gtGradSumsF32, gradSumsF32, (const float *g, const float *x, long n, double mean, double *sg, double *sgx),
	(g, x, n, mean, sg, sgx))
GT_VARIANTS(gtNormF32, normF32, (float *y, const float *x, long n, float mean, float scale, float shift),
	(y, x, n, mean, scale, shift))
GT_VARIANTS(gtNormGradInPlaceF32, normGradInPlaceF32, (float *g, const float *x, long n, float mean, float a, float k, float k0),
	(g, x, n, mean, a, k, k0))
GT_VARIANTS(gtNormGradF32, normGradF32, (float *gx, const float *g, const float *x, long n, float mean, float a, float k, float k0),
	(gx, g, x, n, mean, a, k, k0))
GT_VARIANTS(gtIm2colF32, im2colF32, (float *cols, const float *x, const gtWin *g), (cols, x, g))
GT_VARIANTS(gtCol2imF32, col2imF32, (float *x, const float *cols, const gtWin *g), (x, cols, g))

GT_VARIANTS(gtAccRows4F32, accRows4F32,
	(double *acc, const float *r0, const float *r1, const float *r2, const float *r3, long n), (acc, r0, r1, r2, r3, n))

GT_VARIANTS(gtCmpScalarF32, cmpScalarF32, (int op, uint8_t *d, const float *a, float s, long n), (op, d, a, s, n))
GT_VARIANTS(gtWhereF32, whereF32,
	(float *d, const uint8_t *c, const float *a, long sa, const float *b, long sb, long n),
	(d, c, a, sa, b, sb, n))

static void gtAdamF32(float *p, const float *g, float *m, float *v, long n, float b1, float b2, float eps,
		float wd, int l2, float stepSize, float invBc2s) {
	if (gtHasAVX2) {
		gtAdamF32_avx2(p, g, m, v, n, b1, b2, eps, wd, l2, stepSize, invBc2s);
	} else {
		gtAdamF32_base(p, g, m, v, n, b1, b2, eps, wd, l2, stepSize, invBc2s);
	}
}
*/
import "C"

import (
	"unsafe"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

func init() { C.gtInitSIMD() }

// simdMin is the shortest run worth a cgo call (tens of nanoseconds).
const simdMin = 256

// simdBinary computes d[i] = op(a[i*as], b[i*bs]) for float32 or float64
// runs where each stride is 0 or 1 (not both 0), with the vectorized C
// loops, and reports whether it did: false for other dtypes, ops, strides
// and short runs, which the caller computes itself.
func simdBinary[T number](op backend.BinaryOp, d, a []T, as int, b []T, bs int) bool {
	n := len(d)
	if n < simdMin || as|bs > 1 || as+bs == 0 || op == backend.OpPow {
		return false
	}
	la, lb := 1, 1
	if as == 1 {
		la = n
	}
	if bs == 1 {
		lb = n
	}
	switch d := any(d).(type) {
	case []float32:
		a, b := any(a).([]float32)[:la], any(b).([]float32)[:lb]
		C.gtBinF32(C.int(op), (*C.float)(unsafe.Pointer(&d[0])), (*C.float)(unsafe.Pointer(&a[0])), C.long(as),
			(*C.float)(unsafe.Pointer(&b[0])), C.long(bs), C.long(n))
		return true
	case []float64:
		a, b := any(a).([]float64)[:la], any(b).([]float64)[:lb]
		C.gtBinF64(C.int(op), (*C.double)(unsafe.Pointer(&d[0])), (*C.double)(unsafe.Pointer(&a[0])), C.long(as),
			(*C.double)(unsafe.Pointer(&b[0])), C.long(bs), C.long(n))
		return true
	}
	return false
}

// simdExpF32 sets dst[i] = expf(src[i]) as expSlice does and reports
// whether it did (false for short slices).
func simdExpF32(dst, src []float32) bool {
	if len(src) < simdMin {
		return false
	}
	dst = dst[:len(src)]
	C.gtExpF32((*C.float)(unsafe.Pointer(&dst[0])), (*C.float)(unsafe.Pointer(&src[0])), C.long(len(src)))
	return true
}

// simdSigmoidF32 is sigmoidSlice; it reports whether it ran.
func simdSigmoidF32(dst, src []float32) bool {
	if len(src) < simdMin {
		return false
	}
	dst = dst[:len(src)]
	C.gtSigmoidF32((*C.float)(unsafe.Pointer(&dst[0])), (*C.float)(unsafe.Pointer(&src[0])), C.long(len(src)))
	return true
}

// simdTanhF32 is tanhSlice; it reports whether it ran.
func simdTanhF32(dst, src []float32) bool {
	if len(src) < simdMin {
		return false
	}
	dst = dst[:len(src)]
	C.gtTanhF32((*C.float)(unsafe.Pointer(&dst[0])), (*C.float)(unsafe.Pointer(&src[0])), C.long(len(src)))
	return true
}

// simdReluF32 is reluSlice for float32; it reports whether it ran.
func simdReluF32(dst, src []float32) bool {
	if len(src) < simdMin {
		return false
	}
	dst = dst[:len(src)]
	C.gtReluF32((*C.float)(unsafe.Pointer(&dst[0])), (*C.float)(unsafe.Pointer(&src[0])), C.long(len(src)))
	return true
}

// simdReluGradF32 is reluGrad for float32; it reports whether it ran.
func simdReluGradF32(d, g, y []float32) bool {
	n := len(d)
	if n < simdMin {
		return false
	}
	g, y = g[:n], y[:n]
	if &d[0] == &g[0] {
		C.gtReluGradInPlaceF32((*C.float)(unsafe.Pointer(&g[0])), (*C.float)(unsafe.Pointer(&y[0])), C.long(n))
		return true
	}
	C.gtReluGradF32((*C.float)(unsafe.Pointer(&d[0])), (*C.float)(unsafe.Pointer(&g[0])), (*C.float)(unsafe.Pointer(&y[0])), C.long(n))
	return true
}

// simdAdamF32 is adamRun for float32; it reports whether it ran.
func simdAdamF32(p, g, m, v []float32, b1, b2, eps, wd float32, l2 bool, stepSize, invBc2s float32) bool {
	n := len(p)
	if n < simdMin {
		return false
	}
	g, m, v = g[:n], m[:n], v[:n]
	il2 := 0
	if l2 {
		il2 = 1
	}
	C.gtAdamF32((*C.float)(unsafe.Pointer(&p[0])), (*C.float)(unsafe.Pointer(&g[0])),
		(*C.float)(unsafe.Pointer(&m[0])), (*C.float)(unsafe.Pointer(&v[0])), C.long(n),
		C.float(b1), C.float(b2), C.float(eps), C.float(wd), C.int(il2), C.float(stepSize), C.float(invBc2s))
	return true
}

// simdSumF32 returns the sum of x (see sumF32 in the C code) and true, or
// false for short slices.
func simdSumF32(x []float32) (float32, bool) {
	if len(x) < simdMin {
		return 0, false
	}
	return float32(C.gtSumF32((*C.float)(unsafe.Pointer(&x[0])), C.long(len(x)))), true
}

// simdExtremumF32 is extremumLanesLoop for float32: the maximum of x (the
// minimum when min is set), or its first NaN, and true; false for short
// slices.
func simdExtremumF32(x []float32, min bool) (float32, bool) {
	if len(x) < simdMin {
		return 0, false
	}
	isMin := 0
	if min {
		isMin = 1
	}
	return float32(C.gtExtremumF32((*C.float)(unsafe.Pointer(&x[0])), C.long(len(x)), C.int(isMin))), true
}

// simdAccRows4F32 is accRows4 for float32 rows; it reports whether it
// ran.
func simdAccRows4F32(acc []float64, r0, r1, r2, r3 []float32) bool {
	n := len(acc)
	if n < simdMin/4 {
		return false
	}
	r0, r1, r2, r3 = r0[:n], r1[:n], r2[:n], r3[:n]
	C.gtAccRows4F32((*C.double)(unsafe.Pointer(&acc[0])), (*C.float)(unsafe.Pointer(&r0[0])), (*C.float)(unsafe.Pointer(&r1[0])),
		(*C.float)(unsafe.Pointer(&r2[0])), (*C.float)(unsafe.Pointer(&r3[0])), C.long(n))
	return true
}

// simdMaxPool2F32 runs maxPool2x2F32 over planes [lo, hi) of x into out
// and idx and reports whether it did.
func simdMaxPool2F32(out []float32, idx []int64, x []float32, g backend.Window, lo, hi int) bool {
	plane, L := g.H*g.W, g.OH*g.OW
	if hi <= lo || L == 0 {
		return false
	}
	o, ix, in := out[lo*L:hi*L], idx[lo*L:hi*L], x[lo*plane:hi*plane]
	C.gtMaxPool2F32((*C.float)(unsafe.Pointer(&o[0])), (*C.int64_t)(unsafe.Pointer(&ix[0])),
		(*C.float)(unsafe.Pointer(&in[0])), C.long(hi-lo), C.long(g.H), C.long(g.W), C.long(g.OH), C.long(g.OW))
	return true
}

// simdCompareScalarF32 is compareScalarRun for float32; it reports
// whether it ran.
func simdCompareScalarF32(op backend.CompareOp, d []bool, a []float32, s float32) bool {
	n := len(d)
	if n < simdMin {
		return false
	}
	a = a[:n]
	C.gtCmpScalarF32(C.int(op), (*C.uint8_t)(unsafe.Pointer(&d[0])), (*C.float)(unsafe.Pointer(&a[0])), C.float(s), C.long(n))
	return true
}

// simdWhereF32 is whereF32Run; it reports whether it ran.
func simdWhereF32(d []float32, c []bool, a []float32, sa int, b []float32, sb int) bool {
	n := len(d)
	if n < simdMin {
		return false
	}
	c = c[:n]
	if sa == 1 {
		a = a[:n]
	}
	if sb == 1 {
		b = b[:n]
	}
	C.gtWhereF32((*C.float)(unsafe.Pointer(&d[0])), (*C.uint8_t)(unsafe.Pointer(&c[0])),
		(*C.float)(unsafe.Pointer(&a[0])), C.long(sa), (*C.float)(unsafe.Pointer(&b[0])), C.long(sb), C.long(n))
	return true
}

// cWindow returns g's fields for the C conv loops.
func cWindow(g backend.Window) C.gtWin {
	return C.gtWin{C: C.long(g.C), H: C.long(g.H), W: C.long(g.W), KH: C.long(g.KH), KW: C.long(g.KW),
		SH: C.long(g.SH), SW: C.long(g.SW), PH: C.long(g.PH), PW: C.long(g.PW), DH: C.long(g.DH), DW: C.long(g.DW),
		OH: C.long(g.OH), OW: C.long(g.OW)}
}

// simdIm2colF32 is im2colSample for float32; it reports whether it ran.
func simdIm2colF32(cols, x []float32, g backend.Window) bool {
	if len(cols) == 0 || len(x) == 0 {
		return false
	}
	cols, x = cols[:g.C*g.KH*g.KW*g.OH*g.OW], x[:g.C*g.H*g.W]
	w := cWindow(g)
	C.gtIm2colF32((*C.float)(unsafe.Pointer(&cols[0])), (*C.float)(unsafe.Pointer(&x[0])), &w)
	return true
}

// simdCol2imF32 is col2imSample for float32; it reports whether it ran.
func simdCol2imF32(x, cols []float32, g backend.Window) bool {
	if len(cols) == 0 || len(x) == 0 {
		return false
	}
	cols, x = cols[:g.C*g.KH*g.KW*g.OH*g.OW], x[:g.C*g.H*g.W]
	w := cWindow(g)
	C.gtCol2imF32((*C.float)(unsafe.Pointer(&x[0])), (*C.float)(unsafe.Pointer(&cols[0])), &w)
	return true
}

// The batch norm loops need no minimum length: one call covers a plane.

// simdShiftedSumsF32 is shiftedSums for float32; ok reports whether it ran.
func simdShiftedSumsF32(x []float32, shift float64) (s1, s2 float64, ok bool) {
	if len(x) == 0 {
		return 0, 0, false
	}
	var a, b C.double
	C.gtShiftedSumsF32((*C.float)(unsafe.Pointer(&x[0])), C.long(len(x)), C.double(shift), &a, &b)
	return float64(a), float64(b), true
}

// simdRowSumsF32 sets out[r] to shiftedSums(x[r*n:(r+1)*n], 0)'s first
// sum for every row; it reports whether it ran.
func simdRowSumsF32(out []float64, x []float32, n int) bool {
	if len(out) == 0 || n == 0 {
		return false
	}
	x = x[:len(out)*n]
	C.gtRowSumsF32((*C.float)(unsafe.Pointer(&x[0])), C.long(len(out)), C.long(n), (*C.double)(unsafe.Pointer(&out[0])))
	return true
}

// simdGradSumsF32 is gradSums for float32; ok reports whether it ran.
func simdGradSumsF32(g, x []float32, mean float64) (sg, sgx float64, ok bool) {
	if len(g) == 0 {
		return 0, 0, false
	}
	x = x[:len(g)]
	var a, b C.double
	C.gtGradSumsF32((*C.float)(unsafe.Pointer(&g[0])), (*C.float)(unsafe.Pointer(&x[0])), C.long(len(g)), C.double(mean), &a, &b)
	return float64(a), float64(b), true
}

// simdNormF32 is normPlane for float32; it reports whether it ran.
func simdNormF32(y, x []float32, mean, scale, shift float32) bool {
	if len(y) == 0 {
		return false
	}
	x = x[:len(y)]
	C.gtNormF32((*C.float)(unsafe.Pointer(&y[0])), (*C.float)(unsafe.Pointer(&x[0])), C.long(len(y)),
		C.float(mean), C.float(scale), C.float(shift))
	return true
}

// simdNormGradF32 is normGradPlane for float32; it reports whether it ran.
func simdNormGradF32(gx, g, x []float32, mean, a, k, k0 float32) bool {
	if len(gx) == 0 {
		return false
	}
	g, x = g[:len(gx)], x[:len(gx)]
	if &gx[0] == &g[0] {
		C.gtNormGradInPlaceF32((*C.float)(unsafe.Pointer(&g[0])), (*C.float)(unsafe.Pointer(&x[0])), C.long(len(gx)),
			C.float(mean), C.float(a), C.float(k), C.float(k0))
		return true
	}
	C.gtNormGradF32((*C.float)(unsafe.Pointer(&gx[0])), (*C.float)(unsafe.Pointer(&g[0])), (*C.float)(unsafe.Pointer(&x[0])),
		C.long(len(gx)), C.float(mean), C.float(a), C.float(k), C.float(k0))
	return true
}
