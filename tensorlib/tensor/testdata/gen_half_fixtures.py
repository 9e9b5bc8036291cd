#!/usr/bin/python3
"""Generate half_fixtures.json: PyTorch's results for ops on bfloat16 and
float16 tensors, checked by half_test.go on every device (the CPU and the
emulated CUDA device). The format is fixtures.json's (see gen_fixtures.py),
with the dtypes "bfloat16" and "float16", whose values are written as the
float32 numbers they are. Run with Debian's python3-torch:

    /usr/bin/python3 tensorlib/tensor/testdata/gen_half_fixtures.py

PyTorch's CPU computes on 16-bit floats in float32 and rounds each result
(where PyTorch 1.13's CPU has no float16 kernel, the reference computes in
float32 and rounds, as PyTorch's CUDA kernels do)
to nearest, ties to even, as gotensor does: conversions and the exactly
rounded ops (+ - * /, comparisons, copies) must match bit for bit; ops
that go through float32 math functions or sum in some order get one unit
in the last place of the 16-bit result (the tol of each case).
"""

import math
import os

import numpy as np
import torch
import torch.nn.functional as F

rng = np.random.default_rng(31)
DT = {"bfloat16": torch.bfloat16, "float16": torch.float16, "float32": torch.float32,
      "float64": torch.float64, "int64": torch.int64, "bool": torch.bool}
NAMES = {v: k for k, v in DT.items()}
# One unit in the last place, relative: 2^-7 for bfloat16, 2^-10 for float16.
ULP = {"bfloat16": 2.0 ** -7, "float16": 2.0 ** -10}

cases = []


def num(v, dtype):
    if dtype in ("int64",):
        return int(v)
    if dtype == "bool":
        return int(bool(v))
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def tj(t, view=()):
    t = t.contiguous()
    d = NAMES[t.dtype]
    vals = t.float().reshape(-1).tolist() if t.dtype in (torch.bfloat16, torch.float16) else t.reshape(-1).tolist()
    return {"data": [num(v, d) for v in vals], "shape": list(t.shape), "dtype": d, "view": [list(v) for v in view]}


def view(t, steps):
    for s in steps:
        k, a = s[0], s[1:]
        t = {"transpose": lambda: t.transpose(a[0], a[1]), "t": lambda: t.t(),
             "narrow": lambda: t.narrow(a[0], a[1], a[2]), "expand": lambda: t.expand(*a),
             "permute": lambda: t.permute(*a)}[k]()
    return t


def rand(dtype, *shape, scale=1.0, lo=None):
    x = rng.standard_normal(shape) * scale
    if lo is not None:
        x = rng.uniform(lo, lo + 4, size=shape)
    return torch.tensor(x, dtype=torch.float32).to(DT[dtype])


def case(name, op, inputs, fn, args=(), tol=None):
    """inputs: list of (tensor, view steps)."""
    ts = [view(t, v) for t, v in inputs]
    try:
        out = fn(*ts)
    except RuntimeError as e:
        # PyTorch 1.13's CPU lacks some float16 kernels (relu, clamp, gelu,
        # matmul, ...); its CUDA ones compute in float32 and round, which
        # is what the reference does then.
        if "not implemented for 'Half'" not in str(e):
            raise
        half = [t.dtype == torch.float16 for t in ts]
        out = fn(*[t.float() if h else t for t, h in zip(ts, half)])
        if out.dtype == torch.float32:
            out = out.half()
    c = {"name": name, "op": op, "args": list(args), "inputs": [tj(t, v) for t, v in inputs], "want": tj(out)}
    if tol is not None:
        c["tol"] = tol
    cases.append(c)


specials = torch.tensor([0.0, -0.0, 1.0, 1 + 2 ** -8, 1 + 3 * 2 ** -8, 1 + 2 ** -11, 65504.0, 65519.0, 65520.0, 1e38, 3e38,
                         2 ** -14, 2 ** -24, 2 ** -25, 3e-8, 1e-40, -2.5, float("inf"), float("-inf"), float("nan")])

for d in ("bfloat16", "float16"):
    u = ULP[d]
    loose = [2 * u, 2 * u]
    case(f"as_{d}/specials", f"as_{d}", [(specials, ())], lambda x: x.to(DT[d]))
    case(f"as_{d}/random", f"as_{d}", [(torch.tensor(rng.standard_normal(64) * 100, dtype=torch.float32), ())], lambda x: x.to(DT[d]))
    case(f"as_{d}/float64", f"as_{d}", [(torch.tensor(rng.standard_normal(32), dtype=torch.float64), ())], lambda x: x.to(DT[d]))
    case(f"as_{d}/int64", f"as_{d}", [(torch.tensor([0, 1, -7, 257, 2049, 65519, 100000], dtype=torch.int64), ())], lambda x: x.to(DT[d]))
    h = specials.to(DT[d])
    for to in ("float32", "float64", "bool"):
        case(f"as_{to}/{d}", f"as_{to}", [(h, ())], lambda x: x.to(DT[to]))
    case(f"as_int64/{d}", "as_int64", [(torch.tensor([1.5, -2.75, 300, 0.0], dtype=DT[d]), ())], lambda x: x.to(torch.int64))

    a, b = rand(d, 6, 9), rand(d, 6, 9)
    for op, fn in (("add", torch.add), ("sub", torch.sub), ("mul", torch.mul), ("div", torch.div),
                   ("maximum", torch.maximum), ("minimum", torch.minimum)):
        case(f"{op}/{d}", op, [(a, ()), (b, ())], fn)
    case(f"add/{d}/broadcast", "add", [(rand(d, 3, 1, 5), ()), (rand(d, 4, 5), ())], torch.add)
    case(f"mul/{d}/transposed", "mul", [(rand(d, 5, 7), ()), (rand(d, 7, 5), (("t",),))], torch.mul)
    case(f"add/{d}/float32", "add", [(a, ()), (rand("float32", 9), ())], torch.add)
    case(f"mul/{d}/int64", "mul", [(a, ()), (torch.tensor([2], dtype=torch.int64), ())], torch.mul)
    other = "float16" if d == "bfloat16" else "bfloat16"
    case(f"add/{d}/{other}", "add", [(a, ()), (rand(other, 6, 9), ())], torch.add)
    case(f"mul_scalar/{d}", "mul_scalar", [(a, ())], lambda x: x * 2.5, args=[2.5])
    case(f"add_scalar/{d}", "add_scalar", [(a, ())], lambda x: x + 0.1, args=[0.1])
    case(f"pow_scalar/{d}", "pow_scalar", [(a, ())], lambda x: x ** 2, args=[2], tol=[u, 0])
    for op in ("neg", "abs", "relu"):
        case(f"{op}/{d}", op, [(a, ())], getattr(torch, op))
    pos = rand(d, 4, 8, lo=0.05)
    for op in ("exp", "log", "sqrt", "tanh", "sigmoid", "sin", "cos"):
        x = pos if op in ("log", "sqrt") else a
        case(f"{op}/{d}", op, [(x, ())], getattr(torch, op), tol=[u, u / 64])
    case(f"gelu/{d}", "gelu", [(a, ())], F.gelu, tol=[u, u / 64])
    case(f"clamp/{d}", "clamp", [(a, ())], lambda x: x.clamp(-0.5, 0.5), args=[-0.5, 0.5])
    for op in ("eq", "lt", "ge"):
        case(f"{op}/{d}", op, [(a, ()), (a.flip(0), ())], getattr(torch, op))
    case(f"where/{d}", "where", [(a > 0, ()), (a, ()), (b, ())], torch.where)

    case(f"sum/{d}", "sum", [(a, ())], lambda x: x.sum(1), args=[1], tol=[u, u])
    case(f"sum/{d}/all", "sum", [(rand(d, 40, 30), ())], lambda x: x.sum(), tol=[u, u])
    case(f"mean/{d}", "mean", [(a, ())], lambda x: x.mean(0), args=[0], tol=[u, u])
    case(f"max/{d}", "max", [(a, ())], lambda x: x.max(1).values, args=[1])
    case(f"argmax/{d}", "argmax", [(a, ())], lambda x: x.argmax(1), args=[1])
    case(f"softmax/{d}", "softmax", [(a, ())], lambda x: x.softmax(1), args=[1], tol=[u, u / 16])
    case(f"log_softmax/{d}", "log_softmax", [(a, ())], lambda x: x.log_softmax(-1), args=[-1], tol=[u, u])
    case(f"cumsum/{d}", "cumsum", [(a, ())], lambda x: x.cumsum(1), args=[1], tol=[u, u])

    # Products accumulate in float32 and round once, as cuBLAS's GemmEx
    # does with CUBLAS_COMPUTE_32F (and PyTorch on a GPU); Debian's CPU
    # build of PyTorch 1.13 (generic BLAS) accumulates bfloat16 products
    # in bfloat16, which is 3% off over 300 terms: not the reference.
    def mm(x, y):
        return (x.float() @ y.float()).to(x.dtype)

    case(f"matmul/{d}", "matmul", [(rand(d, 5, 7), ()), (rand(d, 7, 3), ())], mm, tol=loose)
    case(f"matmul/{d}/batched_transposed", "matmul", [(rand(d, 2, 4, 6), ()), (rand(d, 2, 5, 6), (("transpose", 1, 2),))],
         mm, tol=loose)
    case(f"matmul/{d}/long", "matmul", [(rand(d, 3, 300), ()), (rand(d, 300, 4), ())], mm, tol=loose)

    case(f"reshape/{d}", "reshape", [(a, (("t",),))], lambda x: x.reshape(54), args=[54])
    case(f"cat/{d}", "cat", [(a, ()), (b, ())], lambda x, y: torch.cat([x, y], 1), args=[1])
    case(f"index_select/{d}", "index_select", [(a, ()), (torch.tensor([3, 0, 3]), ())], lambda x, i: x.index_select(1, i), args=[1])
    case(f"gather/{d}", "gather", [(a, ()), (torch.tensor(rng.integers(0, 9, (6, 2))), ())], lambda x, i: x.gather(1, i), args=[1])
    case(f"sort_values/{d}", "sort_values", [(a, ())], lambda x: x.sort(1, True).values, args=[1, 1])

    w, bias = rand(d, 9), rand(d, 9)
    case(f"layer_norm/{d}", "layer_norm", [(a, ()), (w, ()), (bias, ())], lambda x, w, b: F.layer_norm(x, [9], w, b),
         tol=loose)
    logits, labels = rand(d, 6, 5), torch.tensor(rng.integers(0, 5, 6))
    case(f"cross_entropy/{d}", "cross_entropy", [(logits, ()), (labels, ())], F.cross_entropy, tol=loose)
    x, k, kb = rand(d, 2, 3, 6, 6), rand(d, 4, 3, 3, 3), rand(d, 4)
    case(f"conv2d/{d}", "conv2d", [(x, ()), (k, ()), (kb, ())], lambda x, k, b: F.conv2d(x, k, b, padding=1), tol=loose)
    case(f"max_pool2d/{d}", "max_pool2d", [(x, ())], lambda x: F.max_pool2d(x, 2))

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "half_fixtures.json")
with open(out, "w") as f:
    import json
    json.dump({"torch": torch.__version__, "cases": cases}, f, separators=(",", ":"))
    f.write("\n")
print("wrote", len(cases), "cases to", out)
