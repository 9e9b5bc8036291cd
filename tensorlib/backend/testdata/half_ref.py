"""half_ref.py writes PyTorch's conversions between float32 and the 16-bit
floats, for TestHalfAgainstPyTorch: run as half_ref.py DIR with Debian's
/usr/bin/python3 (python3-torch). Files in DIR, raw little-endian:

  bf16_to_f32.bin, f16_to_f32.bin: uint32 bits of every 16-bit pattern, in order
  f32.bin: uint32 bits of float32 inputs (every upper half with low halves
           around the bfloat16 and float16 rounding points)
  f32_to_bf16.bin, f32_to_f16.bin: uint16 bits of their conversions
  f64.bin, f64_to_bf16.bin, f64_to_f16.bin: float64 inputs and conversions
"""
import os
import sys

import numpy as np
import torch

out = sys.argv[1]
every = np.arange(1 << 16, dtype=np.uint16).view(np.int16)
for name, dt in (("bf16", torch.bfloat16), ("f16", torch.float16)):
    f = torch.from_numpy(every.copy()).view(dt).float().numpy()
    f.view(np.uint32).tofile(os.path.join(out, name + "_to_f32.bin"))

lows = [0x0000, 0x0001, 0x7FFF, 0x8000, 0x8001, 0xFFFF]
lows += [k << 13 | t for k in range(8) for t in (0, 1, 0x0FFF, 0x1000, 0x1001, 0x1FFF)]
hi = np.arange(1 << 16, dtype=np.uint32) << 16
bits = (hi[:, None] | np.array(lows, dtype=np.uint32)[None, :]).ravel()
bits.tofile(os.path.join(out, "f32.bin"))
x = torch.from_numpy(bits.view(np.float32))
x.bfloat16().view(torch.int16).numpy().tofile(os.path.join(out, "f32_to_bf16.bin"))
x.half().view(torch.int16).numpy().tofile(os.path.join(out, "f32_to_f16.bin"))

# float64 values between float32 neighbours: converted through float32.
rng = np.random.default_rng(0)
d = rng.standard_normal(1 << 16) * np.exp2(rng.integers(-30, 30, 1 << 16))
d = np.concatenate([d, 1 + np.exp2(-8.0) + np.exp2(-30.0) * np.arange(-4, 5), [1e300, -1e-300, 65519.9, 65520.0]])
d.tofile(os.path.join(out, "f64.bin"))
t = torch.from_numpy(d)
t.bfloat16().view(torch.int16).numpy().tofile(os.path.join(out, "f64_to_bf16.bin"))
t.half().view(torch.int16).numpy().tofile(os.path.join(out, "f64_to_f16.bin"))
