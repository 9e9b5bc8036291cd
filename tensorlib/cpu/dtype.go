package cpu

import "github.com/gotensor/gotensor/tensorlib/backend"

// DType is the backend contract's element type, named here as package
// tensor names it.
type DType = backend.DType

// The element types, as in package tensor.
const (
	Float32  = backend.Float32
	Float64  = backend.Float64
	Int64    = backend.Int64
	Bool     = backend.Bool
	BFloat16 = backend.BFloat16
	Float16  = backend.Float16
)
