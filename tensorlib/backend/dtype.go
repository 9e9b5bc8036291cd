package backend

import "strconv"

// DType is the element type of a storage, and of the tensors that view it.
// Package tensor calls it tensor.DType, with the same constants.
//
// The zero value is Float32, the default dtype of every creation function.
type DType int

// The element types a storage can hold.
const (
	Float32  DType = iota // 32-bit IEEE 754 float (torch.float32), the default
	Float64               // 64-bit IEEE 754 float (torch.float64)
	Int64                 // 64-bit signed integer (torch.int64), used for labels and indices
	Bool                  // boolean (torch.bool), the result of comparisons
	BFloat16              // 16-bit brain float (torch.bfloat16): float32's range, 8 significant bits
	Float16               // 16-bit IEEE 754 float (torch.float16, half): ±65504, 11 significant bits
)

// String returns the dtype's name: "float32", "float64", "int64", "bool",
// "bfloat16" or "float16".
func (d DType) String() string {
	switch d {
	case Float32:
		return "float32"
	case Float64:
		return "float64"
	case Int64:
		return "int64"
	case Bool:
		return "bool"
	case BFloat16:
		return "bfloat16"
	case Float16:
		return "float16"
	}
	return "DType(" + strconv.Itoa(int(d)) + ")"
}

// IsFloat reports whether d is a floating-point dtype: Float32, Float64,
// BFloat16 or Float16.
func (d DType) IsFloat() bool { return d == Float32 || d == Float64 || d.IsHalf() }

// IsHalf reports whether d is one of the 16-bit floats, BFloat16 or
// Float16. Backends store them as 16 bits (BF16, F16) and compute on them
// in float32 (see Backend).
func (d DType) IsHalf() bool { return d == BFloat16 || d == Float16 }

// Size returns the number of bytes one element of d takes.
func (d DType) Size() int {
	switch d {
	case Float32:
		return 4
	case Float64, Int64:
		return 8
	case Bool:
		return 1
	case BFloat16, Float16:
		return 2
	}
	return 0
}
