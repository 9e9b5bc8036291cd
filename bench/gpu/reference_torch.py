"""The PyTorch side of bench/gpu: times what bench/gpu times in gotensor,
on the same device, and prints one JSON object.

    python3 bench/gpu/reference_torch.py --sizes 1024,4096 --elems 67108864 \
        --config '{"B": 32, "H": 8, ...}' --device cuda --only gemm,bandwidth,ops,train

bench/gpu passes --config (the sizes of the op table and the training
steps, its sizes struct) and --only. Everything runs eager in float32
with TF32 off (PyTorch's default for matmul; set here for convolutions
too), as gotensor's cuBLAS calls and kernels do, except the parts gemm16
(bfloat16, float16 and TF32 GEMMs) and amp (the training steps under
torch.autocast with bfloat16, attention by scaled_dot_product_attention,
and torch.cuda.max_memory_allocated of one step). The op names are the
keys bench/gpu looks up: keep them in step with bench/gpu/ops.go.
"""
import argparse
import contextlib
import json
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

LOOP_SECONDS = 0.5


def sync(dev):
    if dev.type == "cuda":
        torch.cuda.synchronize()


def time_loop(f, dev):
    """Seconds per call of f: one warm-up, then about LOOP_SECONDS."""
    f()
    sync(dev)
    start = time.perf_counter()
    f()
    sync(dev)
    one = time.perf_counter() - start
    iters = max(3, int(LOOP_SECONDS / max(one, 1e-6)))
    start = time.perf_counter()
    for _ in range(iters):
        f()
    sync(dev)
    return (time.perf_counter() - start) / iters


def op_cases(s, dev):
    """The per-op table of bench/gpu/ops.go: (name, grads, f)."""
    B, H, T, Dh = s["B"], s["H"], s["T"], s["Dh"]
    D = H * Dh
    N, C, HW = s["N"], s["C"], s["HW"]
    randn = lambda *shape: torch.randn(*shape, device=dev)
    cases = []
    x = randn(B, H, T, T)
    cases.append(("x.Sum()", [x], lambda: x.sum()))
    cases.append(("x.Softmax(-1)", [x], lambda: x.softmax(-1)))
    h = randn(B, T, D)
    ln = nn.LayerNorm(D).to(dev)
    cases.append((f"nn.LayerNorm({D})", [h] + list(ln.parameters()), lambda: ln(h)))
    img = randn(N, C, HW, HW)
    bn = nn.BatchNorm2d(C).to(dev)
    cases.append((f"nn.BatchNorm2d({C}) training", [img] + list(bn.parameters()), lambda: bn(img)))
    pool = nn.MaxPool2d(2)
    cases.append(("nn.MaxPool2d(2)", [img], lambda: pool(img)))
    q, k = randn(B, H, T, Dh), randn(B, H, T, Dh)
    cases.append(("q.MatMul(k.Transpose(-2, -1))", [q, k], lambda: q.matmul(k.transpose(-2, -1))))
    heads = randn(B, T, H, Dh)
    cases.append(("Permute(0, 2, 1, 3).Reshape", [heads], lambda: heads.permute(0, 2, 1, 3).reshape(B, H, T * Dh)))
    cin = randn(N, C, HW // 2, HW // 2)
    conv = nn.Conv2d(C, 2 * C, 3, padding=1).to(dev)
    cases.append((f"nn.Conv2d({C}, {2 * C}, 3, pad 1)", [cin] + list(conv.parameters()), lambda: conv(cin)))
    g = randn(B, T, 4 * D)
    cases.append(("x.GELU()", [g], lambda: F.gelu(g)))
    a, b = randn(s["elems"]), randn(s["elems"])
    cases.append(("a.Add(b)", [a, b], lambda: a + b))
    return cases


def bench_ops(s, dev):
    out = {}
    for name, grads, f in op_cases(s, dev):
        def fwd():
            with torch.no_grad():
                f()

        t_fwd = time_loop(fwd, dev)
        leaves = [t for t in grads if not t.requires_grad]
        for t in leaves:
            t.requires_grad_(True)

        def fwd_bwd():
            for t in grads:
                t.grad = None
            f().sum().backward()

        t_bwd = time_loop(fwd_bwd, dev)
        for t in leaves:
            t.requires_grad_(False)
            t.grad = None
        out[name] = {"fwd": t_fwd, "bwd": t_bwd}
    return out


class Block(nn.Module):
    """bench/gpu/train.go's block: pre-norm, causal attention, GELU MLP."""

    def __init__(self, s):
        super().__init__()
        self.s = s
        D = s["H"] * s["Dh"]
        T = s["T"]
        self.ln1, self.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.wq, self.wk, self.wv, self.wo = (nn.Linear(D, D) for _ in range(4))
        self.fc1, self.fc2 = nn.Linear(D, 4 * D), nn.Linear(4 * D, D)
        self.register_buffer("mask", torch.full((T, T), float("-inf")).triu(1))
        self.scale = 1 / math.sqrt(s["Dh"])

    def heads(self, x):
        s = self.s
        return x.reshape(s["B"], s["T"], s["H"], s["Dh"]).permute(0, 2, 1, 3)

    def forward(self, x):
        s = self.s
        B, T, D = s["B"], s["T"], s["H"] * s["Dh"]
        h = self.ln1(x)
        q, k, v = self.heads(self.wq(h)), self.heads(self.wk(h)), self.heads(self.wv(h))
        att = (q.matmul(k.transpose(-2, -1)) * self.scale + self.mask).softmax(-1)
        y = att.matmul(v).permute(0, 2, 1, 3).reshape(B, T, D)
        x = x + self.wo(y)
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


def conv_net(s):
    side = s["conv_hw"] // 4
    c1, c2 = s["conv_c1"], s["conv_c2"]
    return nn.Sequential(
        nn.Conv2d(3, c1, 3, padding=1), nn.BatchNorm2d(c1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(c1, c2, 3, padding=1), nn.BatchNorm2d(c2), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(c2 * side * side, 10))


def block_step(s, dev, amp=None, block=None):
    """One training step of a transformer block (AdamW, loss mean(o*o)),
    the forward under the context amp() makes when given."""
    blk = (block or Block)(s).to(dev)
    x = torch.randn(s["B"], s["T"], s["H"] * s["Dh"], device=dev)
    opt = torch.optim.AdamW(blk.parameters(), lr=1e-4)

    def step():
        opt.zero_grad()
        with (amp() if amp else contextlib.nullcontext()):
            o = blk(x)
            loss = (o * o).mean()
        loss.backward()
        opt.step()
        return loss.item()

    return step


def conv_step(s, dev, amp=None):
    """One training step of the conv net (SGD momentum, cross-entropy)."""
    net = conv_net(s).to(dev)
    imgs = torch.randn(s["conv_n"], 3, s["conv_hw"], s["conv_hw"], device=dev)
    labels = torch.randint(0, 10, (s["conv_n"],), device=dev)
    sgd = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)

    def step():
        sgd.zero_grad()
        with (amp() if amp else contextlib.nullcontext()):
            loss = F.cross_entropy(net(imgs), labels)
        loss.backward()
        sgd.step()
        return loss.item()

    return step


def bench_train(s, dev):
    return {"transformer": time_loop(block_step(s, dev), dev), "convnet": time_loop(conv_step(s, dev), dev)}


def bench_gemm16(sizes, dev):
    """n×n GEMMs in bfloat16, float16 and float32 with TF32 allowed."""
    out = {}
    for key, dt, tf32 in (("bf16", torch.bfloat16, False), ("fp16", torch.float16, False), ("tf32", torch.float32, True)):
        torch.backends.cuda.matmul.allow_tf32 = tf32
        out[key] = {}
        for n in sizes:
            x = torch.randn(n, n, device=dev).to(dt)
            w = torch.randn(n, n, device=dev).to(dt)
            try:
                out[key][str(n)] = time_loop(lambda: torch.mm(x, w), dev)
            except RuntimeError:  # no float16 GEMM on this CPU build
                pass
            del x, w
    torch.backends.cuda.matmul.allow_tf32 = False
    return out


def attention(q, k, v, T):
    """Causal attention: F.scaled_dot_product_attention (flash where it
    applies) in PyTorch 2, the composed form before it."""
    sdpa = getattr(F, "scaled_dot_product_attention", None)
    if sdpa is not None:
        return sdpa(q, k, v, is_causal=True)
    mask = torch.full((T, T), float("-inf"), device=q.device).triu(1)
    att = (q.matmul(k.transpose(-2, -1)) / math.sqrt(q.shape[-1]) + mask).softmax(-1)
    return att.matmul(v.to(att.dtype) if att.dtype != v.dtype else v)


class SDPABlock(Block):
    """Block with its attention by scaled_dot_product_attention."""

    def forward(self, x):
        s = self.s
        B, T, D = s["B"], s["T"], s["H"] * s["Dh"]
        h = self.ln1(x)
        q, k, v = self.heads(self.wq(h)), self.heads(self.wk(h)), self.heads(self.wv(h))
        y = attention(q, k, v, T).permute(0, 2, 1, 3).reshape(B, T, D)
        x = x + self.wo(y)
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


def peak_of(step, dev):
    """torch.cuda.max_memory_allocated of one step (0 off CUDA)."""
    if dev.type != "cuda":
        return 0
    step()
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    step()
    torch.cuda.synchronize()
    return torch.cuda.max_memory_allocated()


def bench_amp(s, dev):
    """The training steps under bfloat16 autocast, and peak memory."""
    amp = lambda: torch.autocast(dev.type, dtype=torch.bfloat16)
    mem = {"transformer": peak_of(block_step(s, dev), dev)}
    block, conv = block_step(s, dev, amp, SDPABlock), conv_step(s, dev, amp)
    times = {"transformer": time_loop(block, dev), "convnet": time_loop(conv, dev)}
    mem["transformer_amp"] = peak_of(block, dev)
    mem["convnet_amp"] = peak_of(conv, dev)
    return times, mem


def main():
    global LOOP_SECONDS
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="1024,2048,4096,8192")
    p.add_argument("--elems", type=int, default=64 << 20)
    p.add_argument("--config", default="{}", help="bench/gpu's sizes as JSON")
    p.add_argument("--device", default="cuda")
    p.add_argument("--only", default="gemm,bandwidth")
    p.add_argument("--loop-seconds", type=float, default=0.5)
    a = p.parse_args()
    LOOP_SECONDS = a.loop_seconds
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = torch.device("cuda:0" if a.device == "cuda" else a.device)
    parts = set(x.strip() for x in a.only.split(","))
    name = torch.cuda.get_device_name(0) if dev.type == "cuda" else "CPU"
    out = {"torch": torch.__version__, "device": name, "gemm": {}}
    if "gemm" in parts:
        for n in [int(s) for s in a.sizes.split(",")]:
            x = torch.randn(n, n, device=dev)
            w = torch.randn(n, n, device=dev)
            out["gemm"][str(n)] = time_loop(lambda: torch.mm(x, w), dev)
            del x, w
    if "bandwidth" in parts:
        x = torch.rand(a.elems, device=dev)
        y = torch.rand(a.elems, device=dev)
        out["add"] = time_loop(lambda: x + y, dev)
        out["clone"] = time_loop(lambda: x.clone(), dev)
        z = torch.empty_like(x)
        out["copy"] = time_loop(lambda: z.copy_(x), dev)
        del x, y, z
    s = json.loads(a.config)
    if "ops" in parts:
        out["ops"] = bench_ops(s, dev)
    if "train" in parts:
        out["train"] = bench_train(s, dev)
    if "gemm16" in parts:
        out["gemm16"] = bench_gemm16([int(n) for n in a.sizes.split(",")], dev)
    if "amp" in parts:
        # Autocast's own choice for the rest: TF32 stays off, as above.
        out["amp"], out["memory"] = bench_amp(s, dev)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
