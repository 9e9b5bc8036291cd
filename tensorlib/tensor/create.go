package tensor

import (
	"math"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// checkShape panics with a ShapeError naming op when a size is negative.
func checkShape(op string, shape []int) []int {
	for _, s := range shape {
		if s < 0 {
			panic(shapeErr(op, "sizes must be >= 0", [][]int{cloneInts(shape)}, "negative size %d in shape %v", s, shape))
		}
	}
	return cloneInts(shape)
}

func filled(op string, dt DType, v float64, shape []int) *Tensor {
	shape = checkShape(op, shape)
	b := cpuEngine
	s := b.Alloc(dt, backend.Numel(shape))
	if v != 0 {
		b.Fill(s, backend.Contiguous(shape), v)
	}
	return newTensor(b, s, shape)
}

// Zeros returns a Float32 tensor of the given shape filled with 0, on the
// CPU. With no sizes it returns a 0-d tensor.
//
//	tensor.Zeros(2, 3) // tensor([[0., 0., 0.], [0., 0., 0.]])
func Zeros(shape ...int) *Tensor { return filled("Zeros", Float32, 0, shape) }

// Ones returns a Float32 tensor of the given shape filled with 1, on the CPU.
func Ones(shape ...int) *Tensor { return filled("Ones", Float32, 1, shape) }

// Full returns a Float32 tensor of the given shape filled with v, on the CPU.
//
//	tensor.Full(0.5, 2) // tensor([0.5000, 0.5000])
func Full(v float64, shape ...int) *Tensor { return filled("Full", Float32, v, shape) }

// ZerosLike returns zeros with x's shape, dtype and device.
func ZerosLike(x *Tensor) *Tensor { return FullLike(x, 0) }

// OnesLike returns ones with x's shape, dtype and device.
func OnesLike(x *Tensor) *Tensor { return FullLike(x, 1) }

// FullLike returns a tensor with x's shape, dtype and device filled with v.
func FullLike(x *Tensor, v float64) *Tensor {
	shape := x.Shape()
	s := x.backend.Alloc(x.DType(), backend.Numel(shape))
	if v != 0 {
		x.backend.Fill(s, backend.Contiguous(shape), v)
	}
	return newTensor(x.backend, s, shape)
}

// Arange returns the 1-D Float32 tensor start, start+step, ... up to but
// excluding end, like torch.arange. It panics with a *ShapeError when step
// is 0 or has the wrong sign for the range.
//
//	tensor.Arange(0, 5, 1) // tensor([0., 1., 2., 3., 4.])
func Arange(start, end, step float64) *Tensor {
	n := arangeLen(start, end, step)
	return newTensor(cpuEngine, cpuEngine.Arange(Float32, n, start, step), []int{n})
}

func arangeLen(start, end, step float64) int {
	if step == 0 || math.IsNaN(step) || math.IsInf(start, 0) || math.IsInf(end, 0) || math.IsNaN(start) || math.IsNaN(end) {
		panic(valueErr("Arange", "pass a finite start and end and a nonzero step",
			"invalid range start=%v end=%v step=%v", start, end, step))
	}
	if (end-start)*step < 0 {
		panic(valueErr("Arange", "use a negative step to count down",
			"step %v cannot go from %v to %v", step, start, end))
	}
	return int(math.Ceil((end - start) / step))
}

// Eye returns the n×n Float32 identity matrix.
func Eye(n int) *Tensor {
	x := Zeros(n, n)
	cpuEngine.Fill(x.storage, backend.Layout{Shape: []int{n}, Strides: []int{n + 1}}, 1)
	return x
}

// Scalar returns a 0-d Float32 tensor holding v.
func Scalar(v float64) *Tensor { return Full(v) }

// fromData checks that len matches shape (one -1 allowed) and wraps data.
func fromData(op string, data any, n int, shape []int) *Tensor {
	if len(shape) == 0 {
		shape = []int{n}
	}
	shape = inferShape(op, shape, n, []int{n})
	return newTensor(cpuEngine, cpuEngine.FromHost(data), shape)
}

// FromFloat32s returns a Float32 tensor on the CPU holding a copy of data
// with the given shape (one size may be -1). With no shape it is 1-D. It
// panics with a *ShapeError when len(data) does not match the shape.
//
//	x := tensor.FromFloat32s([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
func FromFloat32s(data []float32, shape ...int) *Tensor {
	return fromData("FromFloat32s", append([]float32(nil), data...), len(data), shape)
}

// FromFloat64s is FromFloat32s for float64 data: the tensor is Float64.
func FromFloat64s(data []float64, shape ...int) *Tensor {
	return fromData("FromFloat64s", append([]float64(nil), data...), len(data), shape)
}

// FromInt64s is FromFloat32s for int64 data: the tensor is Int64.
func FromInt64s(data []int64, shape ...int) *Tensor {
	return fromData("FromInt64s", append([]int64(nil), data...), len(data), shape)
}

// FromBools is FromFloat32s for bool data: the tensor is Bool.
func FromBools(data []bool, shape ...int) *Tensor {
	return fromData("FromBools", append([]bool(nil), data...), len(data), shape)
}

// FromInts returns an Int64 tensor holding data, a convenience for labels
// and indices written as Go ints.
func FromInts(data []int, shape ...int) *Tensor {
	v := make([]int64, len(data))
	for i, d := range data {
		v[i] = int64(d)
	}
	return fromData("FromInts", v, len(v), shape)
}
