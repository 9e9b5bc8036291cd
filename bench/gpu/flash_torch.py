"""The PyTorch side of bench/gpu's attention part (flash.go): seconds per
causal scaled_dot_product_attention forward + out.sum().backward() for
q, k, v [B, H, T, Dh], in bfloat16 with the flash backend forced (on a
GPU, where PyTorch has it) and in float32 with PyTorch's default choice.
Prints one JSON object.

    python3 bench/gpu/flash_torch.py --device cuda --b 32 --h 8 --dh 64 --t 256,1024

PyTorch without F.scaled_dot_product_attention (Debian's 1.13, used on
the CPU with bench/gpu -emulate) runs the math form softmax(q kᵀ/√d) v.
"""
import argparse
import contextlib
import json
import math

import torch
import torch.nn.functional as F

import reference_torch
from reference_torch import time_loop


def flash_only(dev):
    """A context that restricts SDPA to the flash backend, and its name."""
    if dev.type != "cuda" or not hasattr(F, "scaled_dot_product_attention"):
        return contextlib.nullcontext, "default" if hasattr(F, "scaled_dot_product_attention") else "math (no SDPA)"
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
        return (lambda: sdpa_kernel(SDPBackend.FLASH_ATTENTION)), "flash"
    except ImportError:
        return (lambda: torch.backends.cuda.sdp_kernel(enable_flash=True, enable_math=False,
                                                      enable_mem_efficient=False)), "flash"


def attention(q, k, v):
    if hasattr(F, "scaled_dot_product_attention"):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
    t, s = q.shape[-2], k.shape[-2]
    mask = torch.ones(t, s, dtype=torch.bool, device=q.device).tril()
    w = (q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])).masked_fill(~mask, float("-inf"))
    return torch.softmax(w, -1) @ v


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cuda")
    p.add_argument("--b", type=int, default=32)
    p.add_argument("--h", type=int, default=8)
    p.add_argument("--dh", type=int, default=64)
    p.add_argument("--t", default="256,1024")
    p.add_argument("--loop-seconds", type=float, default=0.5)
    a = p.parse_args()
    reference_torch.LOOP_SECONDS = a.loop_seconds
    dev = torch.device("cuda:0" if a.device == "cuda" else a.device)
    ctx, backend = flash_only(dev)
    name = torch.cuda.get_device_name(0) if dev.type == "cuda" else "CPU"
    out = {"torch": torch.__version__, "device": name, "backend": backend, "times": {}}
    for t in (int(x) for x in a.t.split(",")):
        times = {}
        for dt, use in ((torch.bfloat16, ctx), (torch.float32, contextlib.nullcontext)):
            torch.manual_seed(1)
            q, k, v = (torch.randn(a.b, a.h, t, a.dh, device=dev, dtype=dt, requires_grad=True) for _ in range(3))

            def step():
                for x in (q, k, v):
                    x.grad = None
                with use():
                    attention(q, k, v).sum().backward()

            times["bf16" if dt == torch.bfloat16 else "f32"] = time_loop(step, dev)
            del q, k, v
        out["times"][str(t)] = times
    print(json.dumps(out))


if __name__ == "__main__":
    main()
