#!/usr/bin/python3
"""mnist_torch: the PyTorch side of bench/mnist.

Trains one of the bench's MNIST models (--model) with PyTorch (Debian's python3-torch on the
CPU, or a CUDA build of PyTorch with --device cuda:0, the data held on the
device and each epoch ending with torch.cuda.synchronize) and prints one
JSON object with the time of each epoch and the test accuracy after each.
bench/mnist (Go) runs it once per CPU thread count, or once on the GPU; it
can also be run alone:

    /usr/bin/python3 bench/mnist/mnist_torch.py --dir ~/.cache/gotensor/mnist --threads 1

The data are the same IDX files gotensor reads, loaded with NumPy and
scaled to [0, 1] the way data.LoadMNIST does; the model, the optimizer,
the batch size and the epoch loop (shuffle, forward, cross-entropy,
zero_grad, backward, step) are the Go side's.
"""

import argparse
import gzip
import json
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn


def read_idx(dir, name):
    """Reads one IDX file (raw or .gz) into a NumPy array."""
    dotted = name[:-len("-idx3-ubyte")] + "." + name[-len("idx3-ubyte"):]
    for base in (name, name + ".gz", dotted, dotted + ".gz"):
        path = os.path.join(dir, base)
        if os.path.exists(path):
            opener = gzip.open if path.endswith(".gz") else open
            with opener(path, "rb") as f:
                b = f.read()
            ndim = b[3]
            dims = [int.from_bytes(b[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim)]
            return np.frombuffer(b, dtype=np.uint8, offset=4 + 4 * ndim).reshape(dims)
    sys.exit("mnist_torch: %s not found in %s; fetch MNIST with `go run ./cmd/gotensor data mnist`" % (name, dir))


def load(dir, split, device):
    x = read_idx(dir, split + "-images-idx3-ubyte")
    y = read_idx(dir, split + "-labels-idx1-ubyte")
    x = torch.from_numpy(x.astype(np.float32) / 255.0).reshape(-1, 1, 28, 28)
    return x.to(device), torch.from_numpy(y.astype(np.int64)).to(device)


def mlp():
    """784-256-10 with ReLU, PyTorch's default init."""
    return nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))


def cnn():
    """Two 5×5 convolutions (1→16, 16→32) with ReLU and 2×2 max-pooling, then 512-128-10."""
    return nn.Sequential(
        nn.Conv2d(1, 16, 5), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 5), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(512, 128), nn.ReLU(), nn.Linear(128, 10))


def cnn_bn():
    """notebooks/mnist.ipynb's CNN: convolutions 1→8 and 8→16 with batch norm, then 256-64-10."""
    return nn.Sequential(
        nn.Conv2d(1, 8, 5), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 5), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(256, 64), nn.ReLU(), nn.Linear(64, 10))


MODELS = {"mlp": mlp, "cnn": cnn, "cnn-bn": cnn_bn}


def accuracy(m, x, y):
    m.eval()
    with torch.no_grad():
        correct = 0
        for i in range(0, len(x), 1000):
            correct += (m(x[i:i + 1000]).argmax(1) == y[i:i + 1000]).sum().item()
    m.train()
    return correct / len(x)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default=os.path.expanduser("~/.cache/gotensor/mnist"))
    ap.add_argument("--threads", type=int, default=1, help="CPU threads (torch.set_num_threads)")
    ap.add_argument("--device", default="cpu", help="cpu, or cuda:N with a CUDA build of PyTorch")
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--model", default="mlp", choices=sorted(MODELS))
    a = ap.parse_args()

    if a.device.startswith("cuda") and not torch.cuda.is_available():
        sys.exit("mnist_torch: this PyTorch (%s) sees no CUDA device" % torch.__version__)
    dev = torch.device(a.device)
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    xtr, ytr = load(a.dir, "train", dev)
    xte, yte = load(a.dir, "t10k", dev)
    m = MODELS[a.model]().to(dev)
    opt = torch.optim.Adam(m.parameters(), lr=a.lr)
    loss_fn = nn.CrossEntropyLoss()
    n = len(xtr)
    epoch_s, acc = [], []
    for _ in range(a.epochs):
        t0 = time.perf_counter()
        perm = torch.randperm(n, device=dev)
        for i in range(0, n, a.batch):
            idx = perm[i:i + a.batch]
            loss = loss_fn(m(xtr[idx]), ytr[idx])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        if dev.type == "cuda":
            torch.cuda.synchronize(dev)
        epoch_s.append(time.perf_counter() - t0)
        acc.append(accuracy(m, xte, yte))
    print(json.dumps(dict(
        torch=torch.__version__, threads=torch.get_num_threads(), device=str(dev), model=a.model,
        epoch_seconds=epoch_s, accuracy=acc)))


if __name__ == "__main__":
    main()
