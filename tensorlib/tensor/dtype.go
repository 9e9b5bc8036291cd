package tensor

import "github.com/gotensor/gotensor/tensorlib/backend"

// DType is the element type of a tensor: Float32 (the default), Float64,
// Int64, Bool, and the 16-bit floats BFloat16 and Float16. x.DType()
// returns it; x.AsType(dt) converts. It prints as PyTorch names it
// ("float32", "bfloat16"), has Size (bytes per element), IsFloat and
// IsHalf.
//
// The 16-bit floats halve the memory of Float32 and run on a GPU's tensor
// cores (MatMul, Conv2d, attention); they are what Autocast computes in.
// Every op takes them and computes as PyTorch's CPU does: in float32,
// with the result rounded to nearest (ties to even). Conversions to them
// go through float32 (a Float64 value is rounded twice, as in PyTorch).
//
// The type is the backend contract's (backend.DType), so that backends
// allocate and convert in the same terms.
type DType = backend.DType

// The element types a tensor can hold.
const (
	Float32  = backend.Float32  // 32-bit IEEE 754 float (torch.float32), the default
	Float64  = backend.Float64  // 64-bit IEEE 754 float (torch.float64)
	Int64    = backend.Int64    // 64-bit signed integer (torch.int64), used for labels and indices
	Bool     = backend.Bool     // boolean (torch.bool), the result of comparisons
	BFloat16 = backend.BFloat16 // 16-bit brain float (torch.bfloat16): float32's range, 8 significant bits
	Float16  = backend.Float16  // 16-bit IEEE 754 float (torch.float16): at most 65504, 11 significant bits
)

// validDType reports whether d is one of the six dtypes.
func validDType(d DType) bool { return d >= Float32 && d <= Float16 }

// PromoteTypes returns the dtype PyTorch gives the result of a binary
// arithmetic op on operands of dtypes a and b: the "larger" category wins
// (Bool < Int64 < floats), and within floats the wider one:
// Int64+Float32 → Float32, Bool+Int64 → Int64, Float32+Float64 → Float64,
// BFloat16+Float32 → Float32, Int64+BFloat16 → BFloat16, and
// BFloat16+Float16 → Float32 (neither holds the other).
func PromoteTypes(a, b DType) DType {
	if a == b {
		return a
	}
	if a.IsHalf() && b.IsHalf() {
		return Float32
	}
	rank := func(d DType) int {
		switch d {
		case Bool:
			return 0
		case Int64:
			return 1
		case BFloat16, Float16:
			return 2
		case Float32:
			return 3
		}
		return 4
	}
	if rank(a) >= rank(b) {
		return a
	}
	return b
}

// scalarResultType returns the dtype of an op between a tensor of dtype d
// and the Go scalar s, following PyTorch's rule that a Python scalar never
// widens a tensor of the same category: a float tensor keeps its dtype, an
// integer or bool tensor combined with a whole number becomes Int64, and
// with a fractional number Float32.
func scalarResultType(d DType, s float64) DType {
	if d.IsFloat() {
		return d
	}
	if s == float64(int64(s)) {
		return Int64
	}
	return Float32
}
