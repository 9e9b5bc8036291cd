package backend

import "sync/atomic"

// A Precision is how float32 matrix products and convolutions may be
// computed on hardware that has a faster, less precise mode (a GPU's TF32
// tensor cores), as torch.set_float32_matmul_precision sets it.
type Precision int32

// The precisions, PyTorch's names in the comments.
const (
	Highest Precision = iota // "highest": float32 throughout (the default)
	High                     // "high": TF32 (10-bit mantissa inputs, float32 sums) where the device has it
	Medium                   // "medium": as High here (PyTorch may use bfloat16 inputs on some devices)
)

var float32Precision atomic.Int32

// SetFloat32Precision sets the precision backends use for Float32 GEMMs
// and convolutions from now on, process wide. Package tensor's
// SetFloat32MatmulPrecision calls it.
func SetFloat32Precision(p Precision) { float32Precision.Store(int32(p)) }

// Float32Precision returns the precision set by SetFloat32Precision,
// Highest until then. A backend reads it at each GEMM or convolution.
func Float32Precision() Precision { return Precision(float32Precision.Load()) }
