#!/usr/bin/python3
"""Writes layers.safetensors: PyTorch (Debian's python3-torch) reference
outputs and gradients for the nn layer and loss tests.

Run from this directory with Debian's interpreter:

    /usr/bin/python3 gen_fixtures.py

Each case "<case>" stores its input "<case>.x", the upstream gradient
"<case>.gout" fed to backward, the layer's tensors "<case>.weight", ...,
the output "<case>.y" and the gradients "<case>.grad_x",
"<case>.grad_weight", ...
"""
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import st  # noqa: E402

torch.manual_seed(1234)
out = {}


def put(case, name, t):
    # A copy: numpy() shares memory with t, which later steps update in place.
    out[case + "." + name] = t.detach().cpu().numpy().copy()


def layer_case(case, layer, x, params=("weight", "bias"), int_input=False):
    """Randomises the layer's params, runs forward and backward with a
    random upstream gradient, and stores everything."""
    with torch.no_grad():
        for p in params:
            t = getattr(layer, p, None)
            if t is not None:
                t.copy_(torch.randn_like(t))
    if not int_input:
        x = x.clone().requires_grad_(True)
    y = layer(x)
    gout = torch.randn_like(y)
    y.backward(gout)
    put(case, "x", x)
    put(case, "gout", gout)
    put(case, "y", y)
    if not int_input:
        put(case, "grad_x", x.grad)
    for p in params:
        t = getattr(layer, p, None)
        if t is not None:
            put(case, p, t)
            put(case, "grad_" + p, t.grad)


layer_case("linear", nn.Linear(5, 3), torch.randn(4, 5))
layer_case("linear_nobias", nn.Linear(5, 3, bias=False), torch.randn(4, 5))
layer_case("linear_3d", nn.Linear(5, 3), torch.randn(2, 3, 5))
layer_case("conv", nn.Conv2d(2, 3, 3, stride=2, padding=1), torch.randn(2, 2, 7, 6))
layer_case("conv_dilated", nn.Conv2d(2, 4, (3, 2), stride=(1, 2), padding=(2, 1), dilation=(2, 1), bias=False),
           torch.randn(2, 2, 6, 7))
layer_case("conv_unbatched", nn.Conv2d(3, 2, 2), torch.randn(3, 4, 5))
layer_case("maxpool", nn.MaxPool2d(2), torch.randn(2, 3, 6, 6), params=())
layer_case("maxpool_pad", nn.MaxPool2d(3, stride=2, padding=1), torch.randn(2, 2, 7, 5), params=())
layer_case("avgpool", nn.AvgPool2d(2), torch.randn(2, 3, 6, 6), params=())
layer_case("avgpool_pad", nn.AvgPool2d(3, stride=2, padding=1), torch.randn(2, 2, 7, 5), params=())
layer_case("flatten", nn.Flatten(), torch.randn(2, 3, 2, 2), params=())
layer_case("relu", nn.ReLU(), torch.randn(3, 4), params=())
layer_case("sigmoid", nn.Sigmoid(), torch.randn(3, 4) * 3, params=())
layer_case("tanh", nn.Tanh(), torch.randn(3, 4) * 2, params=())
layer_case("gelu", nn.GELU(), torch.randn(3, 4) * 2, params=())
layer_case("layernorm", nn.LayerNorm((4, 5)), torch.randn(3, 4, 5) * 2 + 1)
layer_case("layernorm_1", nn.LayerNorm(6), torch.randn(2, 3, 6))
layer_case("embedding", nn.Embedding(10, 4), torch.tensor([[1, 3, 3], [9, 0, 1]]), params=("weight",), int_input=True)


def batchnorm_case(case, layer, shape):
    """Training step with backward, a second training step, then eval."""
    layer_case(case, layer, torch.randn(*shape) * 2 + 0.5)
    put(case, "running_mean1", layer.running_mean)
    put(case, "running_var1", layer.running_var)
    x2 = torch.randn(*shape) * 3 - 1
    with torch.no_grad():
        layer(x2)
    put(case, "x2", x2)
    put(case, "running_mean2", layer.running_mean)
    put(case, "running_var2", layer.running_var)
    layer.eval()
    x3 = torch.randn(*shape).requires_grad_(True)
    y3 = layer(x3)
    g3 = torch.randn_like(y3)
    y3.backward(g3)
    put(case, "x3", x3)
    put(case, "gout3", g3)
    put(case, "y3", y3)
    put(case, "grad_x3", x3.grad)


batchnorm_case("bn1d", nn.BatchNorm1d(4), (6, 4))
batchnorm_case("bn1d_3d", nn.BatchNorm1d(3), (4, 3, 5))
batchnorm_case("bn2d", nn.BatchNorm2d(3), (2, 3, 4, 4))


def loss_case(case, fn, a, b):
    a = a.clone().requires_grad_(True)
    loss = fn(a, b)
    loss.backward()
    put(case, "a", a)
    put(case, "b", b)
    put(case, "loss", loss)
    put(case, "grad_a", a.grad)


loss_case("cross_entropy", F.cross_entropy, torch.randn(5, 7) * 3, torch.tensor([0, 6, 3, 3, 1]))
loss_case("nll", F.nll_loss, torch.randn(5, 7).log_softmax(1), torch.tensor([2, 6, 0, 3, 1]))
loss_case("mse", F.mse_loss, torch.randn(3, 4), torch.randn(3, 4))
loss_case("bce", F.binary_cross_entropy_with_logits,
          torch.tensor([[-40.0, -3.0, -0.5, 0.25], [0.7, 2.0, 5.0, 40.0]]), torch.rand(2, 4))


def module_case(case, module, x, causal=False):
    """A module with several tensors: every state_dict entry is randomised
    (biases and norms too) and stored as "<case>.sd.<name>", its gradient
    as "<case>.grad.<name>"; eval mode, so dropout is off."""
    module.eval()
    with torch.no_grad():
        for name, t in module.state_dict().items():
            t.copy_(torch.randn_like(t) * 0.5)
    x = x.clone().requires_grad_(True)
    mask = torch.ones(x.shape[1], x.shape[1]).triu(1).bool() if causal else None
    if isinstance(module, nn.MultiheadAttention):
        y = module(x, x, x, attn_mask=mask, need_weights=False)[0]
    else:
        y = module(x, src_mask=mask)
    gout = torch.randn_like(y)
    y.backward(gout)
    put(case, "x", x)
    put(case, "gout", gout)
    put(case, "y", y)
    put(case, "grad_x", x.grad)
    for name, t in module.named_parameters():
        put(case, "sd." + name, t)
        put(case, "grad." + name, t.grad)


module_case("mha", nn.MultiheadAttention(8, 2, batch_first=True), torch.randn(2, 5, 8))
module_case("mha_causal", nn.MultiheadAttention(12, 3, batch_first=True), torch.randn(3, 7, 12), causal=True)
module_case("encoder_post_relu", nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), torch.randn(2, 6, 8))
module_case("encoder_pre_gelu_causal", nn.TransformerEncoderLayer(8, 4, 12, activation="gelu", norm_first=True,
                                                                  batch_first=True), torch.randn(2, 6, 8), causal=True)

st.save(os.path.join(os.path.dirname(os.path.abspath(__file__)), "layers.safetensors"), out,
        {"generator": "gen_fixtures.py", "torch": torch.__version__})
print("wrote", len(out), "tensors")
