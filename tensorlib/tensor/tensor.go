package tensor

import (
	"github.com/gotensor/gotensor/autograd"

	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/cpu"
)

// A Tensor is an n-dimensional array of one dtype on one device.
//
// A Tensor is a view: a Layout (shape, strides, offset) over a Storage that
// other views may share. Ops never change their operands; they return new
// tensors. View ops (Reshape when possible, Transpose, Permute, T, Narrow,
// Select, Squeeze, Unsqueeze, Expand, Flatten) return tensors that share
// storage with their source; all other ops return new storage.
//
// A nil *Tensor is not valid; ops on it panic.
type Tensor struct {
	storage backend.Storage
	layout  backend.Layout
	backend *engine        // the device and the backend that serves it
	node    *autograd.Node // nil unless x requires grad
	owner   any            // package nn's tag: the layer x is a parameter or buffer of
}

// newTensor wraps storage in a contiguous layout of shape.
func newTensor(b *engine, s backend.Storage, shape []int) *Tensor {
	return &Tensor{storage: s, layout: backend.Contiguous(shape), backend: b}
}

// view returns a tensor sharing x's storage with layout l.
func (x *Tensor) view(l backend.Layout) *Tensor {
	return &Tensor{storage: x.storage, layout: l, backend: x.backend}
}

// Shape returns a copy of the sizes of x's dimensions; a 0-d tensor (a
// scalar) has shape [].
func (x *Tensor) Shape() []int { return cloneInts(x.layout.Shape) }

// Size returns the size of dimension dim; negative dims count from the end.
func (x *Tensor) Size(dim int) int {
	return x.layout.Shape[normDim("Size", dim, x.Dim(), x.layout.Shape)]
}

// Strides returns a copy of x's strides, counted in elements.
func (x *Tensor) Strides() []int { return cloneInts(x.layout.Strides) }

// Dim returns the number of dimensions of x (0 for a scalar).
func (x *Tensor) Dim() int { return len(x.layout.Shape) }

// Numel returns the number of elements of x.
func (x *Tensor) Numel() int { return backend.Numel(x.layout.Shape) }

// DType returns x's element type.
func (x *Tensor) DType() DType { return x.storage.DType() }

// Device returns the device that holds x's storage.
func (x *Tensor) Device() Device { return x.backend.device }

// IsContiguous reports whether x's elements sit in row-major order without
// gaps in its storage.
func (x *Tensor) IsContiguous() bool { return x.layout.IsContiguous() }

// SharesStorage reports whether x and y view the same storage, as views of
// one another do.
func (x *Tensor) SharesStorage(y *Tensor) bool { return x.storage == y.storage }

// Free releases x's device memory now, instead of when the garbage
// collector finds x unreachable: on a CUDA device the memory goes back to
// the allocator's cache, for the next tensors. The memory is the storage
// that x shares with its views, so afterwards using x or any view of it
// panics with a *DeviceError. Free may be called twice. On the CPU, Free
// does nothing and x stays usable: host memory is the garbage collector's.
//
//	y := x.MatMul(w)
//	x.Free() // done with x
func (x *Tensor) Free() {
	if f, ok := x.storage.(backend.Freer); ok {
		f.Free()
	}
}

// Item returns the single element of x as a float64 (true is 1). It panics
// with a *ShapeError when x does not have exactly one element.
//
//	loss.Item() // 0.6931
func (x *Tensor) Item() float64 {
	if x.Numel() != 1 {
		panic(shapeErr("Item", "reduce it first (Sum, Mean) or pick one element with Select", [][]int{x.Shape()},
			"a tensor with %d elements (shape %v) cannot be converted to a number; Item needs exactly one element", x.Numel(), x.layout.Shape))
	}
	if cs, ok := x.storage.(*cpu.Storage); ok {
		return cs.At(x.layout.Offset)
	}
	return hostAt(x.backend.ToHost(x.storage, x.layout), 0)
}

func hostAt(h any, i int) float64 {
	switch v := h.(type) {
	case []float32:
		return float64(v[i])
	case []float64:
		return v[i]
	case []int64:
		return float64(v[i])
	case []bool:
		if v[i] {
			return 1
		}
		return 0
	case []backend.BF16:
		return float64(v[i].Float32())
	case []backend.F16:
		return float64(v[i].Float32())
	}
	panic("tensor: unexpected host data type")
}

// Float32s returns a new slice with x's elements in row-major order,
// converted to float32 when x has another dtype.
func (x *Tensor) Float32s() []float32 { return x.AsType(Float32).host().([]float32) }

// Float64s returns a new slice with x's elements in row-major order,
// converted to float64 when x has another dtype.
func (x *Tensor) Float64s() []float64 { return x.AsType(Float64).host().([]float64) }

// Int64s returns a new slice with x's elements in row-major order,
// converted to int64 (floats truncated toward zero) when x has another
// dtype.
func (x *Tensor) Int64s() []int64 { return x.AsType(Int64).host().([]int64) }

// Bools returns a new slice with x's elements in row-major order, converted
// to bool (nonzero is true) when x has another dtype.
func (x *Tensor) Bools() []bool { return x.AsType(Bool).host().([]bool) }

// host returns a new host slice of x's elements in row-major order.
func (x *Tensor) host() any { return x.backend.ToHost(x.storage, x.layout) }

// To returns x on device d: x itself when it is already there, otherwise a
// copy (x stays valid). It panics with a *DeviceError when d cannot be used.
//
//	y := x.To(tensor.CUDA(0))
func (x *Tensor) To(d Device) *Tensor {
	if x.Device() == d {
		return x
	}
	b := engineOf("To", d)
	out := newTensor(b, b.FromHost(x.host()), x.Shape())
	if !tracked(x) {
		return out
	}
	src := x.Device()
	return record(out, "To", func(g *Tensor) []*Tensor { return []*Tensor{g.To(src)} }, x)
}

// CPU returns x on the CPU (x itself when already there).
func (x *Tensor) CPU() *Tensor { return x.To(CPU) }

// CUDA returns x on CUDA(0) (x itself when already there). It panics with a
// *DeviceError when this build has no CUDA.
func (x *Tensor) CUDA() *Tensor { return x.To(CUDA(0)) }

// AsType returns x converted to dtype dt: x itself when it already has dt,
// otherwise a new tensor (PyTorch's x.to(dtype)). Float to Int64
// truncates toward zero; to Bool, nonzero is true; to BFloat16 and Float16
// rounds to nearest, ties to even, through float32 as PyTorch does.
// Gradients flow back through float conversions in the source's dtype.
//
//	h := x.AsType(tensor.BFloat16) // half the memory, 8 significant bits
func (x *Tensor) AsType(dt DType) *Tensor {
	if !validDType(dt) {
		panic(dtypeErr("AsType", "use tensor.Float32, Float64, BFloat16, Float16, Int64 or Bool", []DType{dt}, "unknown dtype %v", dt))
	}
	if x.DType() == dt {
		return x
	}
	out := newTensor(x.backend, x.backend.Cast(x.storage, x.layout, dt), x.Shape())
	if !dt.IsFloat() || !tracked(x) {
		return out // integer results carry no gradient
	}
	// record converts the gradient back to x's dtype.
	return record(out, "AsType", func(g *Tensor) []*Tensor { return []*Tensor{g} }, x)
}

// Contiguous returns x when its elements are already in row-major order
// without gaps, and a row-major copy otherwise.
func (x *Tensor) Contiguous() *Tensor {
	if x.layout.IsContiguous() {
		return x
	}
	return x.Clone()
}

// Clone returns a copy of x with its own contiguous storage. Gradients
// flow through it to x.
func (x *Tensor) Clone() *Tensor {
	out := x.clone()
	if !tracked(x) {
		return out
	}
	return record(out, "Clone", func(g *Tensor) []*Tensor { return []*Tensor{g} }, x)
}

// clone is Clone without recording. A cast to the same dtype is a copy
// into new contiguous storage, which the backend need not zero first (as
// Alloc does): on a GPU that halves the memory traffic of a small Clone.
func (x *Tensor) clone() *Tensor {
	s := x.backend.Cast(x.storage, x.layout, x.DType())
	return newTensor(x.backend, s, x.Shape())
}

// sameDevice panics with a DeviceError naming op when the tensors are not
// all on one device.
func sameDevice(op string, xs ...*Tensor) {
	d := xs[0].Device()
	for _, y := range xs[1:] {
		if e := y.Device(); e != d {
			panic(&DeviceError{Op: op, Devices: []Device{d, e},
				Msg: "expected all tensors on one device, got " + d.String() + " and " + e.String(),
				Fix: "move them with .To(device), e.g. y.To(x.Device())"})
		}
	}
}
