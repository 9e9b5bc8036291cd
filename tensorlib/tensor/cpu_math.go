package tensor

import "math"

// number is the element types the CPU kernels compute on.
type number interface {
	~float32 | ~float64 | ~int64
}

// float is the floating-point element types.
type float interface {
	~float32 | ~float64
}

// expf returns e**x in float32 to within about 1.5 ulp, several times
// faster than float32(math.Exp(float64(x))). With x = (64m + j)·ln2/64 + r,
// |r| <= ln2/128, e**x = 2**m · 2**(j/64) · e**r: a 64-entry table, a
// cubic for e**r, and m added to the exponent bits. Arguments outside
// [-87, 88] (where the result is near overflow or subnormal) and NaN take
// the float64 path.
func expf(x float32) float32 {
	if !(x >= -87 && x <= 88) {
		return float32(math.Exp(float64(x)))
	}
	n := (x*expK + expMagic) - expMagic
	r := x - n*expLn2Hi - n*expLn2Lo
	p := 1 + r*(1+r*(0.5+r*(1.0/6)))
	ni := int32(n)
	return math.Float32frombits(exp2Table[ni&63]+uint32(ni>>6)<<23) * p
}

// expSlice sets dst[i] = expf(src[i]) with expf's body inlined.
func expSlice(dst, src []float32) {
	dst = dst[:len(src)]
	for i, x := range src {
		if !(x >= -87 && x <= 88) {
			dst[i] = float32(math.Exp(float64(x)))
			continue
		}
		n := (x*expK + expMagic) - expMagic
		r := x - n*expLn2Hi - n*expLn2Lo
		p := 1 + r*(1+r*(0.5+r*(1.0/6)))
		ni := int32(n)
		dst[i] = math.Float32frombits(exp2Table[ni&63]+uint32(ni>>6)<<23) * p
	}
}

const (
	expK     = 92.33248261689366       // 64 / ln 2
	expLn2Hi = 0.010833740234375       // ln2/64 rounded to 9 bits, so n*expLn2Hi is exact
	expLn2Lo = -3.3155381515825866e-06 // ln2/64 - expLn2Hi
	expMagic = 12582912.0              // 1.5 * 2**23: adding it rounds to an integer
)

// exp2Table[j] holds the bits of float32(2**(j/64)).
var exp2Table = [64]uint32{
	0x3f800000, 0x3f8164d2, 0x3f82cd87, 0x3f843a29, 0x3f85aac3, 0x3f871f62, 0x3f88980f, 0x3f8a14d5,
	0x3f8b95c2, 0x3f8d1adf, 0x3f8ea43a, 0x3f9031dc, 0x3f91c3d3, 0x3f935a2b, 0x3f94f4f0, 0x3f96942d,
	0x3f9837f0, 0x3f99e046, 0x3f9b8d3a, 0x3f9d3eda, 0x3f9ef532, 0x3fa0b051, 0x3fa27043, 0x3fa43516,
	0x3fa5fed7, 0x3fa7cd94, 0x3fa9a15b, 0x3fab7a3a, 0x3fad583f, 0x3faf3b79, 0x3fb123f6, 0x3fb311c4,
	0x3fb504f3, 0x3fb6fd92, 0x3fb8fbaf, 0x3fbaff5b, 0x3fbd08a4, 0x3fbf179a, 0x3fc12c4d, 0x3fc346cd,
	0x3fc5672a, 0x3fc78d75, 0x3fc9b9be, 0x3fcbec15, 0x3fce248c, 0x3fd06334, 0x3fd2a81e, 0x3fd4f35b,
	0x3fd744fd, 0x3fd99d16, 0x3fdbfbb8, 0x3fde60f5, 0x3fe0ccdf, 0x3fe33f89, 0x3fe5b907, 0x3fe8396a,
	0x3feac0c7, 0x3fed4f30, 0x3fefe4ba, 0x3ff28177, 0x3ff5257d, 0x3ff7d0df, 0x3ffa83b3, 0x3ffd3e0c,
}

// gelu is x * Φ(x), the exact (erf) GELU PyTorch uses by default.
func gelu(x float64) float64 { return 0.5 * x * (1 + math.Erf(x/math.Sqrt2)) }

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
