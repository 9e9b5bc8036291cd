// activation.cu: gradients of activations in one pass.
//
//   relu_backward_<dt>(n, out, g, gl, y, yl)
//       out = g where y > 0, else 0 (NaN y gives 0, as on the CPU); out
//       is contiguous and may be g's own contiguous storage
//   gelu_backward_<dt>(n, out, g, gl, x, xl)
//       out = g * (Φ(x) + x φ(x)), from GELU's input x
//   tanh_backward_<dt>(n, out, g, gl, y, yl)
//       out = g * (1 - y²), from Tanh's result y
//   sigmoid_backward_<dt>(n, out, g, gl, y, yl)
//       out = g * y * (1 - y), from Sigmoid's result y
//
// Each reads g and one operand once and writes out once, where the
// composed form makes up to a dozen passes (GELU's backward: erf, exp and
// six products and sums over the whole tensor).
#include "common.cuh"

// The gradients of the activations, as functions of g and the saved
// operand v (the input x of GELU, the result y of Tanh and Sigmoid).
struct GeluGrad {
  template <typename T> DEVICE T operator()(T g, T x) const {
    T cdf = T(0.5) * (T(1) + m_erf(x * T(0.70710678118654752440)));
    T pdf = m_exp(T(-0.5) * x * x) * T(0.39894228040143267794);
    return g * (cdf + x * pdf);
  }
};
struct TanhGrad {
  template <typename T> DEVICE T operator()(T g, T y) const { return g * (T(1) - y * y); }
};
struct SigmoidGrad {
  template <typename T> DEVICE T operator()(T g, T y) const { return g * (y * (T(1) - y)); }
};

template <typename T, typename F>
DEVICE void activation_backward(long long n, T* out, const T* g, const Layout& gl, const T* v, const Layout& vl, F f) {
  if (gl.contig && vl.contig) {
    const T* gp = g + gl.offset;
    const T* vp = v + vl.offset;
    FOR_EACH(i, n) out[i] = f(gp[i], vp[i]);
  } else {
    FOR_EACH(i, n) out[i] = f(g[at(gl, i)], v[at(vl, i)]);
  }
}

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
  }                                                                                                   \
  KERNEL gelu_backward_##dt(long long n, T* out, const T* g, Layout gl, const T* x, Layout xl) {      \
    activation_backward<T>(n, out, g, gl, x, xl, GeluGrad());                                         \
  }                                                                                                   \
  KERNEL tanh_backward_##dt(long long n, T* out, const T* g, Layout gl, const T* y, Layout yl) {      \
    activation_backward<T>(n, out, g, gl, y, yl, TanhGrad());                                         \
  }                                                                                                   \
  KERNEL sigmoid_backward_##dt(long long n, T* out, const T* g, Layout gl, const T* y, Layout yl) {   \
    activation_backward<T>(n, out, g, gl, y, yl, SigmoidGrad());                                      \
  }
ACTIVATION(float, f32)
ACTIVATION(double, f64)
