package backend

import "math"

// BF16 is one bfloat16 number as its 16 bits: the upper half of a
// float32's bits (sign, 8 exponent bits, 7 mantissa bits), the range of a
// float32 with 3 significant decimal digits. Storages of dtype BFloat16
// hold these, and Backend.FromHost and ToHost exchange them as []BF16.
type BF16 uint16

// F16 is one IEEE 754 binary16 number (float16, "half") as its 16 bits:
// sign, 5 exponent bits, 10 mantissa bits; finite values lie within
// ±65504, and those below 2⁻¹⁴ in magnitude are subnormal. Storages of
// dtype Float16 hold these, exchanged with the host as []F16.
type F16 uint16

// BF16FromFloat32 rounds f to the nearest bfloat16, ties to even, as
// PyTorch's conversion does: values beyond the largest bfloat16 become
// ±Inf, NaN stays a (quiet) NaN.
func BF16FromFloat32(f float32) BF16 {
	u := math.Float32bits(f)
	if u&0x7fffffff > 0x7f800000 {
		return BF16(u>>16 | 0x0040) // NaN: keep the sign, set the quiet bit
	}
	u += 0x7fff + (u>>16)&1 // round the lower 16 bits away, ties to even
	return BF16(u >> 16)
}

// Float32 returns b as a float32, exactly.
func (b BF16) Float32() float32 { return math.Float32frombits(uint32(b) << 16) }

// F16FromFloat32 rounds f to the nearest float16, ties to even, as
// PyTorch's conversion does: magnitudes from 65520 up become ±Inf, those
// below 2⁻¹⁴ round to subnormals (2⁻²⁵ and less to ±0), NaN becomes the
// quiet NaN with f's sign.
func F16FromFloat32(f float32) F16 {
	u := math.Float32bits(f)
	sign := uint16(u>>16) & 0x8000
	a := u & 0x7fffffff
	switch {
	case a > 0x7f800000: // NaN
		return F16(sign | 0x7e00)
	case a >= 0x477ff000: // 65520 and more (Inf included) round to Inf
		return F16(sign | 0x7c00)
	case a >= 0x38800000: // 2⁻¹⁴ and more: a normal float16
		a -= 112 << 23 // rebias the exponent from 127 to 15
		a += 0xfff + (a>>13)&1
		return F16(sign | uint16(a>>13))
	case a <= 0x33000000: // 2⁻²⁵ and less: ±0 (2⁻²⁵ ties to even, 0)
		return F16(sign)
	}
	// A subnormal: the value in units of 2⁻²⁴, m·2^(e-126), rounded.
	e := a >> 23
	m := a&0x7fffff | 0x800000
	shift := 126 - e // 14..24
	q, rem, half := m>>shift, m&(1<<shift-1), uint32(1)<<(shift-1)
	if rem > half || rem == half && q&1 == 1 {
		q++ // may carry into the smallest normal, whose bits follow on
	}
	return F16(sign | uint16(q))
}

// Float32 returns h as a float32, exactly.
func (h F16) Float32() float32 {
	sign := uint32(h&0x8000) << 16
	e := uint32(h>>10) & 0x1f
	m := uint32(h & 0x3ff)
	switch {
	case e == 0x1f: // Inf, NaN
		return math.Float32frombits(sign | 0x7f800000 | m<<13)
	case e != 0:
		return math.Float32frombits(sign | (e+112)<<23 | m<<13)
	}
	v := float32(m) * (1.0 / (1 << 24)) // a subnormal (or zero), exact
	if sign != 0 {
		v = -v
	}
	return v
}
