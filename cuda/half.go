package cuda

import (
	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// The 16-bit floats (BFloat16, Float16) live on the device as their bits
// (kernels/common.cuh's bf16 and f16): copies, casts and fills have
// kernels of their own, and so have the elementwise ops (Unary, Binary,
// BinaryScalar: load as float, compute, store rounded, one pass as for
// Float32). MatMul runs on the tensor cores with cuBLAS's GemmEx and,
// where cuDNN convolves, so does Conv2d, both summing in float32 and
// rounding the result once. Package tensor converts 16-bit operands to
// Float32 for every other op (HalfNative says which are native).

var (
	_ backend.HalfOps = (*deviceBackend)(nil)
	_ backend.HalfOps = (*convBackend)(nil)
)

// HalfNative reports whether op takes 16-bit storages: "MatMul",
// "Unary", "Binary" and "BinaryScalar".
func (b *deviceBackend) HalfNative(op string) bool {
	switch op {
	case "MatMul", "Unary", "Binary", "BinaryScalar":
		return true
	}
	return false
}

// HalfNative reports whether op takes 16-bit storages: those of
// deviceBackend, and "Conv2d" (cuDNN).
func (b *convBackend) HalfNative(op string) bool {
	return op == "Conv2d" || b.deviceBackend.HalfNative(op)
}

// halfOf returns the GEMM and convolution operand type of dt.
func halfOf(dt tensor.DType) driver.Half {
	switch dt {
	case tensor.BFloat16:
		return driver.BF16
	case tensor.Float16:
		return driver.F16
	}
	return driver.NotHalf
}

// tf32 reports whether Float32 GEMMs and convolutions of dtype dt may use
// TF32 (tensor.SetFloat32MatmulPrecision).
func tf32(dt tensor.DType) bool {
	return dt == tensor.Float32 && backend.Float32Precision() != backend.Highest
}

// reduceAnyFloat is Reduce for float storages of any dtype: 16-bit ones
// are summed in float32 and the result rounded (the device's reduction
// kernels take Float32 and Float64 only).
func (b *deviceBackend) reduceAnyFloat(op backend.ReduceOp, s backend.Storage, l backend.Layout, dims []int) backend.Storage {
	dt := s.DType()
	if !dt.IsHalf() {
		return b.Reduce(op, s, l, dims)
	}
	s32 := b.Cast(s, l, tensor.Float32)
	r := b.Reduce(op, s32, backend.Contiguous(l.Shape), dims)
	out := b.Cast(r, backend.Contiguous([]int{r.Len()}), dt)
	freeAll(b.store(s32), b.store(r))
	return out
}
