// optim.cu: fused optimizer steps, in place on contiguous p, m, v, buf; the
// gradient g may be any view of p's shape.
//
//   adam_<dt>(n, p, g, gl, m, v, h)   one Adam / AdamW step
//   sgd_<dt>(n, p, g, gl, buf, h)     one SGD step (buf null without momentum)
//
// The arithmetic follows the CPU backend (tensorlib/cpu/optim.go)
// operation for operation, in the parameter's dtype, so both devices give
// the same parameters.
#include "common.cuh"

// AdamArgs: the Go side (cuda.packAdam) computes the bias corrections in
// double precision, as the CPU backend does.
struct AdamArgs {
  double beta1, beta2, eps, wd;
  double step_size;  // lr / (1 - beta1^step)
  double bc2s;       // sqrt(1 - beta2^step)
  double decay;      // 1 - lr*wd (AdamW)
  int decoupled;
  int has_wd;
};

template <typename T>
DEVICE void adam(long long n, T* p, const T* g, const Layout& gl, T* m, T* v, const AdamArgs& h) {
  T b1 = T(h.beta1), b2 = T(h.beta2), eps = T(h.eps), wd = T(h.wd);
  T step = T(h.step_size), bc2s = T(h.bc2s), decay = T(h.decay);
  FOR_EACH(i, n) {
    T gi = g[at(gl, i)];
    T pi = p[i];
    if (h.decoupled) {
      pi *= decay;
    } else if (h.has_wd) {
      gi += pi * wd;
    }
    T mi = m[i] * b1 + gi * (T(1) - b1);
    T vi = v[i] * b2 + gi * gi * (T(1) - b2);
    m[i] = mi;
    v[i] = vi;
    T denom = m_sqrt(vi) / bc2s + eps;
    p[i] = pi + (-step) * (mi / denom);
  }
}

struct SGDArgs {
  double lr, momentum, dampening, wd;
  int nesterov, first, has_momentum, has_wd;
};

template <typename T>
DEVICE void sgd(long long n, T* p, const T* g, const Layout& gl, T* buf, const SGDArgs& h) {
  T lr = T(h.lr), mom = T(h.momentum), damp = T(h.dampening), wd = T(h.wd);
  FOR_EACH(i, n) {
    T d = g[at(gl, i)];
    T pi = p[i];
    if (h.has_wd) d += pi * wd;
    if (h.has_momentum) {
      T b = h.first ? d : buf[i] * mom + d * (T(1) - damp);
      buf[i] = b;
      if (h.nesterov) {
        d += b * mom;
      } else {
        d = b;
      }
    }
    p[i] = pi + d * (-lr);
  }
}

#define OPTIM(T, dt)                                                                                     \
  KERNEL adam_##dt(long long n, T* p, const T* g, Layout gl, T* m, T* v, AdamArgs h) {                  \
    adam<T>(n, p, g, gl, m, v, h);                                                                     \
  }                                                                                                     \
  KERNEL sgd_##dt(long long n, T* p, const T* g, Layout gl, T* buf, SGDArgs h) { sgd<T>(n, p, g, gl, buf, h); }
OPTIM(float, f32)
OPTIM(double, f64)
