// linalg.cu: matrix products cuBLAS does not cover.
//
//   matmul_i64(total, out, a, la, b, lb, m, n, k)
//       out[z, i, j] = sum_p a[z, i, p] * b[z, p, j], with la and lb 3-d
//       views [batch, m, k] and [batch, k, n] (batch stride 0 broadcasts)
//       and out contiguous [batch, m, n]
#include "common.cuh"

KERNEL matmul_i64(long long total, long long* out, const long long* a, Layout la, const long long* b, Layout lb,
                  long long m, long long n, long long k) {
  FOR_EACH(i, total) {
    long long j = i % n, r = (i / n) % m, z = i / (m * n);
    const long long* pa = a + la.offset + z * la.strides[0] + r * la.strides[1];
    const long long* pb = b + lb.offset + z * lb.strides[0] + j * lb.strides[2];
    long long acc = 0;
    for (long long p = 0; p < k; p++) acc += pa[p * la.strides[2]] * pb[p * lb.strides[1]];
    out[i] = acc;
  }
}
