package cpu

import "math"

// number is the element types the CPU kernels compute on.
type number interface {
	~float32 | ~float64 | ~int64
}

// float is the floating-point element types.
type float interface {
	~float32 | ~float64
}

// expf returns e**x in float32 to within about 1 ulp, several times
// faster than float32(math.Exp(float64(x))): x = n·ln2 + r with n an
// integer and |r| <= ln2/2 (Cody and Waite's two-part ln2, so n·ln2 is
// exact), e**r from Cephes' degree-7 polynomial and 2**n put into the
// exponent bits. No table: the C loop (simd_cgo.go) computes the same
// operations in vector registers, with identical results. Arguments
// outside [-87, 88] (where the result is near overflow or subnormal) and
// NaN take the float64 path.
func expf(x float32) float32 {
	if !(x >= -87 && x <= 88) {
		return float32(math.Exp(float64(x)))
	}
	return expfCore(x)
}

// expfCore is expf for x in [-87, 88]. The conversions keep every
// operation rounded to float32, in this order, on every architecture.
func expfCore(x float32) float32 {
	n := float32(x*expLog2e+expMagic) - expMagic
	r := float32(x-float32(n*expLn2Hi)) - float32(n*expLn2Lo)
	p := float32(expP0*r) + expP1
	p = float32(p*r) + expP2
	p = float32(p*r) + expP3
	p = float32(p*r) + expP4
	p = float32(p*r) + expP5
	p = float32(float32(p*float32(r*r))+r) + 1
	return p * math.Float32frombits(uint32(int32(n)+127)<<23)
}

// expSlice sets dst[i] = expf(src[i]).
func expSlice(dst, src []float32) {
	dst = dst[:len(src)]
	for i, x := range src {
		if !(x >= -87 && x <= 88) {
			dst[i] = float32(math.Exp(float64(x)))
			continue
		}
		dst[i] = expfCore(x)
	}
}

// sigmoidSlice sets dst[i] = 1 / (1 + expf(-src[i])).
func sigmoidSlice(dst, src []float32) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = 1 / (1 + expf(-v))
	}
}

// tanhf returns tanh(x) in float32 to within about 2 ulp, as Cephes'
// tanhf: an odd polynomial below 0.625 in magnitude, 1 - 2/(e^2|x| + 1)
// above (|x| clamped to 10, where the result rounds to 1 already).
func tanhf(x float32) float32 {
	z := float32(math.Abs(float64(x)))
	if z >= 0.625 {
		z = min(z, 10)
		r := 1 - 2/(expfCore(z+z)+1)
		if x < 0 {
			r = -r
		}
		return r
	}
	if x == 0 {
		return x // keeps -0
	}
	s := x * x
	p := float32(tanhP0*s) + tanhP1
	p = float32(p*s) + tanhP2
	p = float32(p*s) + tanhP3
	p = float32(p*s) + tanhP4
	return float32(float32(p*s)*x) + x
}

// tanhSlice sets dst[i] = tanhf(src[i]).
func tanhSlice(dst, src []float32) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = tanhf(v)
	}
}

// tanhf's polynomial (Cephes).
const (
	tanhP0 = -5.70498872745e-3
	tanhP1 = 2.06390887954e-2
	tanhP2 = -5.37397155531e-2
	tanhP3 = 1.33314422036e-1
	tanhP4 = -3.33332819422e-1
)

// expf's constants. expLn2Hi has 9 significant bits, so n*expLn2Hi is
// exact for the n that occur.
const (
	expLog2e = 1.44269504088896341
	expLn2Hi = 0.693359375
	expLn2Lo = -2.12194440e-4
	expMagic = 12582912.0 // 1.5 * 2**23: adding it rounds to an integer
	expP0    = 1.9875691500e-4
	expP1    = 1.3981999507e-3
	expP2    = 8.3334519073e-3
	expP3    = 4.1665795894e-2
	expP4    = 1.6666665459e-1
	expP5    = 5.0000001201e-1
)

// gelu is x * Φ(x), the exact (erf) GELU PyTorch uses by default.
func gelu(x float64) float64 { return 0.5 * x * (1 + math.Erf(x/math.Sqrt2)) }

// geluGrad is g times the derivative of gelu at x, Φ(x) + x φ(x).
func geluGrad(g, x float64) float64 {
	return g * (0.5*(1+math.Erf(x/math.Sqrt2)) + x*math.Exp(-0.5*x*x)/math.Sqrt(2*math.Pi))
}

func sigmoid64(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// ipow returns x**y for integers, with PyTorch's results for negative y:
// 1**y = 1, (-1)**y = ±1, and 0 otherwise.
func ipow(x, y int64) int64 {
	if y < 0 {
		switch x {
		case 1:
			return 1
		case -1:
			if y%2 == 0 {
				return 1
			}
			return -1
		}
		return 0
	}
	r := int64(1)
	for y > 0 {
		if y&1 == 1 {
			r *= x
		}
		x *= x
		y >>= 1
	}
	return r
}
