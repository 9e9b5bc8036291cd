// elementwise.cu: unary and binary elementwise ops on strided (and
// broadcast, stride 0) inputs, writing a contiguous output.
//
//   <op>_<dtype>(n, out, in, l)                      unary
//   <op>_<dtype>(n, out, a, la, b, lb)               binary
//   <op>_scalar_<dtype>(n, out, a, la, s, reversed)  binary with a scalar
//
// Semantics follow the CPU backend (tensorlib/tensor/cpu_elementwise.go):
// ReLU and Maximum/Minimum propagate NaN, GELU is the exact erf form,
// integer Pow follows PyTorch for negative exponents.
//
// Dense inputs, 0-d and broadcast vectors (see elementwise.cuh) take the
// fast path: 32-bit indices and 16-byte vector loads and stores; other
// views index each element through their Layout.
#include "elementwise.cuh"

// ---- unary ----

struct NegOp { template <typename T> DEVICE T operator()(T x) const { return -x; } };
struct AbsOp { template <typename T> DEVICE T operator()(T x) const { return m_abs(x); } };
struct ReluOp {
  template <typename T> DEVICE T operator()(T x) const { return (x > 0 || is_nan(x)) ? x : T(0); }
};
struct SqrtOp { template <typename T> DEVICE T operator()(T x) const { return m_sqrt(x); } };
struct ExpOp { template <typename T> DEVICE T operator()(T x) const { return m_exp(x); } };
struct LogOp { template <typename T> DEVICE T operator()(T x) const { return m_log(x); } };
struct SinOp { template <typename T> DEVICE T operator()(T x) const { return m_sin(x); } };
struct CosOp { template <typename T> DEVICE T operator()(T x) const { return m_cos(x); } };
struct TanhOp { template <typename T> DEVICE T operator()(T x) const { return m_tanh(x); } };
struct SigmoidOp {
  template <typename T> DEVICE T operator()(T x) const { return T(1) / (T(1) + m_exp(-x)); }
};
struct GeluOp {
  template <typename T> DEVICE T operator()(T x) const {
    return T(0.5) * x * (T(1) + m_erf(x * T(0.70710678118654752440)));
  }
};
struct ErfOp { template <typename T> DEVICE T operator()(T x) const { return m_erf(x); } };

template <typename T, typename Op>
DEVICE void unary(long long n, T* out, const T* in, const Layout& l) {
  Op op;
  constexpr int V = VecWidth<T>::n;
  Operand<T> o;
  if (as_operand(in, l, n, o)) {
    ew_loop<V>(n, out, o.template vectorizable<V>(), [&](unsigned i) { return op(o.at(i)); },
               [&](unsigned i) {
                 Vec<T, V> x = o.template vec<V>(i);
#ifdef __CUDACC__
#pragma unroll
#endif
                 for (int e = 0; e < V; e++) x.v[e] = op(x.v[e]);
                 return x;
               });
    return;
  }
  FOR_EACH(i, n) out[i] = op(in[at(l, i)]);
}

#define UNARY(name, Op, T, suffix) \
  KERNEL name##_##suffix(long long n, T* out, const T* in, Layout l) { unary<T, Op>(n, out, in, l); }

#define UNARY_ALL(name, Op) UNARY(name, Op, float, f32) UNARY(name, Op, double, f64) UNARY(name, Op, long long, i64)
#define UNARY_FLOAT(name, Op) UNARY(name, Op, float, f32) UNARY(name, Op, double, f64)

UNARY_ALL(neg, NegOp)
UNARY_ALL(abs, AbsOp)
UNARY_ALL(relu, ReluOp)
UNARY_FLOAT(sqrt, SqrtOp)
UNARY_FLOAT(exp, ExpOp)
UNARY_FLOAT(log, LogOp)
UNARY_FLOAT(sin, SinOp)
UNARY_FLOAT(cos, CosOp)
UNARY_FLOAT(tanh, TanhOp)
UNARY_FLOAT(sigmoid, SigmoidOp)
UNARY_FLOAT(gelu, GeluOp)
UNARY_FLOAT(erf, ErfOp)

// ---- binary ----

struct AddOp { template <typename T> DEVICE T operator()(T x, T y) const { return x + y; } };
struct SubOp { template <typename T> DEVICE T operator()(T x, T y) const { return x - y; } };
struct MulOp { template <typename T> DEVICE T operator()(T x, T y) const { return x * y; } };
struct DivOp { template <typename T> DEVICE T operator()(T x, T y) const { return x / y; } };

DEVICE long long ipow(long long x, long long y) {
  if (y < 0) {
    if (x == 1) return 1;
    if (x == -1) return (y % 2 == 0) ? 1 : -1;
    return 0;
  }
  long long r = 1;
  while (y > 0) {
    if (y & 1) r *= x;
    x *= x;
    y >>= 1;
  }
  return r;
}

struct PowOp {
  DEVICE float operator()(float x, float y) const { return y == 2.0f ? x * x : m_pow(x, y); }
  DEVICE double operator()(double x, double y) const { return y == 2.0 ? x * x : m_pow(x, y); }
  DEVICE long long operator()(long long x, long long y) const { return ipow(x, y); }
};
struct MaximumOp {
  template <typename T> DEVICE T operator()(T x, T y) const { return (is_nan(x) || x > y) ? x : y; }
};
struct MinimumOp {
  template <typename T> DEVICE T operator()(T x, T y) const { return (is_nan(x) || x < y) ? x : y; }
};

template <typename T, typename Op>
DEVICE void binary(long long n, T* out, const T* a, const Layout& la, const T* b, const Layout& lb) {
  Op op;
  constexpr int V = VecWidth<T>::n;
  Operand<T> oa, ob;
  if (as_operand(a, la, n, oa) && as_operand(b, lb, n, ob)) {
    bool vec = oa.template vectorizable<V>() && ob.template vectorizable<V>();
    ew_loop<V>(n, out, vec, [&](unsigned i) { return op(oa.at(i), ob.at(i)); },
               [&](unsigned i) {
                 Vec<T, V> x = oa.template vec<V>(i), y = ob.template vec<V>(i);
#ifdef __CUDACC__
#pragma unroll
#endif
                 for (int e = 0; e < V; e++) x.v[e] = op(x.v[e], y.v[e]);
                 return x;
               });
    return;
  }
  FOR_EACH(i, n) out[i] = op(a[at(la, i)], b[at(lb, i)]);
}

// binary_scalar computes op(a, s), or op(s, a) when reversed.
template <typename T, typename Op, bool Reversed>
DEVICE void binary_scalar(long long n, T* out, const T* a, const Layout& la, T s) {
  Op op;
  constexpr int V = VecWidth<T>::n;
  Operand<T> o;
  if (as_operand(a, la, n, o)) {
    ew_loop<V>(n, out, o.template vectorizable<V>(),
               [&](unsigned i) { return Reversed ? op(s, o.at(i)) : op(o.at(i), s); },
               [&](unsigned i) {
                 Vec<T, V> x = o.template vec<V>(i);
#ifdef __CUDACC__
#pragma unroll
#endif
                 for (int e = 0; e < V; e++) x.v[e] = Reversed ? op(s, x.v[e]) : op(x.v[e], s);
                 return x;
               });
    return;
  }
  FOR_EACH(i, n) out[i] = Reversed ? op(s, a[at(la, i)]) : op(a[at(la, i)], s);
}

#define BINARY(name, Op, T, suffix)                                                            \
  KERNEL name##_##suffix(long long n, T* out, const T* a, Layout la, const T* b, Layout lb) { \
    binary<T, Op>(n, out, a, la, b, lb);                                                      \
  }                                                                                           \
  KERNEL name##_scalar_##suffix(long long n, T* out, const T* a, Layout la, T s, int reversed) { \
    if (reversed) {                                                                           \
      binary_scalar<T, Op, true>(n, out, a, la, s);                                           \
    } else {                                                                                  \
      binary_scalar<T, Op, false>(n, out, a, la, s);                                          \
    }                                                                                         \
  }

#define BINARY_ALL(name, Op) BINARY(name, Op, float, f32) BINARY(name, Op, double, f64) BINARY(name, Op, long long, i64)

BINARY_ALL(add, AddOp)
BINARY_ALL(sub, SubOp)
BINARY_ALL(mul, MulOp)
BINARY(div, DivOp, float, f32)
BINARY(div, DivOp, double, f64)
BINARY_ALL(pow, PowOp)
BINARY_ALL(maximum, MaximumOp)
BINARY_ALL(minimum, MinimumOp)
