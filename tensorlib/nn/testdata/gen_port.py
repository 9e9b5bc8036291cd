#!/usr/bin/python3
"""Writes the fixtures of port_test.go: PyTorch (Debian's python3-torch
1.13) modules and losses called as a PyTorch user calls them (masks,
encoder and decoder stacks, loss options), with their outputs and
gradients.

Run from this directory with Debian's interpreter:

    /usr/bin/python3 gen_port.py

For a module case "<case>" it writes port/<case>.safetensors, the
module's state_dict under PyTorch's names (the Go test reads it with
nn.Load, which fails unless every name and shape matches), and into
port.safetensors the inputs "<case>.in.<name>", the upstream gradient
"<case>.gout", the output "<case>.y", and the gradients
"<case>.grad.in.<name>" of float inputs and "<case>.grad.<param>" of
every parameter. Extra outputs (attention weights) are "<case>.out.<name>".
"""
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import st  # noqa: E402

torch.manual_seed(34)
out = {}
os.makedirs(os.path.join(HERE, "port"), exist_ok=True)


def put(name, t):
    out[name] = t.detach().cpu().numpy().copy()


def module_case(case, module, inputs, call, extra=None):
    """Randomises every state_dict entry (biases and norms too, so that
    their gradients mean something), runs call(module, **inputs) in eval
    mode (dropout off) with grad enabled, backpropagates a random upstream
    gradient and stores everything. extra(module, **inputs) may return a
    dict of further outputs to store, computed without grad."""
    module.eval()
    with torch.no_grad():
        for t in module.state_dict().values():
            t.add_(torch.randn_like(t) * 0.3)
    sd = {k: v.detach().numpy().copy() for k, v in module.state_dict().items()}
    st.save(os.path.join(HERE, "port", case + ".safetensors"), sd, {"format": "pt"})
    ins = {}
    for k, v in inputs.items():
        if v.is_floating_point() and not k.endswith("mask"):
            v = v.clone().requires_grad_(True)
        ins[k] = v
        put(case + ".in." + k, v)
    y = call(module, **ins)
    gout = torch.randn_like(y)
    y.backward(gout)
    put(case + ".gout", gout)
    put(case + ".y", y)
    for k, v in ins.items():
        if v.requires_grad:
            put(case + ".grad.in." + k, v.grad)
    for name, p in module.named_parameters():
        if p.grad is not None:  # None: the output does not depend on p
            put(case + ".grad." + name, p.grad)
    if extra is not None:
        with torch.no_grad():
            for k, v in extra(module, **ins).items():
                put(case + ".out." + k, v)


N, L, S, E, H = 2, 5, 6, 8, 2


def bool_mask(*shape):
    """A random Bool mask, true = may not attend, that leaves every row at
    least one key (the first)."""
    m = torch.rand(*shape) < 0.4
    m[..., 0] = False
    return m


pad = torch.tensor([[False] * S, [False] * (S - 2) + [True] * 2])  # the second sequence has 2 pads
causal = torch.triu(torch.ones(L, L), 1).bool()  # as a PyTorch user writes it

# 1. The Bool-mask convention of the layers: true = may not attend.
module_case("mha_bool_masks", nn.MultiheadAttention(E, H, batch_first=True),
            {"x": torch.randn(N, S, E), "attn_mask": bool_mask(S, S), "key_padding_mask": pad},
            lambda m, x, attn_mask, key_padding_mask: m(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                                       need_weights=False)[0])
module_case("mha_cross_float", nn.MultiheadAttention(E, H, batch_first=True),
            {"q": torch.randn(N, L, E), "kv": torch.randn(N, S, E), "attn_mask": torch.randn(N * H, L, S),
             "key_padding_mask": pad},
            lambda m, q, kv, attn_mask, key_padding_mask: m(q, kv, kv, attn_mask=attn_mask,
                                                            key_padding_mask=key_padding_mask, need_weights=False)[0])
module_case("mha_float_padding", nn.MultiheadAttention(E, H, batch_first=True),
            {"x": torch.randn(N, S, E), "key_padding_mask": torch.randn(N, S)},
            lambda m, x, key_padding_mask: m(x, x, x, key_padding_mask=key_padding_mask, need_weights=False)[0])
module_case("encoder_layer_causal_pad", nn.TransformerEncoderLayer(E, H, 16, batch_first=True),
            {"x": torch.randn(N, L, E), "src_mask": causal, "src_key_padding_mask": pad[:, :L]},
            lambda m, x, src_mask, src_key_padding_mask: m(x, src_mask=src_mask,
                                                           src_key_padding_mask=src_key_padding_mask))
module_case("encoder_layer_pre_float", nn.TransformerEncoderLayer(E, 4, 12, activation="gelu", norm_first=True,
                                                                  batch_first=True),
            {"x": torch.randn(N, L, E), "src_mask": torch.randn(N * 4, L, L)},
            lambda m, x, src_mask: m(x, src_mask=src_mask))

# 2. The encoder and decoder stacks and nn.Transformer, masks passed through.
T = 4
tgt_causal = nn.Transformer.generate_square_subsequent_mask(T)  # float, -inf above the diagonal
module_case("encoder_stack", nn.TransformerEncoder(nn.TransformerEncoderLayer(E, H, 16, batch_first=True), 2,
                                                   norm=nn.LayerNorm(E)),
            {"x": torch.randn(N, L, E), "mask": causal, "src_key_padding_mask": pad[:, :L]},
            lambda m, x, mask, src_key_padding_mask: m(x, mask=mask, src_key_padding_mask=src_key_padding_mask))
module_case("decoder_layer", nn.TransformerDecoderLayer(E, H, 16, batch_first=True),
            {"tgt": torch.randn(N, T, E), "memory": torch.randn(N, S, E), "tgt_mask": tgt_causal.bool(),
             "memory_key_padding_mask": pad},
            lambda m, tgt, memory, tgt_mask, memory_key_padding_mask: m(
                tgt, memory, tgt_mask=tgt_mask, memory_key_padding_mask=memory_key_padding_mask))
module_case("decoder_layer_pre_float", nn.TransformerDecoderLayer(E, 4, 12, activation="gelu", norm_first=True,
                                                                  batch_first=True),
            {"tgt": torch.randn(N, T, E), "memory": torch.randn(N, S, E), "tgt_mask": tgt_causal,
             "memory_mask": torch.randn(N * 4, T, S), "tgt_key_padding_mask": pad[:, :T]},
            lambda m, tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask: m(
                tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask, tgt_key_padding_mask=tgt_key_padding_mask))
module_case("decoder_stack", nn.TransformerDecoder(nn.TransformerDecoderLayer(E, H, 16, batch_first=True), 2,
                                                   norm=nn.LayerNorm(E)),
            {"tgt": torch.randn(N, T, E), "memory": torch.randn(N, S, E), "tgt_mask": tgt_causal},
            lambda m, tgt, memory, tgt_mask: m(tgt, memory, tgt_mask=tgt_mask))
module_case("transformer", nn.Transformer(d_model=E, nhead=H, num_encoder_layers=2, num_decoder_layers=1,
                                          dim_feedforward=16, batch_first=True),
            {"src": torch.randn(N, S, E), "tgt": torch.randn(N, T, E), "tgt_mask": tgt_causal,
             "src_key_padding_mask": pad, "memory_key_padding_mask": pad},
            lambda m, src, tgt, tgt_mask, src_key_padding_mask, memory_key_padding_mask: m(
                src, tgt, tgt_mask=tgt_mask, src_key_padding_mask=src_key_padding_mask,
                memory_key_padding_mask=memory_key_padding_mask))
module_case("transformer_pre_gelu", nn.Transformer(d_model=E, nhead=4, num_encoder_layers=1, num_decoder_layers=2,
                                                   dim_feedforward=12, activation="gelu", norm_first=True,
                                                   batch_first=True),
            {"src": torch.randn(N, S, E), "tgt": torch.randn(N, T, E), "src_mask": bool_mask(S, S),
             "memory_mask": bool_mask(T, S)},
            lambda m, src, tgt, src_mask, memory_mask: m(src, tgt, src_mask=src_mask, memory_mask=memory_mask))



# 4. Losses as PyTorch takes them: [N, C, d1, ...], ignore_index, label
# smoothing, class weights, reductions, probability targets, pos_weight.
def loss_case(case, fn, input, target, **kw):
    """Stores "<case>.in.input" (with its gradient), "<case>.in.target",
    the tensor keyword arguments as "<case>.in.<name>", the loss and, for
    reduction="none", the upstream gradient."""
    x = input.clone().requires_grad_(True)
    put(case + ".in.input", x)
    put(case + ".in.target", target)
    for k, v in kw.items():
        if isinstance(v, torch.Tensor):
            put(case + ".in." + k, v)
    y = fn(x, target, **kw)
    gout = torch.randn_like(y)
    y.backward(gout)
    put(case + ".gout", gout)
    put(case + ".y", y)
    put(case + ".grad.in.input", x.grad)


def labels(shape, C, holes=()):
    t = torch.randint(0, C, shape)
    flat = t.view(-1)
    for i, v in holes:
        flat[i] = v
    return t


loss_case("ce_kdim", F.cross_entropy, torch.randn(2, 5, 3, 4) * 2, labels((2, 3, 4), 5, [(1, -100), (7, -100)]))
loss_case("ce_weight_ignore_smooth", F.cross_entropy, torch.randn(6, 5) * 2, labels((6,), 5, [(0, 2), (3, 2)]),
          weight=torch.rand(5) + 0.5, ignore_index=2, label_smoothing=0.1)
loss_case("ce_kdim_none_smooth", F.cross_entropy, torch.randn(2, 4, 5), labels((2, 5), 4, [(4, -100)]),
          weight=torch.rand(4) + 0.5, label_smoothing=0.2, reduction="none")
loss_case("ce_sum_ignore", F.cross_entropy, torch.randn(5, 3), labels((5,), 3, [(2, -1)]), ignore_index=-1,
          reduction="sum")
loss_case("ce_prob", F.cross_entropy, torch.randn(3, 4, 2), torch.randn(3, 4, 2).softmax(1),
          weight=torch.rand(4) + 0.5, label_smoothing=0.1)
loss_case("ce_unbatched", F.cross_entropy, torch.randn(5), torch.tensor(3))
loss_case("ce_default_pad", F.cross_entropy, torch.randn(4, 6), torch.tensor([1, -100, 5, -100]))
loss_case("nll_kdim_weight", F.nll_loss, torch.randn(2, 4, 3).log_softmax(1), labels((2, 3), 4, [(0, 1), (4, 1)]),
          weight=torch.rand(4) + 0.5, ignore_index=1)
loss_case("nll_none", F.nll_loss, torch.randn(5, 3).log_softmax(1), labels((5,), 3), reduction="none")
loss_case("bce_weights", F.binary_cross_entropy_with_logits, torch.randn(3, 4) * 3, torch.rand(3, 4),
          weight=torch.rand(3, 1), pos_weight=torch.rand(4) * 3)
loss_case("bce_none", F.binary_cross_entropy_with_logits, torch.randn(3, 4) * 3, torch.rand(3, 4), reduction="none")
loss_case("bce_sum_pos", F.binary_cross_entropy_with_logits, torch.tensor([[-40.0, -3.0, 0.5], [2.0, 5.0, 40.0]]),
          torch.rand(2, 3), pos_weight=torch.tensor([0.5, 2.0, 3.0]), reduction="sum")
loss_case("mse_sum", F.mse_loss, torch.randn(3, 4), torch.randn(3, 4), reduction="sum")
loss_case("mse_none", F.mse_loss, torch.randn(2, 3, 2), torch.randn(2, 3, 2), reduction="none")


# 5. Attention weights: averaged over heads by default, per head with
# average_attn_weights=False; the weights of every layer of a stack.
def mha_weights(m, q, kv, attn_mask, key_padding_mask):
    _, avg = m(q, kv, kv, attn_mask=attn_mask, key_padding_mask=key_padding_mask)
    _, heads = m(q, kv, kv, attn_mask=attn_mask, key_padding_mask=key_padding_mask, average_attn_weights=False)
    return {"weights": avg, "weights_heads": heads}


module_case("mha_weights", nn.MultiheadAttention(E, H, batch_first=True),
            {"q": torch.randn(N, L, E), "kv": torch.randn(N, S, E), "attn_mask": bool_mask(L, S),
             "key_padding_mask": pad},
            lambda m, q, kv, attn_mask, key_padding_mask: m(q, kv, kv, attn_mask=attn_mask,
                                                            key_padding_mask=key_padding_mask)[0],
            extra=mha_weights)
module_case("mha_weights_grad", nn.MultiheadAttention(E, H, batch_first=True),
            {"x": torch.randn(N, L, E), "attn_mask": causal},
            lambda m, x, attn_mask: m(x, x, x, attn_mask=attn_mask)[1])


def layer_weights(m, x, mask, src_key_padding_mask):
    """The self-attention weights of every layer, recomputed layer by
    layer as PyTorch's modules give no other way."""
    out = {}
    for i, layer in enumerate(m.layers):
        h = layer.norm1(x) if layer.norm_first else x
        _, out["w%d" % i] = layer.self_attn(h, h, h, attn_mask=mask, key_padding_mask=src_key_padding_mask)
        x = layer(x, src_mask=mask, src_key_padding_mask=src_key_padding_mask)
    return out


module_case("encoder_weights", nn.TransformerEncoder(nn.TransformerEncoderLayer(E, H, 16, norm_first=True,
                                                                                batch_first=True), 3),
            {"x": torch.randn(N, L, E), "mask": causal, "src_key_padding_mask": pad[:, :L]},
            lambda m, x, mask, src_key_padding_mask: m(x, mask=mask, src_key_padding_mask=src_key_padding_mask),
            extra=layer_weights)


st.save(os.path.join(HERE, "port.safetensors"), out, {"generator": "gen_port.py", "torch": torch.__version__})
print("wrote", len(out), "tensors")
