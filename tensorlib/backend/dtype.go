package backend

import "strconv"

// DType is the element type of a storage, and of the tensors that view it.
// Package tensor calls it tensor.DType, with the same constants.
//
// The zero value is Float32, the default dtype of every creation function.
type DType int

// The element types a storage can hold.
const (
	Float32 DType = iota // 32-bit IEEE 754 float (torch.float32), the default
	Float64              // 64-bit IEEE 754 float (torch.float64)
	Int64                // 64-bit signed integer (torch.int64), used for labels and indices
	Bool                 // boolean (torch.bool), the result of comparisons
)

// String returns the dtype's name: "float32", "float64", "int64" or "bool".
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
	}
	return "DType(" + strconv.Itoa(int(d)) + ")"
}

// IsFloat reports whether d is Float32 or Float64.
func (d DType) IsFloat() bool { return d == Float32 || d == Float64 }

// Size returns the number of bytes one element of d takes.
func (d DType) Size() int {
	switch d {
	case Float32:
		return 4
	case Float64, Int64:
		return 8
	case Bool:
		return 1
	}
	return 0
}
