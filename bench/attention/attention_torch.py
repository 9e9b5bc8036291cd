#!/usr/bin/python3
"""PyTorch's side of bench/attention: milliseconds of one causal attention
forward and backward (the best of three after a warm-up), composed (softmax(q kᵀ/√e + mask) v) and fused
(F.scaled_dot_product_attention, or torch 1.13's private
F._scaled_dot_product_attention). Prints {"plain": ms, "sdpa": ms}.

    /usr/bin/python3 attention_torch.py cpu|cuda B H T E THREADS
"""
import json
import sys
import time

import torch
import torch.nn.functional as F

device, b, h, t, e, threads = sys.argv[1], *map(int, sys.argv[2:])
torch.set_num_threads(threads)
dev = torch.device("cuda" if device == "cuda" else "cpu")
torch.manual_seed(1)
q, k, v = (torch.randn(b, h, t, e, device=dev, requires_grad=True) for _ in range(3))
mask = torch.ones(t, t, device=dev, dtype=torch.bool).triu(1)


def plain():
    s = (q @ k.transpose(-2, -1)) / e ** 0.5
    return torch.softmax(s.masked_fill(mask, float("-inf")), -1) @ v


def sdpa():
    if hasattr(F, "scaled_dot_product_attention"):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return F._scaled_dot_product_attention(q, k, v, is_causal=True)[0]


def timed(fn):
    def step():
        fn().sum().backward()
        q.grad.sum().item()
        for x in (q, k, v):
            x.grad = None
    step()
    best = float("inf")
    for _ in range(3):
        if dev.type == "cuda":
            torch.cuda.synchronize()
        start = time.perf_counter()
        step()
        if dev.type == "cuda":
            torch.cuda.synchronize()
        best = min(best, (time.perf_counter() - start) * 1000)
    return best


print(json.dumps({"plain": timed(plain), "sdpa": timed(sdpa)}))
