#!/usr/bin/python3
"""Generates grad_fixtures.json: PyTorch's outputs and gradients for the
composite expressions and primitives that grad_fixtures_test.go rebuilds
with gotensor, and torch.optim trajectories for AdamStep and SGDStep.

Run with Debian's interpreter (python3-torch) from this directory:

    /usr/bin/python3 gen_grad_fixtures.py

Each case lists its inputs (float data with shape and dtype; integer
labels separately), the weights r of the scalar sum(out * r) that is
differentiated (so every output element matters), torch's output and the
gradient of every float input.
"""
import json

import torch

torch.manual_seed(20240521)
torch.set_num_threads(1)


def t(x):
    return {"shape": list(x.shape), "dtype": str(x.dtype).replace("torch.", ""),
            "data": [float(v) for v in x.detach().reshape(-1).tolist()]}


cases = []


def case(name, fn, inputs, labels=None, dtype=torch.float64):
    xs = [x.to(dtype).clone().requires_grad_(True) for x in inputs]
    out = fn(*xs) if labels is None else fn(*xs, labels)
    r = torch.randn(out.shape, dtype=torch.float64).to(dtype)
    (out * r).sum().backward()
    c = {"name": name, "inputs": [t(x) for x in xs], "r": t(r), "out": t(out),
         "grads": [t(x.grad) for x in xs]}
    if labels is not None:
        c["labels"] = labels.tolist()
    cases.append(c)


F = torch.nn.functional
labels4 = torch.tensor([2, 0, 1, 2])

case("mlp", lambda x, w1, b1, w2, b2, y: F.cross_entropy(F.relu(x @ w1 + b1) @ w2 + b2, y),
     [torch.randn(4, 5), torch.randn(5, 6), torch.randn(6), torch.randn(6, 3), torch.randn(3)], labels4,
     dtype=torch.float32)
case("mlp64", lambda x, w1, b1, w2, b2, y: F.cross_entropy(torch.tanh(x @ w1 + b1) @ w2 + b2, y),
     [torch.randn(4, 5), torch.randn(5, 6), torch.randn(6), torch.randn(6, 3), torch.randn(3)], labels4)
case("layernorm", lambda x, g, b: torch.tanh((x - x.mean(-1, keepdim=True)) / torch.sqrt(x.var(-1, keepdim=True) + 1e-5) * g + b).pow(2),
     [torch.randn(3, 4), torch.randn(4), torch.randn(4)])
case("attention", lambda q, k, v: torch.softmax(q @ k.transpose(-2, -1) / 2.0, -1) @ v,
     [torch.randn(2, 3, 4), torch.randn(2, 5, 4), torch.randn(2, 5, 3)])
case("mixed", lambda x, y: torch.where(x > 0, F.gelu(x) * torch.sigmoid(y), torch.maximum(x, y).exp()).logsumexp(1),
     [torch.randn(3, 4), torch.randn(4)])
case("conv", lambda x, w, b: F.conv2d(x, w, b, stride=1, padding=1),
     [torch.randn(2, 3, 6, 6), torch.randn(4, 3, 3, 3), torch.randn(4)])
case("conv_strided", lambda x, w, b: F.conv2d(x, w, b, stride=(2, 1), padding=(0, 1), dilation=(1, 2)),
     [torch.randn(2, 2, 7, 6), torch.randn(3, 2, 2, 3), torch.randn(3)])
case("conv32", lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=2, dilation=2),
     [torch.randn(2, 3, 9, 8), torch.randn(5, 3, 3, 3), torch.randn(5)], dtype=torch.float32)
case("maxpool", lambda x: F.max_pool2d(x, 2), [torch.randn(2, 3, 6, 5)])
case("maxpool_pad", lambda x: F.max_pool2d(x, 3, stride=2, padding=1), [torch.randn(2, 2, 7, 6)])
case("avgpool", lambda x: F.avg_pool2d(x, 2), [torch.randn(2, 3, 6, 5)])
case("avgpool_pad", lambda x: F.avg_pool2d(x, (3, 2), stride=(2, 1), padding=1), [torch.randn(2, 2, 7, 6)])
case("cross_entropy", lambda x, y: F.cross_entropy(x, y), [torch.randn(6, 7) * 50], torch.tensor([0, 6, 3, 3, 1, 5]))
case("cross_entropy32", lambda x, y: F.cross_entropy(x, y), [torch.randn(6, 7) * 10], torch.tensor([0, 6, 3, 3, 1, 5]),
     dtype=torch.float32)
case("cnn", lambda x, w, b, v, y: F.cross_entropy(F.max_pool2d(F.relu(F.conv2d(x, w, b, padding=1)), 2).flatten(1) @ v, y),
     [torch.randn(4, 1, 6, 6), torch.randn(2, 1, 3, 3), torch.randn(2), torch.randn(18, 3)], labels4, dtype=torch.float32)

# Optimizer trajectories: 10 steps from p0 with the gradients grads[i].
optims = []
p0 = torch.randn(3, 4)
grads = [torch.randn(3, 4) for _ in range(10)]
configs = [
    ("adam", torch.optim.Adam, dict(lr=1e-2)),
    ("adam_wd", torch.optim.Adam, dict(lr=1e-2, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1)),
    ("adamw", torch.optim.AdamW, dict(lr=1e-2, weight_decay=0.1)),
    ("sgd", torch.optim.SGD, dict(lr=0.1)),
    ("sgd_momentum", torch.optim.SGD, dict(lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01)),
    ("sgd_nesterov", torch.optim.SGD, dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)),
]
for name, cls, kw in configs:
    for dtype in (torch.float32, torch.float64):
        p = p0.clone().to(dtype).requires_grad_(True)
        opt = cls([p], **kw)
        for g in grads:
            p.grad = g.to(dtype).clone()
            opt.step()
        optims.append({"name": name, "hyper": {k: list(v) if isinstance(v, tuple) else v for k, v in kw.items()},
                       "p0": t(p0.to(dtype)), "grads": [t(g.to(dtype)) for g in grads], "want": t(p)})

# Cases added later come after the optimizer runs, so that the random
# draws of the cases above stay as they were.
case("linear", lambda x, w, b: F.linear(x, w, b), [torch.randn(2, 3, 4), torch.randn(5, 4), torch.randn(5)])
case("linear32", lambda x, w, y: F.cross_entropy(F.relu(F.linear(x, w)), y), [torch.randn(4, 6), torch.randn(3, 6)],
     labels4, dtype=torch.float32)
case("sort_topk_cumsum", lambda x: torch.sort(x, dim=1, descending=True, stable=True)[0].cumsum(1) * torch.topk(x, 3, 1)[0].sum(1, keepdim=True),
     [torch.randn(3, 5)])
case("causal_scores", lambda q, k: (q @ k.transpose(-2, -1)).masked_fill(torch.ones(4, 4).triu(1).bool(), float("-inf")).softmax(-1) + (q @ k.transpose(-2, -1)).tril(-1),
     [torch.randn(2, 4, 3), torch.randn(2, 4, 3)])


# Scaled dot-product attention, by its definition (torch 1.13 has no
# public F.scaled_dot_product_attention): softmax(q kᵀ scale + mask) v.
# Masks travel as the labels: bool masks as 0/1, additive ones as integers
# times -0.5.
def sdpa(q, k, v, mask=None, causal=False, scale=None):
    s = q @ k.transpose(-2, -1) * (scale if scale is not None else q.shape[-1] ** -0.5)
    if causal:
        s = s.masked_fill(torch.ones(q.shape[-2], k.shape[-2]).triu(1).bool(), float("-inf"))
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf")) if mask.dtype == torch.bool else s + mask
    return torch.softmax(s, -1) @ v


case("sdpa_causal", lambda q, k, v: sdpa(q, k, v, causal=True), [torch.randn(1, 2, 70, 8) for _ in range(3)])
bmask = torch.rand(67, 70) < 0.7
bmask[:, 0] = True
case("sdpa_bool_mask", lambda q, k, v, m: sdpa(q, k, v, mask=m.reshape(67, 70).bool()),
     [torch.randn(1, 67, 8), torch.randn(1, 70, 8), torch.randn(1, 70, 4)], bmask.long().reshape(-1))
amask = torch.randint(0, 6, (2, 1, 9, 9))
case("sdpa_additive32", lambda q, k, v, m: sdpa(q, k, v, mask=m.reshape(2, 1, 9, 9).float() * -0.5),
     [torch.randn(2, 2, 9, 32) for _ in range(3)], amask.reshape(-1), dtype=torch.float32)
case("sdpa_scale_e128", lambda q, k, v: sdpa(q, k, v, scale=0.3, causal=True),
     [torch.randn(1, 5, 128), torch.randn(1, 7, 128), torch.randn(1, 7, 3)])

with open("grad_fixtures.json", "w") as f:
    json.dump({"torch": torch.__version__, "cases": cases, "optim": optims}, f, indent=None, separators=(",", ":"))
    f.write("\n")
print(len(cases), "cases,", len(optims), "optimizer runs")
