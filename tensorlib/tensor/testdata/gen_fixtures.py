#!/usr/bin/python3
"""Generate fixtures.json: reference results for tensorlib/tensor's ops.

Every case is computed by PyTorch (Debian's python3-torch, 1.13) on small,
deterministic inputs and checked by fixtures_test.go, which runs the same
op through the public Go API. Run from anywhere:

    /usr/bin/python3 tensorlib/tensor/testdata/gen_fixtures.py

Format of fixtures.json: {"torch": version, "cases": [case, ...]}; a case is

    name    unique, "<op>/<what>"
    op      the Go harness's name for the call (see fixtures_test.go)
    args    numbers: dims, sizes, scalars (op-specific order)
    inputs  [{data, shape, dtype, view}]: data is flat row-major over shape,
            view is a list of steps applied to the contiguous base, the same
            way in torch and in Go, to make non-contiguous inputs:
            ["transpose", d0, d1], ["permute", d...], ["narrow", dim, start,
            len], ["select", dim, i], ["expand", size...], ["t"],
            ["unsqueeze", d]
    want    {data, shape, dtype}, or
    error   "ShapeError", "DTypeError", "IndexError", or alternatives
            joined with "|", when torch refuses the call
    or_want with error: a result the Go op may return instead of panicking,
            where it documents a deliberate widening torch lacks (GELU of
            Int64 gives Float32, MatMul promotes mixed dtypes)
    tol     optional [rtol, atol] for float results

Non-finite floats are written as the strings "nan", "inf", "-inf"; bools
as 0 and 1. Float32 values are written with the shortest decimal that
round-trips through float32.
"""

import math
import os

import numpy as np
import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float32)
torch.manual_seed(0)
rng = np.random.default_rng(20240501)

DTYPES = {
    "float32": torch.float32,
    "float64": torch.float64,
    "int64": torch.int64,
    "bool": torch.bool,
}
NAMES = {v: k for k, v in DTYPES.items()}

cases = []
names = set()


# ---------------------------------------------------------------- inputs


class In:
    """An input: a contiguous base tensor and the view steps applied to it."""

    def __init__(self, data, shape, dtype="float32", view=()):
        self.shape = list(shape)
        self.dtype = dtype
        self.view = [list(v) for v in view]
        n = int(np.prod(self.shape)) if self.shape else 1
        flat = np.asarray(data).reshape(-1)
        assert flat.size == n, (flat.size, shape)
        if dtype == "float32":
            self.data = flat.astype(np.float32)
        elif dtype == "float64":
            self.data = flat.astype(np.float64)
        elif dtype == "int64":
            self.data = flat.astype(np.int64)
        else:
            self.data = flat.astype(bool)

    def torch(self):
        t = torch.tensor(self.data.tolist(), dtype=DTYPES[self.dtype])
        t = t.reshape(self.shape)
        for v in self.view:
            t = apply_view(t, v)
        return t

    def json(self):
        return {
            "data": self.data.tolist(),
            "shape": self.shape,
            "dtype": self.dtype,
            "view": self.view,
        }

    def V(self, *steps):
        """Returns a copy with view steps appended."""
        return In(self.data, self.shape, self.dtype, self.view + [list(s) for s in steps])


def apply_view(t, v):
    k, a = v[0], v[1:]
    if k == "transpose":
        return t.transpose(a[0], a[1])
    if k == "permute":
        return t.permute(*a)
    if k == "narrow":
        return t.narrow(a[0], a[1], a[2])
    if k == "select":
        return t.select(a[0], a[1])
    if k == "expand":
        return t.expand(*a)
    if k == "t":
        return t.t()
    if k == "unsqueeze":
        return t.unsqueeze(a[0])
    raise ValueError(k)


def f32(*shape, scale=1.0, view=()):
    """Random float32 input, values rounded to 3 decimals."""
    x = np.round(rng.standard_normal(shape) * scale, 3)
    return In(x, shape, "float32", view)


def f64(*shape, scale=1.0, view=()):
    x = np.round(rng.standard_normal(shape) * scale, 6)
    return In(x, shape, "float64", view)


def i64(*shape, lo=-5, hi=6, view=()):
    x = rng.integers(lo, hi, size=shape)
    return In(x, shape, "int64", view)


def bl(*shape, view=()):
    x = rng.integers(0, 2, size=shape).astype(bool)
    return In(x, shape, "bool", view)


def pos32(*shape, view=()):
    x = np.round(rng.uniform(0.1, 4.0, size=shape), 3)
    return In(x, shape, "float32", view)


def of(dtype, *shape, **kw):
    return {"float32": f32, "float64": f64, "int64": i64, "bool": bl}[dtype](*shape, **kw)


def lit(data, shape=None, dtype="float32", view=()):
    a = np.asarray(data)
    if shape is None:
        shape = list(a.shape)
    return In(a, shape, dtype, view)


# ---------------------------------------------------------------- errors


def classify(e):
    m = str(e)
    low = m.lower()
    if isinstance(e, IndexError) and "dimension out of range" in low:
        return "ShapeError"
    if ("not implemented for" in low or "expected dtype" in low
            or "bool tensor" in low or "boolean" in low
            or "one_hot is only applicable to index tensor" in low
            or "expected scalar type" in low or "floating point" in low
            or "could not infer output dtype" in low
            or "integral" in low or "result type" in low
            or "expected both vectors to have same dtype" in low):
        return "DTypeError"
    if ("class values must be" in low or "out of bounds" in low
            or ("index" in low and "out of range" in low)):
        return "IndexError"
    if isinstance(e, IndexError):
        return "IndexError"
    if ("size" in low or "shape" in low or "match" in low
            or "cannot be multiplied" in low or "appears multiple times" in low or "duplicate dims" in low
            or "dimension" in low or "expected" in low or "exceeds" in low or "at least 1d" in low
            or "start" in low):
        return "ShapeError"
    raise RuntimeError("unclassified torch error: %r" % m)


# ---------------------------------------------------------------- cases


def result(out):
    if not isinstance(out, torch.Tensor):
        out = torch.tensor(out)
    out = out.contiguous()
    return {
        "data": out.reshape(-1).tolist(),
        "shape": list(out.shape),
        "dtype": NAMES[out.dtype],
    }


# Float32 ops that accumulate: summation order may differ from torch's.
LOOSE = {"sum", "mean", "sum_keep", "mean_keep", "var", "logsumexp",
         "log_softmax", "matmul"}
LOOSE_TOL = (1e-5, 1e-5)


def case(name, op, inputs, fn, args=(), tol=None, error=None, alt=None):
    """Records a case: fn gets the torch inputs (views applied).

    When torch refuses the call and alt is given, alt computes the result a
    Go op that accepts the call instead (a documented, deliberate widening
    such as GELU of Int64 giving Float32) must return: the harness accepts
    either the error or that result.
    """
    assert name not in names, name
    names.add(name)
    c = {"name": name, "op": op, "args": list(args),
         "inputs": [i.json() for i in inputs]}
    try:
        out = fn(*[i.torch() for i in inputs])
    except Exception as e:  # torch refused: the Go op must panic too
        kind = error or classify(e)
        c["error"] = kind
        c["torch_error"] = str(e).split("\n")[0][:160]
        if alt is not None:
            c["or_want"] = result(alt(*[i.torch() for i in inputs]))
        cases.append(c)
        return
    if error is not None:
        raise RuntimeError("%s: expected torch to fail" % name)
    c["want"] = result(out)
    if tol is None and c["want"]["dtype"] == "float32" and op in LOOSE:
        tol = LOOSE_TOL
    if tol is not None:
        c["tol"] = list(tol)
    cases.append(c)


def gen_creation():
    case("zeros/2x3", "zeros", [], lambda: torch.zeros(2, 3), args=[2, 3])
    case("zeros/scalar", "zeros", [], lambda: torch.zeros(()), args=[])
    case("zeros/empty", "zeros", [], lambda: torch.zeros(2, 0, 3), args=[2, 0, 3])
    case("ones/4", "ones", [], lambda: torch.ones(4), args=[4])
    case("ones/1x2x1", "ones", [], lambda: torch.ones(1, 2, 1), args=[1, 2, 1])
    case("full/2x3", "full", [], lambda: torch.full((2, 3), 2.5), args=[2.5, 2, 3])
    case("full/neg_scalar", "full", [], lambda: torch.full((), -7.25), args=[-7.25])
    case("full/empty", "full", [], lambda: torch.full((0,), 1.0), args=[1.0, 0])
    for start, end, step in [(0, 5, 1), (0, 1, 0.1), (1, 0, -0.25), (-2, 2, 0.5),
                             (0, 0, 1), (0.5, 3.2, 0.7), (3, 10, 3)]:
        case("arange/%g_%g_%g" % (start, end, step), "arange", [],
             lambda s=start, e=end, st=step: torch.arange(float(s), float(e), float(st)),
             args=[start, end, step])
    for n in [1, 3, 0]:
        case("eye/%d" % n, "eye", [], lambda n=n: torch.eye(n), args=[n])
    for v in [3.5, -0.1, 0.0]:
        case("scalar/%g" % v, "scalar", [], lambda v=v: torch.tensor(v), args=[v])
    # FromX and reading back, every dtype and a few shapes.
    for dt in DTYPES:
        for shape in [(5,), (2, 3), (1, 1, 4), (0, 3)]:
            x = of(dt, *shape)
            case("from/%s/%s" % (dt, "x".join(map(str, shape))), "identity", [x],
                 lambda a: a.clone())
        x = of(dt, 1, view=[["select", 0, 0]])
        case("from/%s/0d" % dt, "identity", [x], lambda a: a.clone())
    # Item.
    case("item/float32", "item", [lit([2.75])], lambda a: torch.tensor(a.item(), dtype=torch.float64))
    case("item/int64_0d", "item", [lit([7], dtype="int64", view=[["select", 0, 0]])],
         lambda a: torch.tensor(float(a.item()), dtype=torch.float64))
    # AsType.
    src = {
        "float32": lit([-2.7, -0.5, 0.0, 0.4, 1.5, 3.9], [2, 3]),
        "float64": lit([-2.7, -0.5, 0.0, 0.4, 1.5, 3.9], [2, 3], "float64"),
        "int64": lit([-3, 0, 1, 2, 5, -1], [2, 3], "int64"),
        "bool": lit([True, False, True, True, False, False], [2, 3], "bool"),
    }
    for a, x in src.items():
        for b in DTYPES:
            case("as_type/%s_to_%s" % (a, b), "as_" + b, [x], lambda t, b=b: t.to(DTYPES[b]))
        case("as_type/%s_to_float64/transposed" % a, "as_float64",
             [x.V(["transpose", 0, 1])], lambda t: t.to(torch.float64))


BINARY = {
    "add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div,
    "pow": torch.pow, "maximum": torch.maximum, "minimum": torch.minimum,
}
COMPARE = {"eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "le": torch.le,
           "gt": torch.gt, "ge": torch.ge}


def gen_binary():
    shapes = [
        ("same_2x3", (2, 3), (2, 3)),
        ("bcast_3x1_4", (3, 1), (4,)),
        ("bcast_2x1x3_4x1", (2, 1, 3), (4, 1)),
        ("scalar_rhs", (2, 3), ()),
        ("scalar_lhs", (), (3,)),
        ("size1_1x1_2x3", (1, 1), (2, 3)),
        ("empty_0x3_3", (0, 3), (3,)),
        ("empty_2x0_2x1", (2, 0), (2, 1)),
    ]

    def mk(gen, shape):
        if shape == ():
            x = gen(1)
            x.view = [["select", 0, 0]]
            return x
        return gen(*shape)

    for op, fn in BINARY.items():
        for label, sa, sb in shapes:
            if op == "pow":
                a, b = mk(pos32, sa), mk(f32, sb)
            elif op == "div":
                a, b = mk(f32, sa), mk(pos32, sb)
            else:
                a, b = mk(f32, sa), mk(f32, sb)
            case("%s/%s" % (op, label), op, [a, b], fn)
        # Non-contiguous operands.
        a = f32(3, 2, view=[["transpose", 0, 1]])
        b = pos32(2, 4, view=[["narrow", 1, 1, 3]])
        case("%s/transposed_narrowed" % op, op, [a, b], fn)
        a = pos32(3, 1, view=[["expand", 3, 4]])
        b = f32(4, 3, view=[["t"]])
        case("%s/expanded_t" % op, op, [a, b], fn)
        a = f32(2, 3, 4, view=[["permute", 2, 0, 1], ["select", 1, 1]])
        b = pos32(4, 1)
        case("%s/permuted_selected" % op, op, [a, b], fn)
        # Errors.
        case("%s/mismatch_2x3_4" % op, op, [f32(2, 3), f32(4)], fn)
        case("%s/mismatch_3x2_2x3" % op, op, [f32(3, 2), f32(2, 3)], fn)
        # Every dtype pair.
        for da in DTYPES:
            for db in DTYPES:
                if da == db == "float32":
                    continue
                if op == "pow":
                    a = lit([1, 2, 3, 0, 2, 1], [2, 3], da) if da != "bool" else bl(2, 3)
                    b = lit([2, 0, 1, 3], [4, 1, 1], db) if db != "bool" else bl(4, 1, 1)
                elif op == "div":
                    a = of(da, 2, 3)
                    b = lit([2, -3, 4, 1], [4, 1, 1], db) if db != "bool" else lit([True, True, True, True], [4, 1, 1], "bool")
                else:
                    a, b = of(da, 2, 3), of(db, 4, 1, 1)
                # torch refuses Sub with one Bool operand; NumPy (and the Go
                # package) treat the Bool as 0/1 there, refusing only
                # Bool - Bool.
                alt = None
                if op == "sub" and "bool" in (da, db) and da != db:
                    alt = lambda x, y: torch.sub(*[v.long() if v.dtype == torch.bool else v for v in (x, y)])
                case("%s/dtype_%s_%s" % (op, da, db), op, [a, b], fn, alt=alt)
    # Special values.
    case("div/int_by_zero", "div", [lit([1, 0, -1], dtype="int64"), lit([0], dtype="int64")], torch.div)
    case("div/float_by_zero", "div", [lit([1.0, 0.0, -1.0]), lit([0.0])], torch.div)
    case("pow/neg_base", "pow", [lit([-2.0, -2.0, 0.0, 4.0]), lit([3.0, 0.5, 0.0, -0.5])], torch.pow)
    case("maximum/nan", "maximum", [lit([1.0, float("nan"), 3.0]), lit([2.0, 0.0, float("nan")])], torch.maximum)
    case("minimum/nan", "minimum", [lit([1.0, float("nan"), 3.0]), lit([2.0, 0.0, float("nan")])], torch.minimum)
    case("sub/int64_wraps_not", "sub", [lit([10, -4], dtype="int64"), lit([3, 7], dtype="int64")], torch.sub)


def gen_scalar():
    ops = {"add_scalar": torch.add, "sub_scalar": torch.sub, "mul_scalar": torch.mul,
           "div_scalar": torch.div, "pow_scalar": torch.pow}
    for op, fn in ops.items():
        for s in [2, -1.5, 0.5]:
            for dt in ["float32", "float64", "int64", "bool"]:
                if op == "pow_scalar" and dt in ("float32", "float64"):
                    x = In(np.round(rng.uniform(0.1, 3, size=(2, 3)), 3), (2, 3), dt)
                elif op == "pow_scalar" and dt == "int64":
                    x = i64(2, 3, lo=0, hi=5)
                else:
                    x = of(dt, 2, 3)
                # A whole Go float64 stands for a Python int (see
                # scalarResultType in dtype.go); a fractional one for a float.
                sv = int(s) if float(s).is_integer() else s
                alt = None
                if op == "sub_scalar" and dt == "bool":  # as Sub above
                    alt = lambda t, sv=sv: torch.sub(t.long(), sv)
                case("%s/%s/%g" % (op, dt, s), op, [x], lambda t, sv=sv, fn=fn: fn(t, sv), args=[s], alt=alt)
        x = f32(3, 2, view=[["transpose", 0, 1]])
        case("%s/transposed" % op, op, [x], lambda t, fn=fn: fn(t, 3), args=[3])
        x = f32(0, 2)
        case("%s/empty" % op, op, [x], lambda t, fn=fn: fn(t, 3), args=[3])
    case("div_scalar/by_zero", "div_scalar", [lit([1.0, 0.0, -1.0])], lambda t: t / 0, args=[0])


UNARY = {
    "neg": torch.neg, "abs": torch.abs, "sqrt": torch.sqrt, "exp": torch.exp,
    "log": torch.log, "sin": torch.sin, "cos": torch.cos, "tanh": torch.tanh,
    "sigmoid": torch.sigmoid, "relu": torch.relu, "gelu": F.gelu,
}


def gen_unary():
    for op, fn in UNARY.items():
        if op in ("sqrt", "log"):
            x = pos32(2, 3)
        elif op == "exp":
            x = f32(2, 3, scale=2)
        else:
            x = f32(2, 3, scale=2)
        case("%s/float32" % op, op, [x], fn)
        x = f64(3, 2) if op not in ("sqrt", "log") else In(np.round(rng.uniform(0.1, 5, (3, 2)), 6), (3, 2), "float64")
        case("%s/float64" % op, op, [x], fn, tol=(1e-12, 1e-14))
        x = i64(2, 3, lo=0 if op in ("sqrt", "log") else -3, hi=4)
        # GELU documents Int64 and Bool inputs giving Float32, like Exp.
        alt = (lambda t: F.gelu(t.float())) if op == "gelu" else None
        case("%s/int64" % op, op, [x], fn, alt=alt)
        case("%s/bool" % op, op, [bl(4)], fn, alt=alt)
        x = f32(4, 3, scale=2, view=[["t"], ["narrow", 1, 1, 2]])
        if op in ("sqrt", "log"):
            x = pos32(4, 3, view=[["t"], ["narrow", 1, 1, 2]])
        case("%s/noncontig" % op, op, [x], fn)
        case("%s/empty" % op, op, [f32(0, 4)], fn)
        case("%s/0d" % op, op, [pos32(1, view=[["select", 0, 0]])], fn)
    wide = lit([-30.0, -10.0, -3.0, -1.0, -0.5, 0.0, 1e-4, 0.5, 1.0, 3.0, 10.0, 30.0])
    for op in ["exp", "sigmoid", "tanh", "gelu", "relu", "abs", "neg"]:
        case("%s/wide_range" % op, op, [wide], UNARY[op])
    case("exp/overflow", "exp", [lit([89.0, 100.0, -104.0, -200.0])], torch.exp)
    case("sqrt/negative", "sqrt", [lit([-1.0, 0.0, 4.0])], torch.sqrt)
    case("log/zero_negative", "log", [lit([0.0, -1.0, 1.0])], torch.log)
    # Clamp.
    for dt in ["float32", "float64", "int64"]:
        case("clamp/%s" % dt, "clamp", [of(dt, 3, 4)], lambda t: torch.clamp(t, -1, 2), args=[-1, 2])
    case("clamp/float32_frac", "clamp", [f32(2, 5)], lambda t: torch.clamp(t, -0.25, 0.75), args=[-0.25, 0.75])
    case("clamp/noncontig", "clamp", [f32(3, 4, view=[["transpose", 0, 1]])],
         lambda t: torch.clamp(t, -0.5, 0.5), args=[-0.5, 0.5])
    case("clamp/int64_frac", "clamp", [i64(6)], lambda t: torch.clamp(t, -1.5, 2.5), args=[-1.5, 2.5])
    case("clamp/bool", "clamp", [bl(3)], lambda t: torch.clamp(t, 0, 1), args=[0, 1])


def gen_compare():
    for op, fn in COMPARE.items():
        a = lit([1.0, 2.0, 3.0, 2.0, float("nan"), -1.0], [2, 3])
        b = lit([2.0, 2.0, 1.0], [3])
        case("%s/float32_bcast" % op, op, [a, b], fn)
        a = lit([1, 2, 3, 4], [4, 1], "int64")
        b = lit([0.5, 2.0, 3.5])
        case("%s/int64_float32" % op, op, [a, b], fn)
        a = lit([True, False, True, False], [4], "bool")
        b = lit([True, True, False, False], [4], "bool")
        case("%s/bool" % op, op, [a, b], fn)
        a = lit([1, 5, 3], [3], "int64")
        b = lit([2, 5, 1], [3], "int64")
        case("%s/int64" % op, op, [a, b], fn)
        case("%s/float64_float32" % op, op, [f64(2, 2), f32(2, 2)], fn)
        case("%s/noncontig" % op, op, [f32(3, 2, view=[["t"]]), f32(2, 1, view=[["expand", 2, 3]])], fn)
        case("%s/empty" % op, op, [f32(0, 2), f32(2)], fn)
        case("%s/mismatch" % op, op, [f32(3), f32(4)], fn)
    # Where.
    cond = lit([True, False, True, False, False, True], [2, 3], "bool")
    case("where/same", "where", [cond, f32(2, 3), f32(2, 3)], torch.where)
    case("where/bcast", "where", [lit([True, False, True], [3], "bool"), f32(2, 1), f32(1)], torch.where)
    case("where/bcast_cond", "where", [lit([True, False], [2, 1], "bool"), f32(3), f32(2, 3)], torch.where)
    case("where/noncontig", "where", [cond.V(["t"]), f32(2, 3, view=[["t"]]), f32(3, 1)], torch.where)
    case("where/0d_operand", "where", [cond, f32(2, 3), f32(1, view=[["select", 0, 0]])], torch.where)
    case("where/int64", "where", [cond, i64(2, 3), i64(2, 3)], torch.where)
    case("where/float64", "where", [cond, f64(2, 3), f64(3)], torch.where)
    case("where/mixed_int64_float32", "where", [cond, i64(2, 3), f32(2, 3)], torch.where)
    case("where/empty", "where", [lit([], [0], "bool"), f32(0), f32(1)], torch.where)
    case("where/mismatch", "where", [cond, f32(4), f32(2, 3)], torch.where)
    case("where/float_cond", "where", [f32(2, 3), f32(2, 3), f32(2, 3)], torch.where)


def keep_all(t):
    return list(range(t.dim()))


def gen_reduce():
    x3 = f32(2, 3, 4)
    for op in ["sum", "mean", "sum_keep", "mean_keep"]:
        base = torch.sum if op.startswith("sum") else torch.mean
        keep = op.endswith("_keep")

        def r(t, dims, base=base, keep=keep):
            if not dims:
                if keep:
                    return base(t, dim=keep_all(t), keepdim=True) if t.dim() else base(t)
                return base(t)
            return base(t, dim=dims, keepdim=keep)

        for dims in [[], [0], [1], [2], [-1], [0, 2], [-1, -3], [0, 1, 2]]:
            case("%s/2x3x4/%s" % (op, dims), op, [x3], lambda t, d=dims: r(t, d), args=dims)
        case("%s/noncontig/[1]" % op, op, [f32(4, 3, view=[["t"]])], lambda t: r(t, [1]), args=[1])
        case("%s/noncontig/[]" % op, op, [f32(4, 3, 2, view=[["permute", 2, 0, 1], ["narrow", 1, 1, 2]])],
             lambda t: r(t, []))
        case("%s/expanded/[0]" % op, op, [f32(3, view=[["expand", 4, 3]])], lambda t: r(t, [0]), args=[0])
        case("%s/empty_dim/[0]" % op, op, [f32(0, 3)], lambda t: r(t, [0]), args=[0])
        case("%s/empty_other/[1]" % op, op, [f32(0, 3)], lambda t: r(t, [1]), args=[1])
        case("%s/0d" % op, op, [f32(1, view=[["select", 0, 0]])], lambda t: r(t, []))
        case("%s/size1/[1]" % op, op, [f32(3, 1)], lambda t: r(t, [1]), args=[1])
        for dt in ["float64", "int64", "bool"]:
            case("%s/%s/[1]" % (op, dt), op, [of(dt, 3, 4)], lambda t: r(t, [1]), args=[1])
            case("%s/%s/[]" % (op, dt), op, [of(dt, 3, 4)], lambda t: r(t, []))
        case("%s/dim_out_of_range" % op, op, [f32(2, 3)], lambda t: r(t, [2]), args=[2])
        case("%s/dim_out_of_range_neg" % op, op, [f32(2, 3)], lambda t: r(t, [-3]), args=[-3])
        case("%s/dim_repeated" % op, op, [f32(2, 3)], lambda t: r(t, [1, -1]), args=[1, -1])

    ties = lit([3.0, 1.0, 3.0, 0.0, -2.0, -2.0, 5.0, -2.0], [2, 4])
    ity = lit([4, 1, 4, 0, -2, -2, 7, -2], [2, 4], "int64")
    dimops = {
        "max": lambda t, d: torch.amax(t, d),
        "min": lambda t, d: torch.amin(t, d),
        "argmax": lambda t, d: torch.argmax(t, d),
        "argmin": lambda t, d: torch.argmin(t, d),
        "var": lambda t, d: torch.var(t, d, unbiased=True),
        "softmax": lambda t, d: torch.softmax(t, d),
        "log_softmax": lambda t, d: torch.log_softmax(t, d),
        "logsumexp": lambda t, d: torch.logsumexp(t, d),
    }
    for op, fn in dimops.items():
        for d in [0, 1, 2, -1, -2]:
            case("%s/2x3x4/%d" % (op, d), op, [x3], lambda t, d=d, fn=fn: fn(t, d), args=[d])
        case("%s/ties/1" % op, op, [ties], lambda t, fn=fn: fn(t, 1), args=[1])
        case("%s/ties/0" % op, op, [ties], lambda t, fn=fn: fn(t, 0), args=[0])
        case("%s/noncontig/1" % op, op, [f32(4, 3, view=[["t"]])], lambda t, fn=fn: fn(t, 1), args=[1])
        case("%s/noncontig/0" % op, op, [f32(2, 4, 3, view=[["permute", 2, 0, 1], ["select", 1, 1]])],
             lambda t, fn=fn: fn(t, 0), args=[0])
        case("%s/expanded/1" % op, op, [f32(3, 1, view=[["expand", 3, 4]])], lambda t, fn=fn: fn(t, 1), args=[1])
        case("%s/size1/1" % op, op, [f32(3, 1)], lambda t, fn=fn: fn(t, 1), args=[1])
        case("%s/1d" % op, op, [f32(7)], lambda t, fn=fn: fn(t, 0), args=[0])
        case("%s/float64/1" % op, op, [f64(3, 4)], lambda t, fn=fn: fn(t, 1), args=[1], tol=(1e-12, 1e-14))
        # Where torch refuses integer inputs, a Go op may instead compute
        # in Float32 (softmax family, var) or treat Bool as 0/1 (argmax).
        if op.startswith("arg"):
            alt = lambda t, fn=fn: fn(t.long(), 1)
        else:
            alt = lambda t, fn=fn: fn(t.float(), 1)
        case("%s/int64/1" % op, op, [ity], lambda t, fn=fn: fn(t, 1), args=[1], alt=alt)
        case("%s/bool/1" % op, op, [lit([True, False, False, True, False, True], [2, 3], "bool")],
             lambda t, fn=fn: fn(t, 1), args=[1], alt=alt)
        case("%s/empty_other/1" % op, op, [f32(0, 3)], lambda t, fn=fn: fn(t, 1), args=[1])
        case("%s/dim_out_of_range" % op, op, [f32(2, 3)], lambda t, fn=fn: fn(t, 2), args=[2])
        if op not in ("softmax", "log_softmax", "logsumexp", "var"):
            case("%s/empty_dim/0" % op, op, [f32(0, 3)], lambda t, fn=fn: fn(t, 0), args=[0],
                 error="ShapeError|IndexError")
    big = lit([1000.0, 999.0, -1000.0, 0.0, -1e4, 1e4, 88.0, 89.0, 90.0], [3, 3])
    for op in ["softmax", "log_softmax", "logsumexp"]:
        case("%s/large/1" % op, op, [big], lambda t, fn=dimops[op]: fn(t, 1), args=[1])
        case("%s/large/0" % op, op, [big], lambda t, fn=dimops[op]: fn(t, 0), args=[0])
        case("%s/neg_inf/1" % op, op, [lit([float("-inf"), 0.0, 1.0, float("-inf"), float("-inf"), 2.0], [2, 3])],
             lambda t, fn=dimops[op]: fn(t, 1), args=[1])
    case("max/nan", "max", [lit([1.0, float("nan"), 3.0, 0.0], [2, 2])], lambda t: torch.amax(t, 1), args=[1])
    case("var/size1", "var", [f32(3, 1)], lambda t: torch.var(t, 1), args=[1])


def gen_shape():
    x = f32(2, 3, 4)
    for shape in [[4, 6], [24], [-1], [2, -1], [-1, 3, 2], [1, 24, 1], [2, 3, 4]]:
        case("reshape/%s" % shape, "reshape", [x], lambda t, s=shape: t.reshape(s), args=shape)
    case("reshape/noncontig", "reshape", [f32(3, 4, view=[["t"]])], lambda t: t.reshape(2, 6), args=[2, 6])
    case("reshape/expanded", "reshape", [f32(3, view=[["expand", 2, 3]])], lambda t: t.reshape(-1), args=[-1])
    case("reshape/to_0d", "reshape", [f32(1, 1)], lambda t: t.reshape([]), args=[])
    case("reshape/empty", "reshape", [f32(0, 4)], lambda t: t.reshape(2, 0, 2), args=[2, 0, 2])
    case("reshape/int64", "reshape", [i64(6)], lambda t: t.reshape(3, 2), args=[3, 2])
    case("reshape/bool", "reshape", [bl(6)], lambda t: t.reshape(2, 3), args=[2, 3])
    case("reshape/bad_size", "reshape", [f32(2, 3)], lambda t: t.reshape(4, 2), args=[4, 2])
    case("reshape/two_minus_one", "reshape", [f32(2, 3)], lambda t: t.reshape(-1, -1), args=[-1, -1])

    for d0, d1 in [(0, 1), (0, 2), (-1, -2), (1, 1)]:
        case("transpose/%d_%d" % (d0, d1), "transpose", [x], lambda t, a=d0, b=d1: t.transpose(a, b), args=[d0, d1])
    case("transpose/out_of_range", "transpose", [f32(2, 3)], lambda t: t.transpose(0, 2), args=[0, 2])
    for p in [[2, 0, 1], [1, 0, 2], [0, 1, 2], [-1, 0, 1]]:
        case("permute/%s" % p, "permute", [x], lambda t, p=p: t.permute(*p), args=p)
    case("permute/noncontig", "permute", [f32(3, 2, 2, view=[["transpose", 0, 2]])],
         lambda t: t.permute(1, 2, 0), args=[1, 2, 0])
    case("permute/bad_len", "permute", [f32(2, 3)], lambda t: t.permute(0), args=[0])
    case("permute/repeated", "permute", [f32(2, 3)], lambda t: t.permute(0, 0), args=[0, 0])
    case("t/2d", "t", [f32(2, 3)], lambda t: t.t())
    case("t/1d", "t", [f32(3)], lambda t: t.t())
    case("t/int64", "t", [i64(3, 2)], lambda t: t.t())
    case("t/noncontig", "t", [f32(4, 3, view=[["narrow", 0, 1, 2]])], lambda t: t.t())

    for dim, start, ln in [(0, 1, 1), (1, 0, 2), (2, 1, 3), (-1, 0, 0), (1, 2, 1)]:
        case("narrow/%d_%d_%d" % (dim, start, ln), "narrow", [x],
             lambda t, a=dim, b=start, c=ln: t.narrow(a, b, c), args=[dim, start, ln])
    case("narrow/noncontig", "narrow", [f32(4, 3, view=[["t"]])], lambda t: t.narrow(1, 1, 2), args=[1, 1, 2])
    case("narrow/out_of_range", "narrow", [f32(2, 4)], lambda t: t.narrow(1, 2, 3), args=[1, 2, 3],
         error="ShapeError|IndexError")
    for dim, i in [(0, 1), (1, 2), (2, 0), (-1, 3), (1, -1)]:
        case("select/%d_%d" % (dim, i), "select", [x], lambda t, a=dim, b=i: t.select(a, b), args=[dim, i])
    case("select/1d_to_0d", "select", [f32(3)], lambda t: t.select(0, 2), args=[0, 2])
    case("select/noncontig", "select", [f32(4, 3, view=[["t"]])], lambda t: t.select(1, 2), args=[1, 2])
    case("select/out_of_range", "select", [f32(2, 3)], lambda t: t.select(0, 2), args=[0, 2])

    y = f32(1, 3, 1, 2)

    def squeeze(t, dims):
        if not dims:
            return t.squeeze()
        n = t.dim()
        for d in sorted({d % n for d in dims}, reverse=True):
            t = t.squeeze(d)
        return t

    for dims in [[], [0], [2], [-2], [0, 2], [1], [-4, 2]]:
        case("squeeze/%s" % dims, "squeeze", [y], lambda t, d=dims: squeeze(t, d), args=dims)
    case("squeeze/all_ones", "squeeze", [f32(1, 1)], lambda t: t.squeeze())
    case("squeeze/noncontig", "squeeze", [f32(3, 1, view=[["t"]])], lambda t: t.squeeze(0), args=[0])
    case("squeeze/out_of_range", "squeeze", [f32(2, 1)], lambda t: t.squeeze(2), args=[2])
    for d in [0, 1, 2, -1, -3]:
        case("unsqueeze/%d" % d, "unsqueeze", [f32(2, 3)], lambda t, d=d: t.unsqueeze(d), args=[d])
    case("unsqueeze/0d", "unsqueeze", [f32(1, view=[["select", 0, 0]])], lambda t: t.unsqueeze(0), args=[0])
    case("unsqueeze/out_of_range", "unsqueeze", [f32(2, 3)], lambda t: t.unsqueeze(3), args=[3])
    for src, shape in [((3, 1), [3, 4]), ((3,), [2, 3]), ((1,), [2, 2, 2]), ((2, 1), [-1, 3]),
                       ((1, 3), [0, 3]), ((2, 3), [2, 3])]:
        case("expand/%s_to_%s" % ("x".join(map(str, src)), shape), "expand", [f32(*src)],
             lambda t, s=shape: t.expand(*s), args=shape)
    case("expand/0d", "expand", [f32(1, view=[["select", 0, 0]])], lambda t: t.expand(2, 2), args=[2, 2])
    case("expand/noncontig", "expand", [f32(1, 3, view=[["t"]])], lambda t: t.expand(3, 2), args=[3, 2])
    case("expand/bad", "expand", [f32(3)], lambda t: t.expand(2, 4), args=[2, 4])
    case("expand/bool", "expand", [bl(2, 1)], lambda t: t.expand(2, 3), args=[2, 3])
    for sd in [0, 1, 2, -1, -2]:
        case("flatten/%d" % sd, "flatten", [x], lambda t, s=sd: torch.flatten(t, s), args=[sd])
    case("flatten/noncontig", "flatten", [f32(2, 3, 2, view=[["permute", 2, 0, 1]])],
         lambda t: torch.flatten(t, 1), args=[1])
    for name, inp in [("transposed", f32(3, 4, view=[["t"]])),
                      ("narrowed", f32(3, 4, view=[["narrow", 1, 1, 2]])),
                      ("expanded", f32(3, 1, view=[["expand", 3, 3]])),
                      ("permuted_selected", f32(2, 3, 4, view=[["permute", 2, 0, 1], ["select", 2, 1]])),
                      ("contiguous", f32(2, 2)),
                      ("int64_t", i64(2, 3, view=[["t"]])),
                      ("bool_t", bl(2, 3, view=[["t"]])),
                      ("float64_t", f64(2, 3, view=[["t"]]))]:
        case("contiguous/%s" % name, "contiguous", [inp], lambda t: t.contiguous())


def gen_join_index():
    a, b, c = f32(2, 3), f32(1, 3), f32(4, 3)
    case("cat/0", "cat", [a, b, c], lambda *t: torch.cat(t, 0), args=[0])
    case("cat/-1", "cat", [f32(2, 1), f32(2, 3)], lambda *t: torch.cat(t, -1), args=[-1])
    case("cat/1_3d", "cat", [f32(2, 1, 2), f32(2, 2, 2)], lambda *t: torch.cat(t, 1), args=[1])
    case("cat/single", "cat", [f32(2, 2)], lambda *t: torch.cat(t, 0), args=[0])
    case("cat/noncontig", "cat", [f32(3, 2, view=[["t"]]), f32(2, 4, view=[["narrow", 1, 1, 2]])],
         lambda *t: torch.cat(t, 1), args=[1])
    case("cat/empty_part", "cat", [f32(0, 3), f32(2, 3)], lambda *t: torch.cat(t, 0), args=[0])
    case("cat/int64", "cat", [i64(2), i64(3)], lambda *t: torch.cat(t, 0), args=[0])
    case("cat/bool", "cat", [bl(2), bl(1)], lambda *t: torch.cat(t, 0), args=[0])
    case("cat/float64", "cat", [f64(1, 2), f64(1, 2)], lambda *t: torch.cat(t, 0), args=[0])
    case("cat/mixed_int64_float32", "cat", [i64(2), f32(2)], lambda *t: torch.cat(t, 0), args=[0])
    case("cat/mismatch", "cat", [f32(2, 3), f32(2, 4)], lambda *t: torch.cat(t, 0), args=[0])
    case("cat/rank_mismatch", "cat", [f32(2, 3), f32(3)], lambda *t: torch.cat(t, 0), args=[0])
    for d in [0, 1, 2, -1]:
        case("stack/%d" % d, "stack", [f32(2, 3), f32(2, 3), f32(2, 3)], lambda *t, d=d: torch.stack(t, d), args=[d])
    case("stack/noncontig", "stack", [f32(3, 2, view=[["t"]]), f32(2, 3)], lambda *t: torch.stack(t, 0), args=[0])
    case("stack/0d", "stack", [f32(1, view=[["select", 0, 0]]), f32(1, view=[["select", 0, 0]])],
         lambda *t: torch.stack(t, 0), args=[0])
    case("stack/int64", "stack", [i64(2), i64(2)], lambda *t: torch.stack(t, 1), args=[1])
    case("stack/mismatch", "stack", [f32(2, 3), f32(3, 2)], lambda *t: torch.stack(t, 0), args=[0])

    x = f32(3, 4)
    idx0 = lit([[0, 2, 1, 0], [2, 2, 0, 1]], dtype="int64")
    idx1 = lit([[3, 0], [1, 1], [0, 2]], dtype="int64")
    case("gather/0", "gather", [x, idx0], lambda t, i: torch.gather(t, 0, i), args=[0])
    case("gather/1", "gather", [x, idx1], lambda t, i: torch.gather(t, 1, i), args=[1])
    case("gather/-1", "gather", [x, idx1], lambda t, i: torch.gather(t, -1, i), args=[-1])
    case("gather/smaller_index", "gather", [x, lit([[1], [0]], dtype="int64")],
         lambda t, i: torch.gather(t, 1, i), args=[1])
    case("gather/noncontig", "gather", [f32(4, 3, view=[["t"]]), idx1.V(["t"], ["t"])],
         lambda t, i: torch.gather(t, 1, i), args=[1])
    case("gather/noncontig_index", "gather", [x, lit([[0, 1, 2], [2, 1, 0]], dtype="int64", view=[["t"]])],
         lambda t, i: torch.gather(t, 1, i), args=[1])
    case("gather/int64", "gather", [i64(2, 3), lit([[2, 0], [1, 1]], dtype="int64")],
         lambda t, i: torch.gather(t, 1, i), args=[1])
    case("gather/float64_3d", "gather", [f64(2, 3, 2), lit([0, 2, 1, 1, 0, 0, 2, 1], [2, 2, 2], "int64")],
         lambda t, i: torch.gather(t, 1, i), args=[1])
    case("gather/float_index", "gather", [x, lit([[0.0, 1.0]])], lambda t, i: torch.gather(t, 1, i), args=[1])
    case("gather/out_of_range", "gather", [x, lit([[4]], dtype="int64")],
         lambda t, i: torch.gather(t, 1, i), args=[1])
    case("gather/rank_mismatch", "gather", [x, lit([0, 1], dtype="int64")],
         lambda t, i: torch.gather(t, 1, i), args=[1])

    for d, ix in [(0, [2, 0, 2]), (1, [3, 1]), (-1, [0]), (0, [])]:
        case("index_select/%d_%s" % (d, ix), "index_select", [x, lit(ix, [len(ix)], "int64")],
             lambda t, i, d=d: torch.index_select(t, d, i), args=[d])
    case("index_select/noncontig", "index_select", [f32(4, 3, view=[["t"]]), lit([1, 0], dtype="int64")],
         lambda t, i: torch.index_select(t, 1, i), args=[1])
    case("index_select/noncontig_index", "index_select",
         [x, lit([2, 0, 1, 3], [2, 2], "int64", view=[["t"], ["select", 0, 1]])],
         lambda t, i: torch.index_select(t, 1, i), args=[1])
    case("index_select/int64", "index_select", [i64(3, 2), lit([1, 1], dtype="int64")],
         lambda t, i: torch.index_select(t, 0, i), args=[0])
    case("index_select/bool", "index_select", [bl(3, 2), lit([2, 0], dtype="int64")],
         lambda t, i: torch.index_select(t, 0, i), args=[0])
    case("index_select/float_index", "index_select", [x, lit([0.0])],
         lambda t, i: torch.index_select(t, 0, i), args=[0])
    case("index_select/out_of_range", "index_select", [x, lit([3], dtype="int64")],
         lambda t, i: torch.index_select(t, 0, i), args=[0])

    case("one_hot/1d", "one_hot", [lit([0, 3, 1, 3], dtype="int64")], lambda l: F.one_hot(l, 4), args=[4])
    case("one_hot/2d", "one_hot", [lit([[1, 0], [2, 2]], dtype="int64")], lambda l: F.one_hot(l, 3), args=[3])
    case("one_hot/noncontig", "one_hot", [lit([[1, 0], [2, 2]], dtype="int64", view=[["t"]])],
         lambda l: F.one_hot(l, 5), args=[5])
    case("one_hot/empty", "one_hot", [lit([], [0], "int64")], lambda l: F.one_hot(l, 3), args=[3])
    case("one_hot/0d", "one_hot", [lit([2], dtype="int64", view=[["select", 0, 0]])], lambda l: F.one_hot(l, 3), args=[3])
    case("one_hot/too_big", "one_hot", [lit([0, 3], dtype="int64")], lambda l: F.one_hot(l, 3), args=[3])
    case("one_hot/negative", "one_hot", [lit([0, -1], dtype="int64")], lambda l: F.one_hot(l, 3), args=[3])
    case("one_hot/float", "one_hot", [lit([0.0, 1.0])], lambda l: F.one_hot(l, 3), args=[3])


def gen_matmul():
    mm = torch.matmul
    tol = (2e-5, 1e-5)
    for name, a, b in [
        ("1d_1d", f32(4), f32(4)),
        ("2d_2d", f32(2, 3), f32(3, 4)),
        ("1d_2d", f32(3), f32(3, 2)),
        ("2d_1d", f32(2, 3), f32(3)),
        ("3d_3d", f32(2, 2, 3), f32(2, 3, 2)),
        ("3d_2d", f32(2, 3, 4), f32(4, 2)),
        ("2d_3d", f32(3, 4), f32(2, 4, 2)),
        ("3d_1d", f32(2, 3, 4), f32(4)),
        ("1d_3d", f32(3), f32(2, 3, 2)),
        ("bcast_2x1x3x4_5x4x2", f32(2, 1, 3, 4), f32(5, 4, 2)),
        ("bcast_1x2x3_4x1x3x2", f32(1, 2, 3), f32(4, 1, 3, 2)),
        ("1x1", f32(1, 1), f32(1, 1)),
        ("tall", f32(17, 5), f32(5, 9)),
        ("empty_m", f32(0, 3), f32(3, 2)),
        ("empty_k", f32(2, 0), f32(0, 3)),
        ("empty_batch", f32(0, 2, 3), f32(3, 2)),
        ("a_transposed", f32(3, 2, view=[["t"]]), f32(3, 4)),
        ("b_transposed", f32(2, 3), f32(4, 3, view=[["t"]])),
        ("both_transposed", f32(3, 2, view=[["t"]]), f32(4, 3, view=[["t"]])),
        ("batched_transposed", f32(2, 3, 4, view=[["transpose", 1, 2]]), f32(2, 2, 3, view=[["transpose", 1, 2]])),
        ("narrowed", f32(3, 5, view=[["narrow", 1, 1, 3]]), f32(4, 2, view=[["narrow", 0, 0, 3]])),
        ("expanded_batch", f32(3, 4, view=[["expand", 2, 3, 4]]), f32(2, 4, 2)),
        ("permuted", f32(3, 2, 4, view=[["permute", 1, 0, 2]]), f32(4, 3)),
        ("float64", f64(3, 4), f64(4, 2)),
        ("float64_batched", f64(2, 2, 3), f64(3, 2)),
        ("int64", i64(2, 3), i64(3, 2)),
        ("int64_1d", i64(3), i64(3)),
        ("mixed_f32_f64", f32(2, 3), f64(3, 2)),
        ("mixed_i64_f32", i64(2, 3), f32(3, 2)),
        ("bool", bl(2, 3), bl(3, 2)),
        ("inner_mismatch", f32(2, 3), f32(4, 5)),
        ("inner_mismatch_1d", f32(3), f32(4)),
        ("batch_mismatch", f32(2, 3, 4), f32(3, 4, 2)),
        ("0d", f32(1, view=[["select", 0, 0]]), f32(3)),
    ]:
        t = (1e-12, 1e-13) if "float64" in name else tol
        # torch refuses mixed dtypes; promoting them is allowed too.
        alt = lambda x, y: mm(*[v.to(torch.promote_types(x.dtype, y.dtype)) for v in (x, y)])
        if not name.startswith("mixed"):
            alt = None
        case("matmul/%s" % name, "matmul", [a, b], mm, tol=t, alt=alt)


# ---------------------------------------------------------------- transformer ops
# Added after the others, so that their random inputs stay as they were.


def gen_transformer_ops():
    for name, x, k in [("2d", f32(4, 5), 0), ("2d_k1", f32(4, 5), 1), ("2d_k-1", f32(5, 3), -1),
                       ("3d", f32(2, 3, 4), 0), ("int64", i64(3, 3), 0), ("bool", bl(3, 4), 1),
                       ("noncontig", f32(4, 3, view=[["t"]]), 0), ("wide_k", f32(3, 3), 5)]:
        case("tril/" + name, "tril", [x], lambda t, k=k: torch.tril(t, k), args=[k])
        case("triu/" + name, "triu", [x], lambda t, k=k: torch.triu(t, k), args=[k])
    case("tril/1d", "tril", [f32(3)], lambda t: torch.tril(t, 0), args=[0])

    s = f32(2, 3, 3)
    causal = lit(np.triu(np.ones((3, 3)), 1).astype(bool), dtype="bool")
    case("masked_fill/causal_-inf", "masked_fill", [s, causal], lambda t, m: t.masked_fill(m, float("-inf")),
         args=[float("-inf")])
    case("masked_fill/same_shape", "masked_fill", [f32(2, 3), bl(2, 3)], lambda t, m: t.masked_fill(m, 2.5), args=[2.5])
    case("masked_fill/int64", "masked_fill", [i64(2, 3), bl(3)], lambda t, m: t.masked_fill(m, 7), args=[7])
    case("masked_fill/noncontig", "masked_fill", [f32(3, 2, view=[["t"]]), bl(2, 1)],
         lambda t, m: t.masked_fill(m, -1.0), args=[-1.0])
    case("masked_fill/float_mask", "masked_fill", [f32(2, 3), f32(2, 3)], lambda t, m: t.masked_fill(m, 0.0), error="DTypeError",
         args=[0.0])
    case("masked_fill/bcast_x", "masked_fill", [f32(3), bl(2, 3)], lambda t, m: t.masked_fill(m, 0.0), args=[0.0])

    ties = lit([[3.0, 1.0, 3.0, 2.0, 1.0, float("nan"), -1.0], [0.5, 0.5, 0.5, -2.0, 4.0, 4.0, float("-inf")]])
    for name, x, d in [("1d", f32(7), 0), ("2d_last", f32(3, 5), -1), ("2d_0", f32(4, 3), 0),
                       ("3d_1", f32(2, 4, 3), 1), ("noncontig", f32(5, 3, view=[["t"]]), 1),
                       ("int64", i64(3, 6, lo=-100, hi=100), 1), ("float64", f64(2, 6), 1),
                       ("ties_nan", ties, 1)]:
        for desc in (False, True):
            tag = "%s_%s" % (name, "desc" if desc else "asc")
            case("sort_values/" + tag, "sort_values", [x], lambda t, d=d, desc=desc: torch.sort(t, stable=True, dim=d, descending=desc)[0],
                 args=[d, int(desc)])
            case("sort_indices/" + tag, "sort_indices", [x],
                 lambda t, d=d, desc=desc: torch.sort(t, stable=True, dim=d, descending=desc)[1], args=[d, int(desc)])
            case("argsort/" + tag, "argsort", [x], lambda t, d=d, desc=desc: torch.sort(t, stable=True, dim=d, descending=desc)[1],
                 args=[d, int(desc)])
    case("sort_values/bad_dim", "sort_values", [f32(2, 3)], lambda t: torch.sort(t, 2)[0], args=[2, 0])

    for name, x, k, d in [("1d", f32(8), 3, 0), ("2d", f32(3, 6), 2, -1), ("2d_dim0", f32(5, 3), 4, 0),
                          ("all", f32(2, 4), 4, 1), ("zero", f32(2, 4), 0, 1), ("int64", i64(2, 9, lo=-100, hi=100), 5, 1),
                          ("noncontig", f32(6, 2, view=[["t"]]), 3, 1)]:
        case("topk_values/" + name, "topk_values", [x], lambda t, k=k, d=d: torch.topk(t, k, d)[0], args=[k, d])
        case("topk_indices/" + name, "topk_indices", [x], lambda t, k=k, d=d: torch.topk(t, k, d)[1], args=[k, d])

    for name, x, d in [("1d", f32(6), 0), ("2d_last", f32(3, 5), -1), ("2d_0", f32(4, 3), 0),
                       ("noncontig", f32(4, 3, view=[["t"]]), 1), ("int64", i64(2, 5), 1), ("bool", bl(2, 5), 1),
                       ("float64", f64(3, 4), 1), ("long", f32(3, 300), 1), ("empty", f32(0, 3), 1)]:
        case("cumsum/" + name, "cumsum", [x], lambda t, d=d: torch.cumsum(t, d), args=[d], tol=(1e-5, 1e-5))

    for name, x, size, d in [("even", f32(6, 2), 2, 0), ("ragged", f32(2, 7), 3, 1), ("bigger", f32(2, 3), 5, 1)]:
        n = len(torch.split(x.torch(), size, d))
        for i in range(n):
            case("split/%s_%d" % (name, i), "split", [x], lambda t, size=size, d=d, i=i: torch.split(t, size, d)[i],
                 args=[size, d, i])
    for name, x, n, d in [("even", f32(6, 2), 3, 0), ("ragged", f32(2, 7), 3, 1), ("fewer", f32(5, 2), 4, 0)]:
        m = len(torch.chunk(x.torch(), n, d))
        case("chunk_len/" + name, "chunk_len", [x], lambda t, n=n, d=d: torch.tensor(len(torch.chunk(t, n, d))),
             args=[n, d])
        for i in range(m):
            case("chunk/%s_%d" % (name, i), "chunk", [x], lambda t, n=n, d=d, i=i: torch.chunk(t, n, d)[i],
                 args=[n, d, i])


# ---------------------------------------------------------------- output


def fmt_num(v, dtype):
    if isinstance(v, bool):
        return "1" if v else "0"
    if dtype in ("int64", "bool"):
        return str(int(v))
    v = float(v)
    if math.isnan(v):
        return '"nan"'
    if math.isinf(v):
        return '"inf"' if v > 0 else '"-inf"'
    if dtype == "float32":
        s = repr(np.float32(v))
        s = s.replace("np.float32(", "").rstrip(")")
        if "e" not in s and "." not in s:
            s += ".0"
        return s
    return repr(v)


def dumps(v, dtype=None):
    if isinstance(v, dict):
        dt = v.get("dtype", dtype)
        parts = []
        for k, x in v.items():
            if k == "data":
                parts.append('"data":[%s]' % ",".join(fmt_num(e, dt) for e in x))
            else:
                parts.append('"%s":%s' % (k, dumps(x, dt)))
        return "{%s}" % ",".join(parts)
    if isinstance(v, (list, tuple)):
        return "[%s]" % ",".join(dumps(x, dtype) for x in v)
    if isinstance(v, str):
        return '"%s"' % v.replace("\\", "\\\\").replace('"', '\\"')
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return fmt_num(v, "float64")
        return repr(v)
    if v is None:
        return "null"
    raise TypeError(type(v))


def main():
    gen_creation()
    gen_binary()
    gen_scalar()
    gen_unary()
    gen_compare()
    gen_reduce()
    gen_shape()
    gen_join_index()
    gen_matmul()
    gen_transformer_ops()
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures.json")
    with open(out, "w") as f:
        f.write('{"generator":"gen_fixtures.py","torch":"%s","numpy":"%s","cases":[\n'
                % (torch.__version__, np.__version__))
        f.write(",\n".join(dumps(c) for c in cases))
        f.write("\n]}\n")
    errs = sum(1 for c in cases if "error" in c)
    print("wrote %s: %d cases (%d error cases), %d bytes"
          % (out, len(cases), errs, os.path.getsize(out)))


if __name__ == "__main__":
    main()
