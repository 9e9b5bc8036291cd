#!/usr/bin/python3
"""Writes the .npy and .safetensors fixtures that data's tests read.

Run from this directory with Debian's /usr/bin/python3 (numpy 1.24):

    /usr/bin/python3 make_fixtures.py

Every array is a simple formula of np.arange so that the Go tests can state
the expected values independently. The safetensors file is written with
struct + json + numpy following the documented layout
(https://github.com/huggingface/safetensors#format), since the safetensors
Python package is not packaged in Debian.
"""
import json
import struct

import numpy as np
import numpy.lib.format as fmt


def arange(shape, dtype):
    return np.arange(int(np.prod(shape))).reshape(shape).astype(dtype)


# .npy, written by np.save (version 1.0, C order).
np.save("f4_2x3.npy", arange((2, 3), np.float32) / 4)  # i/4
np.save("f8_2x3x4.npy", arange((2, 3, 4), np.float64) * 0.5 - 3)  # i*0.5-3
np.save("i8_5.npy", arange((5,), np.int64) * -7)  # -7i
np.save("b1_2x2.npy", arange((2, 2), np.int64) % 3 == 0)  # i%3==0
np.save("f4_scalar.npy", np.float32(2.5))  # 0-d
np.save("f4_0x3.npy", np.zeros((0, 3), np.float32))  # empty
# Fortran order: the element at [i, j] is 10*i + j.
np.save("f8_fortran_3x4.npy", np.asfortranarray(
    np.fromfunction(lambda i, j: 10 * i + j, (3, 4), dtype=np.float64)))
# Big-endian and small integer types, converted on load.
np.save("f4be_4.npy", (arange((4,), np.float32) + 1).astype(">f4"))  # i+1
np.save("i4_2x2.npy", arange((2, 2), np.int32) - 2)  # i-2
np.save("u1_3.npy", np.array([0, 128, 255], np.uint8))
np.save("f2_3.npy", np.array([1.5, -0.25, 65504], np.float16))
# Version 2.0 header, forced.
with open("f4_v2_2x2.npy", "wb") as f:
    a = arange((2, 2), np.float32) + 10  # i+10
    fmt.write_array_header_2_0(f, fmt.header_data_from_array_1_0(a))
    f.write(a.tobytes())


# Version 3.0 header (UTF-8), as np.save writes when a field name needs it.
with open("f8_v3_3.npy", "wb") as f:
    fmt.write_array(f, arange((3,), np.float64) * 2, version=(3, 0))  # 2i


# safetensors, by the documented layout.
def save_safetensors(path, tensors, metadata=None):
    codes = {np.dtype("float32"): "F32", np.dtype("float64"): "F64",
             np.dtype("int64"): "I64", np.dtype("bool"): "BOOL",
             np.dtype("float16"): "F16", np.dtype("int32"): "I32",
             np.dtype("uint8"): "U8"}
    header, chunks, off = {}, [], 0
    if metadata:
        header["__metadata__"] = metadata
    # Largest alignment first, then by name, as the reference writer does.
    names = sorted(tensors, key=lambda n: (-tensors[n].dtype.itemsize, n))
    for name in names:
        a = np.array(tensors[name], order="C")  # ascontiguousarray makes 0-d 1-d
        b = a.astype(a.dtype.newbyteorder("<")).tobytes()
        header[name] = {"dtype": codes[a.dtype], "shape": list(a.shape),
                        "data_offsets": [off, off + len(b)]}
        chunks.append(b)
        off += len(b)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for c in chunks:
            f.write(c)


save_safetensors("model.safetensors", {
    "0.weight": arange((3, 2), np.float32) / 8,  # i/8
    "0.bias": np.array([-1, 0, 1], np.float32),
    "steps": np.array(7, np.int64),  # 0-d
    "mask": np.array([True, False, True]),
    "double": arange((2, 2), np.float64) - 0.5,  # i-0.5
    "half": np.array([0.5, -2, 1024], np.float16),
    "int32": np.array([-3, 4], np.int32),
    "bytes": np.array([1, 255], np.uint8),
}, {"format": "pt", "note": "made by make_fixtures.py"})
