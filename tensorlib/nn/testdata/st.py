"""Minimal safetensors reader and writer with struct, json and numpy.

The layout (huggingface/safetensors): an 8-byte little-endian header
length N, N bytes of JSON mapping each name to {"dtype", "shape",
"data_offsets": [begin, end]} (plus an optional "__metadata__"), then the
little-endian data buffer. The safetensors package is not in Debian.
"""
import json
import struct

import numpy as np

_DTYPES = {"F32": np.float32, "F64": np.float64, "I64": np.int64, "BOOL": np.bool_}
_NAMES = {np.dtype(v): k for k, v in _DTYPES.items()}


def save(path, tensors, metadata=None):
    header, blobs, off = {}, [], 0
    for name in sorted(tensors):
        a = np.asarray(tensors[name])  # not ascontiguousarray: it makes 0-d arrays 1-d
        b = a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes(order="C")
        header[name] = {"dtype": _NAMES[a.dtype], "shape": list(a.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    if metadata:
        header["__metadata__"] = metadata
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    buf = raw[8 + n :]
    out = {}
    for name, e in header.items():
        if name == "__metadata__":
            continue
        lo, hi = e["data_offsets"]
        dt = np.dtype(_DTYPES[e["dtype"]]).newbyteorder("<")
        out[name] = np.frombuffer(buf[lo:hi], dtype=dt).reshape(e["shape"]).copy()
    return out
