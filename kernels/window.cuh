// window.cuh holds the geometry of a 2-D sliding window over [N, C, H, W],
// shared by conv.cu and pool.cu.
#pragma once

#include "common.cuh"

// Conv holds the window geometry; the Go side (cuda.packConv) writes it.
struct Conv {
  int n, c, h, w;
  int kh, kw, sh, sw;
  int ph, pw, dh, dw;
  int oh, ow;
};
