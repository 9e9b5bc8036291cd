#!/usr/bin/python3
"""Splits a CPU profile of training into shares: GEMM, im2col, batch norm,
elementwise ops, the optimizer, allocation, GC, the data loader, the
interpreter, the rest.

Usage, from the repository root:

    go run ./bench/mnist -model cnn-bn -epochs 1 -threads '' -cpuprofile /tmp/cnn.prof
    go build -o /tmp/mnist ./bench/mnist
    /usr/bin/python3 bench/profile_shares.py /tmp/mnist /tmp/cnn.prof

(bench/cellloop -cpuprofile profiles the loop in a cell, where the
interpreter's share shows.) It reads `go tool pprof -traces` and puts each
sample in the first category, in the order below, that some frame of its
stack matches: a sample in a kernel that allocates its result counts as
allocation, one in OpenBLAS's own threads (no Go frames: "<unknown>",
libc) as GEMM.
"""

import collections
import re
import subprocess
import sys

CATEGORIES = [
    ("GEMM (OpenBLAS)", r"tensorlib/internal/blas\.|<unknown>|libc\.so|libopenblas"),
    ("allocation (new tensors' memory)", r"runtime\.(mallocgc|memclrNoHeapPointers|makeslice)"),
    ("garbage collection", r"runtime\.(gcBgMarkWorker|gcAssistAlloc|gcDrain|markroot|scanobject|bgsweep|bgscavenge)"),
    ("im2col / col2im", r"(?i)im2col|col2im"),
    ("batch norm", r"(?i)cpu_norm|batchnorm|normplane|normgrad|gradsums|planes\.stats"),
    ("optimizer (Adam)", r"(?i)adam|tensorlib/optim\."),
    ("data loader (batch gather)", r"tensorlib/data\.|IndexSelect"),
    ("elementwise, pooling, loss, reductions", r"tensorlib/tensor\.(cpuBackend|_Cfunc|simd|unary|binary|reduce|relu|maxPool|scatter|crossEntropy|exp|where|compare|copy|cast|iterRuns|scalarKernel|binRun|addRowSums)"),
    ("interpreter (yaegi)", r"traefik/yaegi"),
]
OTHER = "autograd, dispatch, the rest"


def samples(binary, profile):
    """Yields (milliseconds, frames) for each stack in the profile."""
    out = subprocess.run(["go", "tool", "pprof", "-traces", binary, profile],
                         capture_output=True, text=True, check=True).stdout
    value, frames = None, []
    for line in out.splitlines():
        if line.startswith("-----------"):
            if value is not None:
                yield value, frames
            value, frames = None, []
            continue
        m = re.match(r"\s+(\d+(?:\.\d+)?)(s|ms|us)\s+(\S.*)$", line)
        if m:
            num, unit, fn = m.groups()
            value = float(num) * {"s": 1000.0, "ms": 1.0, "us": 0.001}[unit]
            frames = [fn.strip()]
        elif line.strip() and value is not None:
            frames.append(line.strip())
    if value is not None:
        yield value, frames


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: profile_shares.py BINARY PROFILE")
    shares = collections.Counter()
    for value, frames in samples(sys.argv[1], sys.argv[2]):
        for name, pattern in CATEGORIES:
            if any(re.search(pattern, f) for f in frames):
                shares[name] += value
                break
        else:
            shares[OTHER] += value
    total = sum(shares.values())
    for name, v in shares.most_common():
        print("%5.1f%%  %s" % (100 * v / total, name))
    print("%d ms of samples" % total)


if __name__ == "__main__":
    main()
