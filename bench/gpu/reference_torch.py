"""The PyTorch side of bench/gpu: times what bench/gpu times in gotensor,
on the same GPU, and prints one JSON object.

    python3 bench/gpu/reference_torch.py --sizes 1024,4096 --elems 67108864

SGEMM runs in full Float32 (TF32 off, PyTorch's default for matmul), as
gotensor's cuBLAS calls do.
"""
import argparse
import json
import time

import torch


def time_loop(f):
    """Seconds per call of f: one warm-up, then about half a second."""
    f()
    torch.cuda.synchronize()
    start = time.perf_counter()
    f()
    torch.cuda.synchronize()
    one = time.perf_counter() - start
    iters = max(3, int(0.5 / max(one, 1e-6)))
    start = time.perf_counter()
    for _ in range(iters):
        f()
    torch.cuda.synchronize()
    return (time.perf_counter() - start) / iters


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="1024,2048,4096,8192")
    p.add_argument("--elems", type=int, default=64 << 20)
    a = p.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda:0")
    out = {"torch": torch.__version__, "device": torch.cuda.get_device_name(0), "gemm": {}}
    for n in [int(s) for s in a.sizes.split(",")]:
        x = torch.randn(n, n, device=dev)
        w = torch.randn(n, n, device=dev)
        out["gemm"][str(n)] = time_loop(lambda: torch.mm(x, w))
        del x, w
    x = torch.rand(a.elems, device=dev)
    y = torch.rand(a.elems, device=dev)
    out["add"] = time_loop(lambda: x + y)
    out["clone"] = time_loop(lambda: x.clone())
    z = torch.empty_like(x)
    out["copy"] = time_loop(lambda: z.copy_(x))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
