//go:build !cgo || !amd64

// This file must stay in sync with simd_cgo.go.

package cpu

import "github.com/gotensor/gotensor/tensorlib/backend"

// Without cgo (or off amd64) there are no vectorized C loops: every
// simd function reports false and the caller runs its Go loop.

// simdMin is the shortest run the callers hand to the simd functions.
const simdMin = 256

func simdBinary[T number](op backend.BinaryOp, d, a []T, as int, b []T, bs int) bool { return false }

func simdExpF32(dst, src []float32) bool { return false }

func simdReluF32(dst, src []float32) bool { return false }

func simdSigmoidF32(dst, src []float32) bool { return false }

func simdTanhF32(dst, src []float32) bool { return false }

func simdReluGradF32(d, g, y []float32) bool { return false }

func simdAdamF32(p, g, m, v []float32, b1, b2, eps, wd float32, l2 bool, stepSize, invBc2s float32) bool {
	return false
}

func simdSumF32(x []float32) (float32, bool) { return 0, false }

func simdAccRows4F32(acc []float64, r0, r1, r2, r3 []float32) bool { return false }

func simdExtremumF32(x []float32, min bool) (float32, bool) { return 0, false }

func simdMaxPool2F32(out []float32, idx []int64, x []float32, g backend.Window, lo, hi int) bool {
	return false
}

func simdCompareScalarF32(op backend.CompareOp, d []bool, a []float32, s float32) bool { return false }

func simdWhereF32(d []float32, c []bool, a []float32, sa int, b []float32, sb int) bool { return false }

func simdIm2colF32(cols, x []float32, g backend.Window) bool { return false }

func simdCol2imF32(x, cols []float32, g backend.Window) bool { return false }

func simdShiftedSumsF32(x []float32, shift float64) (s1, s2 float64, ok bool) { return 0, 0, false }

func simdRowSumsF32(out []float64, x []float32, n int) bool { return false }

func simdGradSumsF32(g, x []float32, mean float64) (sg, sgx float64, ok bool) { return 0, 0, false }

func simdNormF32(y, x []float32, mean, scale, shift float32) bool { return false }

func simdNormGradF32(gx, g, x []float32, mean, a, k, k0 float32) bool { return false }
