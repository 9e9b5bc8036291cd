// compare.cu: elementwise comparisons to bool and where.
//
//   <op>_<dt>(n, out, a, la, b, lb)              out[i] = a op b (0 or 1)
//   where_<dt>(n, out, cond, lc, a, la, b, lb)   out[i] = cond ? a : b
//
// op is eq, ne, lt, le, gt or ge; NaN compares unequal to everything, as
// in IEEE 754 and the CPU backend. Dense and broadcast-vector inputs take
// the fast path of elementwise.cuh.
#include "elementwise.cuh"

struct EqOp { template <typename T> DEVICE bool operator()(T x, T y) const { return x == y; } };
struct NeOp { template <typename T> DEVICE bool operator()(T x, T y) const { return x != y; } };
struct LtOp { template <typename T> DEVICE bool operator()(T x, T y) const { return x < y; } };
struct LeOp { template <typename T> DEVICE bool operator()(T x, T y) const { return x <= y; } };
struct GtOp { template <typename T> DEVICE bool operator()(T x, T y) const { return x > y; } };
struct GeOp { template <typename T> DEVICE bool operator()(T x, T y) const { return x >= y; } };

template <typename T, typename Op>
DEVICE void compare(long long n, unsigned char* out, const T* a, const Layout& la, const T* b, const Layout& lb) {
  Op op;
  constexpr int V = VecWidth<T>::n;
  Operand<T> oa, ob;
  if (as_operand(a, la, n, oa) && as_operand(b, lb, n, ob)) {
    bool vec = oa.template vectorizable<V>() && ob.template vectorizable<V>();
    ew_loop<V>(n, out, vec, [&](unsigned i) { return (unsigned char)(op(oa.at(i), ob.at(i)) ? 1 : 0); },
               [&](unsigned i) {
                 Vec<T, V> x = oa.template vec<V>(i), y = ob.template vec<V>(i);
                 Vec<unsigned char, V> r;
#ifdef __CUDACC__
#pragma unroll
#endif
                 for (int e = 0; e < V; e++) r.v[e] = op(x.v[e], y.v[e]) ? 1 : 0;
                 return r;
               });
    return;
  }
  FOR_EACH(i, n) out[i] = op(a[at(la, i)], b[at(lb, i)]) ? 1 : 0;
}

#define COMPARE(name, Op, T, dt)                                                                      \
  KERNEL name##_##dt(long long n, unsigned char* out, const T* a, Layout la, const T* b, Layout lb) { \
    compare<T, Op>(n, out, a, la, b, lb);                                                           \
  }
#define COMPARE_ALL(name, Op) \
  COMPARE(name, Op, float, f32) COMPARE(name, Op, double, f64) COMPARE(name, Op, long long, i64) COMPARE(name, Op, unsigned char, bool)
COMPARE_ALL(eq, EqOp)
COMPARE_ALL(ne, NeOp)
COMPARE_ALL(lt, LtOp)
COMPARE_ALL(le, LeOp)
COMPARE_ALL(gt, GtOp)
COMPARE_ALL(ge, GeOp)

template <typename T>
DEVICE void where(long long n, T* out, const unsigned char* c, const Layout& lc, const T* a, const Layout& la,
                  const T* b, const Layout& lb) {
  constexpr int V = VecWidth<T>::n;
  Operand<unsigned char> oc;
  Operand<T> oa, ob;
  if (as_operand(c, lc, n, oc) && as_operand(a, la, n, oa) && as_operand(b, lb, n, ob)) {
    bool vec = oc.template vectorizable<V>() && oa.template vectorizable<V>() && ob.template vectorizable<V>();
    ew_loop<V>(n, out, vec, [&](unsigned i) { return oc.at(i) ? oa.at(i) : ob.at(i); },
               [&](unsigned i) {
                 Vec<unsigned char, V> k = oc.template vec<V>(i);
                 Vec<T, V> x = oa.template vec<V>(i), y = ob.template vec<V>(i);
#ifdef __CUDACC__
#pragma unroll
#endif
                 for (int e = 0; e < V; e++) x.v[e] = k.v[e] ? x.v[e] : y.v[e];
                 return x;
               });
    return;
  }
  FOR_EACH(i, n) out[i] = c[at(lc, i)] ? a[at(la, i)] : b[at(lb, i)];
}

#define WHERE(T, dt)                                                                                   \
  KERNEL where_##dt(long long n, T* out, const unsigned char* c, Layout lc, const T* a, Layout la,     \
                    const T* b, Layout lb) {                                                           \
    where<T>(n, out, c, lc, a, la, b, lb);                                                             \
  }
WHERE(float, f32)
WHERE(double, f64)
WHERE(long long, i64)
WHERE(unsigned char, bool)
