package cuda

import (
	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// The 16-bit floats (BFloat16, Float16) live on the device as their bits
// (kernels/common.cuh's bf16 and f16): copies, casts and fills have
// kernels of their own, and package tensor converts them to Float32 for
// every other op, except those HalfNative names, which run on the tensor
// cores: MatMul with cuBLAS's GemmEx and, where cuDNN convolves,
// Conv2d, both summing in float32 and rounding the result once.

var (
	_ backend.HalfOps = (*deviceBackend)(nil)
	_ backend.HalfOps = (*convBackend)(nil)
)

// HalfNative reports whether op takes 16-bit storages: "MatMul".
func (b *deviceBackend) HalfNative(op string) bool { return op == "MatMul" }

// HalfNative reports whether op takes 16-bit storages: "MatMul" and
// "Conv2d" (cuDNN).
func (b *convBackend) HalfNative(op string) bool { return op == "MatMul" || op == "Conv2d" }

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

// binaryAnyFloat is Binary for float storages of any dtype: 16-bit ones
// are computed in float32 and rounded (the device's own kernels take
// Float32 and Float64 only).
func (b *deviceBackend) binaryAnyFloat(op backend.BinaryOp, x backend.Storage, xl backend.Layout, y backend.Storage, yl backend.Layout) backend.Storage {
	dt := x.DType()
	if !dt.IsHalf() {
		return b.Binary(op, x, xl, y, yl)
	}
	x32, y32 := b.Cast(x, xl, tensor.Float32), b.Cast(y, yl, tensor.Float32)
	r := b.Binary(op, x32, backend.Contiguous(xl.Shape), y32, backend.Contiguous(yl.Shape))
	out := b.Cast(r, backend.Contiguous(xl.Shape), dt)
	freeAll(b.store(x32), b.store(y32), b.store(r))
	return out
}

// reduceAnyFloat is Reduce for float storages of any dtype, as
// binaryAnyFloat.
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
