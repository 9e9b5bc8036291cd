package tensor

// DType is the element type of a tensor.
//
// The zero value is Float32, the default dtype of every creation function.
type DType int

// The element types a tensor can hold.
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
	return "DType(" + itoa(int(d)) + ")"
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

func (d DType) valid() bool { return d >= Float32 && d <= Bool }

// PromoteTypes returns the dtype PyTorch gives the result of a binary
// arithmetic op on operands of dtypes a and b: the "larger" category wins
// (Bool < Int64 < floats), and within floats the wider one:
// Int64+Float32 → Float32, Bool+Int64 → Int64, Float32+Float64 → Float64.
func PromoteTypes(a, b DType) DType {
	if a == b {
		return a
	}
	rank := func(d DType) int {
		switch d {
		case Bool:
			return 0
		case Int64:
			return 1
		case Float32:
			return 2
		}
		return 3
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

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [24]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
