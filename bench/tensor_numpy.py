#!/usr/bin/python3
"""NumPy side of `go run ./bench/tensor`: times the same operations as the
Go benchmark and prints one JSON object on stdout.

Run it with Debian's /usr/bin/python3 (numpy on the system BLAS). The
environment is used as given, OPENBLAS_CORETYPE included; the object records
which OpenBLAS kernel numpy's BLAS actually runs.
"""

import argparse
import ctypes
import json
import os
import sys
import time

import numpy as np


def best_of(fn, reps, warmup):
    """Smallest wall time of fn over reps calls, after warmup calls."""
    for _ in range(warmup):
        fn()
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def blas_info():
    """Which BLAS numpy loaded, and its OpenBLAS kernel and threads."""
    info = {"library": "", "corename": "", "threads": 0, "source": ""}
    try:
        from threadpoolctl import threadpool_info

        for lib in threadpool_info():
            if lib.get("user_api") == "blas":
                info.update(library=lib.get("filepath", ""), corename=lib.get("architecture", ""),
                            threads=lib.get("num_threads", 0), source="threadpoolctl")
                return info
    except ImportError:
        pass
    # Without threadpoolctl: find the BLAS mapped into this process and ask
    # it directly (dlopen of a loaded library returns the same handle).
    with open("/proc/self/maps") as maps:
        paths = sorted({line.split()[-1] for line in maps
                        if "blas" in line.split()[-1] and line.split()[-1].startswith("/")})
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
            core = lib.openblas_get_corename
        except (OSError, AttributeError):
            continue
        core.restype = ctypes.c_char_p
        info.update(library=os.path.realpath(path), corename=core().decode(),
                    threads=lib.openblas_get_num_threads(), source="/proc/self/maps")
        return info
    if paths:
        info.update(library=os.path.realpath(paths[0]), corename="not OpenBLAS", source="/proc/self/maps")
    return info


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--gemm", type=int, default=1024, help="SGEMM size n (n×n @ n×n)")
    p.add_argument("--gemm-reps", type=int, default=10)
    p.add_argument("--ops", type=int, default=4096, help="elementwise and reduction size n (n×n)")
    p.add_argument("--ops-reps", type=int, default=10)
    args = p.parse_args()

    rng = np.random.default_rng(0)
    n = args.gemm
    a = rng.random((n, n), dtype=np.float32)
    b = rng.random((n, n), dtype=np.float32)
    t = best_of(lambda: np.matmul(a, b), args.gemm_reps, 3)
    out = {
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "blas": blas_info(),
        "env": {k: os.environ[k] for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS")
                if k in os.environ},
        "sgemm": {"n": n, "seconds": t, "gflops": 2 * n ** 3 / t / 1e9},
    }

    n = args.ops
    x = rng.random((n, n), dtype=np.float32)
    y = rng.random((n, n), dtype=np.float32)
    xc = x - 0.5  # half negative, for ReLU
    ops = {
        "add": lambda: x + y,
        "mul": lambda: x * y,
        "mulscalar": lambda: x * 2.5,
        "relu": lambda: np.maximum(xc, 0),
        "exp": lambda: np.exp(x),
        "tanh": lambda: np.tanh(x),
        "sum1": lambda: x.sum(1),
        "sum0": lambda: x.sum(0),
        "sumall": lambda: x.sum(),
        "max1": lambda: x.max(1),
    }
    out["ops"] = {"n": n}
    for name, fn in ops.items():
        out["ops"][name] = best_of(fn, args.ops_reps, 2)
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main()
