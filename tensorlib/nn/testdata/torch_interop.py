#!/usr/bin/python3
"""Exchanges a model between gotensor's nn and PyTorch through
safetensors files (read and written with struct, json and numpy: see
st.py). Run by TestSaveLoadPyTorch as

    /usr/bin/python3 torch_interop.py DIR

1. Go wrote DIR/go_model.safetensors (nn.Save of the model below) and
   DIR/go_input.safetensors ("x"). This script loads the file into the
   same PyTorch model with load_state_dict(strict=True) and writes the
   eval-mode output on x to DIR/torch_of_go.safetensors ("y").
2. It trains a freshly initialised PyTorch model for a few steps (so the
   BatchNorm running statistics move) and saves its state_dict to
   DIR/torch_model.safetensors, and an input and the eval-mode output
   to DIR/torch_io.safetensors ("x", "y"), for Go to nn.Load and compare.
"""
import os
import sys

import numpy as np
import torch
import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import st  # noqa: E402


class Block(nn.Module):
    """The user-defined module of the Go test: relu(bn(conv(x)) + x)."""

    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(c)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)) + x)


def model():
    return nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1),
        nn.BatchNorm2d(4),
        nn.ReLU(),
        nn.MaxPool2d(2),
        Block(4),
        nn.AvgPool2d(2),
        nn.Flatten(),
        nn.Dropout(0.5),
        nn.Linear(16, 8),
        nn.LayerNorm(8),
        nn.GELU(),
        nn.Linear(8, 3),
    )


def main(d):
    # Go -> PyTorch.
    m = model()
    state = {k: torch.from_numpy(v) for k, v in st.load(os.path.join(d, "go_model.safetensors")).items()}
    m.load_state_dict(state, strict=True)
    m.eval()
    x = torch.from_numpy(st.load(os.path.join(d, "go_input.safetensors"))["x"])
    with torch.no_grad():
        st.save(os.path.join(d, "torch_of_go.safetensors"), {"y": m(x).numpy()})

    # PyTorch -> Go.
    torch.manual_seed(7)
    m = model()
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    for _ in range(3):
        loss = m(torch.randn(5, 1, 8, 8)).square().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    m.eval()
    st.save(os.path.join(d, "torch_model.safetensors"),
            {k: v.numpy() for k, v in m.state_dict().items()}, {"format": "pt"})
    x = torch.randn(3, 1, 8, 8)
    with torch.no_grad():
        st.save(os.path.join(d, "torch_io.safetensors"), {"x": x.numpy(), "y": m(x).numpy()})


if __name__ == "__main__":
    main(sys.argv[1])
