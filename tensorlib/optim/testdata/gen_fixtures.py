#!/usr/bin/python3
"""Generate fixtures.json for the optim tests with PyTorch.

Run with Debian's python3-torch (torch 1.13):

    /usr/bin/python3 tensorlib/optim/testdata/gen_fixtures.py

Every case trains the same tiny linear regression,
loss = mean((X @ W.T + b - Y)**2), for 10 steps from the same start with
one optimizer configuration (and optionally a learning-rate schedule, a
gradient-norm clip, or a learning-rate change half way) and records the
final W and b, the learning rate after each step and the clipped norms.
The Go test replays each case with the optim package and compares.
"""

import json
import math
import os

import torch

torch.manual_seed(1234)
X = torch.randn(8, 4, dtype=torch.float64)
W_true = torch.randn(3, 4, dtype=torch.float64)
Y = X @ W_true.T + 0.1 * torch.randn(8, 3, dtype=torch.float64)
W0 = torch.randn(3, 4, dtype=torch.float64)
b0 = torch.randn(3, dtype=torch.float64)

STEPS = 10

CASES = [
    dict(name="sgd", opt="sgd", lr=0.1),
    dict(name="sgd_momentum", opt="sgd", lr=0.05, momentum=0.9),
    dict(name="sgd_dampening", opt="sgd", lr=0.05, momentum=0.9, dampening=0.3),
    dict(name="sgd_nesterov", opt="sgd", lr=0.05, momentum=0.9, nesterov=True),
    dict(name="sgd_weight_decay", opt="sgd", lr=0.1, weight_decay=0.05),
    dict(name="sgd_momentum_weight_decay", opt="sgd", lr=0.05, momentum=0.8,
         dampening=0.2, weight_decay=0.1),
    dict(name="sgd_nesterov_weight_decay", opt="sgd", lr=0.05, momentum=0.9,
         nesterov=True, weight_decay=0.01),
    dict(name="adam", opt="adam", lr=0.01),
    dict(name="adam_betas_eps", opt="adam", lr=0.02, betas=[0.8, 0.95], eps=1e-6),
    dict(name="adam_weight_decay", opt="adam", lr=0.01, weight_decay=0.1),
    dict(name="adamw", opt="adamw", lr=0.01),
    dict(name="adamw_weight_decay", opt="adamw", lr=0.02, betas=[0.85, 0.99],
         weight_decay=0.1),
    # b takes no part in the loss on odd steps: its grad stays None, torch
    # skips it and its Adam step count falls behind W's.
    dict(name="adam_skip", opt="adam", lr=0.05, skip_b_odd=True),
    dict(name="sgd_momentum_skip", opt="sgd", lr=0.05, momentum=0.9, skip_b_odd=True),
    dict(name="sgd_set_lr", opt="sgd", lr=0.1, momentum=0.5, set_lr=[5, 0.01]),
    dict(name="step_lr", opt="sgd", lr=0.1, momentum=0.9,
         schedule=dict(kind="step", step_size=3, gamma=0.5)),
    dict(name="cosine_lr", opt="adam", lr=0.05,
         schedule=dict(kind="cosine", t_max=4, eta_min=0.001)),
    dict(name="clip_grad_norm", opt="sgd", lr=0.1, clip=0.5),
]


def make_opt(c, params):
    kw = {}
    for k in ("momentum", "dampening", "nesterov", "weight_decay", "eps"):
        if k in c:
            kw[k] = c[k]
    if "betas" in c:
        kw["betas"] = tuple(c["betas"])
    if c["opt"] == "sgd":
        return torch.optim.SGD(params, lr=c["lr"], **kw)
    if c["opt"] == "adam":
        return torch.optim.Adam(params, lr=c["lr"], **kw)
    if c["opt"] == "adamw":
        return torch.optim.AdamW(params, lr=c["lr"], **kw)
    raise ValueError(c["opt"])


def run(c):
    W = W0.clone().requires_grad_(True)
    b = b0.clone().requires_grad_(True)
    opt = make_opt(c, [W, b])
    sched = None
    s = c.get("schedule")
    if s and s["kind"] == "step":
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=s["step_size"], gamma=s["gamma"])
    elif s and s["kind"] == "cosine":
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=s["t_max"], eta_min=s["eta_min"])
    lrs, norms = [], []
    for step in range(STEPS):
        if "set_lr" in c and step == c["set_lr"][0]:
            for g in opt.param_groups:
                g["lr"] = c["set_lr"][1]
        opt.zero_grad(set_to_none=True)
        if c.get("skip_b_odd") and step % 2 == 1:
            out = X @ W.T
        else:
            out = X @ W.T + b
        loss = ((out - Y) ** 2).mean()
        loss.backward()
        if "clip" in c:
            norms.append(float(torch.nn.utils.clip_grad_norm_([W, b], c["clip"])))
        opt.step()
        if sched is not None:
            sched.step()
        lrs.append(opt.param_groups[0]["lr"])
    out = dict(c)
    out.update(W=W.detach().tolist(), b=b.detach().tolist(), lrs=lrs)
    if norms:
        out["norms"] = norms
    return out


def main():
    fixtures = dict(
        torch_version=torch.__version__,
        steps=STEPS,
        X=X.tolist(), Y=Y.tolist(), W0=W0.tolist(), b0=b0.tolist(),
        cases=[run(c) for c in CASES],
    )
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures.json")
    with open(path, "w") as f:
        json.dump(fixtures, f, indent=1)
        f.write("\n")
    print("wrote", path, len(fixtures["cases"]), "cases")


if __name__ == "__main__":
    main()
