// elementwise.cu: unary and binary elementwise ops on strided (and
// broadcast, stride 0) inputs, writing a contiguous output.
//
//   <op>_<dtype>(n, out, in, l)                      unary
//   <op>_<dtype>(n, out, a, la, b, lb)               binary
//   <op>_scalar_<dtype>(n, out, a, la, s, reversed)  binary with a scalar
//
// Semantics follow the CPU backend (tensorlib/cpu/elementwise.go):
// ReLU and Maximum/Minimum propagate NaN, GELU is the exact erf form,
// integer Pow follows PyTorch for negative exponents. The 16-bit floats
// (bf16, f16) load as float, compute as float and store rounded, as the
// CPU computes them; their scalar kernels take the scalar as a float.
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

// Half1 and Half2 run a float op on 16-bit floats: widen, compute, round.
template <typename H, typename Op> struct Half1 {
  DEVICE H operator()(H x) const { return from_f32<H>(Op()(to_f32(x))); }
};
template <typename H, typename Op> struct Half2 {
  DEVICE H operator()(H x, H y) const { return from_f32<H>(Op()(to_f32(x), to_f32(y))); }
};
template <typename Op> using Bf16Op1 = Half1<bf16, Op>;
template <typename Op> using F16Op1 = Half1<f16, Op>;
template <typename Op> using Bf16Op2 = Half2<bf16, Op>;
template <typename Op> using F16Op2 = Half2<f16, Op>;

#define UNARY_HALF(name, Op) UNARY(name, Bf16Op1<Op>, bf16, bf16) UNARY(name, F16Op1<Op>, f16, f16)
#define UNARY_ALL(name, Op) \
  UNARY(name, Op, float, f32) UNARY(name, Op, double, f64) UNARY(name, Op, long long, i64) UNARY_HALF(name, Op)
#define UNARY_FLOAT(name, Op) UNARY(name, Op, float, f32) UNARY(name, Op, double, f64) UNARY_HALF(name, Op)

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

// BINARY_K declares a binary op's kernels on T (suffix sx), the scalar
// form taking an S that conv turns into a T (conv empty: S is T).
#define BINARY_K(name, Op, T, sx, S, conv)                                                      \
  KERNEL name##_##sx(long long n, T* out, const T* a, Layout la, const T* b, Layout lb) {       \
    binary<T, Op>(n, out, a, la, b, lb);                                                         \
  }                                                                                              \
  KERNEL name##_scalar_##sx(long long n, T* out, const T* a, Layout la, S s, int reversed) {    \
    if (reversed) {                                                                              \
      binary_scalar<T, Op, true>(n, out, a, la, conv(s));                                        \
    } else {                                                                                     \
      binary_scalar<T, Op, false>(n, out, a, la, conv(s));                                       \
    }                                                                                            \
  }
#define BINARY(name, Op, T, suffix) BINARY_K(name, Op, T, suffix, T, )

// The 16-bit kernels compute with Half2 of the float op and take the
// scalar as a float.
#define BINARY_HALF(name, Op) \
  BINARY_K(name, Bf16Op2<Op>, bf16, bf16, float, from_f32<bf16>) BINARY_K(name, F16Op2<Op>, f16, f16, float, from_f32<f16>)
#define BINARY_ALL(name, Op) \
  BINARY(name, Op, float, f32) BINARY(name, Op, double, f64) BINARY(name, Op, long long, i64) BINARY_HALF(name, Op)

BINARY_ALL(add, AddOp)
BINARY_ALL(sub, SubOp)
BINARY_ALL(mul, MulOp)
BINARY(div, DivOp, float, f32)
BINARY(div, DivOp, double, f64)
BINARY_HALF(div, DivOp)
BINARY_ALL(pow, PowOp)
BINARY_ALL(maximum, MaximumOp)
BINARY_ALL(minimum, MinimumOp)
