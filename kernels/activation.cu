// activation.cu: gradients of activations in one pass.
//
//   relu_backward_<dt>(n, out, g, gl, y, yl)
//       out = g where y > 0, else 0 (NaN y gives 0, as on the CPU); out
//       is contiguous and may be g's own contiguous storage
#include "common.cuh"

template <typename T>
DEVICE void relu_backward(long long n, T* out, const T* g, const Layout& gl, const T* y, const Layout& yl) {
  if (gl.contig && yl.contig) {
    const T* gp = g + gl.offset;
    const T* yp = y + yl.offset;
    FOR_EACH(i, n) out[i] = yp[i] > T(0) ? gp[i] : T(0);
  } else {
    FOR_EACH(i, n) out[i] = y[at(yl, i)] > T(0) ? g[at(gl, i)] : T(0);
  }
}

#define ACTIVATION(T, dt)                                                                             \
  KERNEL relu_backward_##dt(long long n, T* out, const T* g, Layout gl, const T* y, Layout yl) {      \
    relu_backward<T>(n, out, g, gl, y, yl);                                                           \
  }
ACTIVATION(float, f32)
ACTIVATION(double, f64)
