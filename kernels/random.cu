// random.cu: counter-based random numbers. Element i of a call with seed s
// is a pure function of (s, i) — Philox4x32-10 (Salmon et al., "Parallel
// random numbers: as easy as 1, 2, 3", SC 2011) keyed by s with counter
// i — so results do not depend on the launch configuration, and equal
// seeds (tensor.ManualSeed) give equal tensors.
//
//   uniform_<dt>(n, out, seed, a, b)       uniform on [a, b)
//   normal_<dt>(n, out, seed, mean, std)   normal (Box-Muller)
//   randint_i64(n, out, seed, lo, hi)      integers uniform on [lo, hi)
#include "common.cuh"

struct Philox {
  unsigned x[4];
};

DEVICE unsigned mulhi32(unsigned a, unsigned b) { return __umulhi(a, b); }

DEVICE Philox philox(unsigned long long seed, unsigned long long ctr) {
  unsigned k0 = (unsigned)seed, k1 = (unsigned)(seed >> 32);
  unsigned c0 = (unsigned)ctr, c1 = (unsigned)(ctr >> 32), c2 = 0, c3 = 0;
  for (int r = 0; r < 10; r++) {
    unsigned hi0 = mulhi32(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
    unsigned hi1 = mulhi32(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
    unsigned n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  Philox p;
  p.x[0] = c0;
  p.x[1] = c1;
  p.x[2] = c2;
  p.x[3] = c3;
  return p;
}

// u01f returns a float in [0, 1) from the top 24 bits of x.
DEVICE float u01f(unsigned x) { return (float)(x >> 8) * (1.0f / 16777216.0f); }
// u01d returns a double in [0, 1) from the top 53 of 64 bits.
DEVICE double u01d(unsigned hi, unsigned lo) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (double)(v >> 11) * (1.0 / 9007199254740992.0);
}

KERNEL uniform_f32(long long n, float* out, unsigned long long seed, double a, double b) {
  float fa = (float)a, fb = (float)b;
  FOR_EACH(i, n) {
    Philox r = philox(seed, (unsigned long long)i);
    float v = fa + (fb - fa) * u01f(r.x[0]);
    if (v >= fb) v = nextafterf(fb, fa);
    out[i] = v;
  }
}

KERNEL uniform_f64(long long n, double* out, unsigned long long seed, double a, double b) {
  FOR_EACH(i, n) {
    Philox r = philox(seed, (unsigned long long)i);
    double v = a + (b - a) * u01d(r.x[0], r.x[1]);
    if (v >= b) v = nextafter(b, a);
    out[i] = v;
  }
}

KERNEL normal_f32(long long n, float* out, unsigned long long seed, double mean, double std) {
  FOR_EACH(i, n) {
    Philox r = philox(seed, (unsigned long long)i);
    float u1 = 1.0f - u01f(r.x[0]);  // (0, 1]
    float u2 = u01f(r.x[1]);
    float z = sqrtf(-2.0f * logf(u1)) * cosf(6.283185307179586f * u2);
    out[i] = (float)mean + (float)std * z;
  }
}

KERNEL normal_f64(long long n, double* out, unsigned long long seed, double mean, double std) {
  FOR_EACH(i, n) {
    Philox r = philox(seed, (unsigned long long)i);
    double u1 = 1.0 - u01d(r.x[0], r.x[1]);
    double u2 = u01d(r.x[2], r.x[3]);
    out[i] = mean + std * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
  }
}

KERNEL randint_i64(long long n, long long* out, unsigned long long seed, long long lo, long long hi) {
  unsigned long long span = (unsigned long long)(hi - lo);
  FOR_EACH(i, n) {
    Philox r = philox(seed, (unsigned long long)i);
    unsigned long long v = ((unsigned long long)r.x[0] << 32) | r.x[1];
    out[i] = lo + (long long)__umul64hi(v, span);
  }
}
