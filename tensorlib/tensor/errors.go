package tensor

import (
	"fmt"
	"strings"

	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/cpu"
)

// A ShapeError reports an op called with shapes it cannot work with:
// operands that do not broadcast, mismatched inner sizes in MatMul, a
// dimension out of range, a reshape to a different number of elements.
// Ops panic with a *ShapeError; Try turns the panic back into an error.
type ShapeError struct {
	Op     string  // the op, e.g. "Add" or "MatMul"
	Shapes [][]int // the shapes of the operands involved
	Msg    string  // what went wrong
	Fix    string  // how to fix it, or ""
}

func (e *ShapeError) Error() string { return errorString(e.Op, e.Msg, e.Fix) }

// TensorError marks *ShapeError as an Error.
func (*ShapeError) TensorError() {}

// A DTypeError reports an op called on a dtype it does not support, such as
// Mean of an Int64 tensor or indices that are not Int64.
// Ops panic with a *DTypeError; Try turns the panic back into an error.
type DTypeError struct {
	Op     string  // the op
	DTypes []DType // the dtypes of the operands involved
	Msg    string  // what went wrong
	Fix    string  // how to fix it, or ""
}

func (e *DTypeError) Error() string { return errorString(e.Op, e.Msg, e.Fix) }

// TensorError marks *DTypeError as an Error.
func (*DTypeError) TensorError() {}

// A DeviceError reports tensors on different devices used in one op, or a
// device this build cannot use (CUDA without -tags cuda).
// Ops panic with a *DeviceError; Try turns the panic back into an error.
type DeviceError struct {
	Op      string   // the op
	Devices []Device // the devices involved
	Msg     string   // what went wrong
	Fix     string   // how to fix it, or ""
}

func (e *DeviceError) Error() string { return errorString(e.Op, e.Msg, e.Fix) }

// TensorError marks *DeviceError as an Error.
func (*DeviceError) TensorError() {}

// An IndexError reports an index out of range: in Select, Gather,
// IndexSelect, OneHot or Item.
// Ops panic with an *IndexError; Try turns the panic back into an error.
type IndexError struct {
	Op    string // the op
	Index int    // the offending index
	Size  int    // the size of the dimension it indexes
	Msg   string // what went wrong
	Fix   string // how to fix it, or ""
}

func (e *IndexError) Error() string { return errorString(e.Op, e.Msg, e.Fix) }

// TensorError marks *IndexError as an Error.
func (*IndexError) TensorError() {}

// A ValueError reports an argument whose value an op cannot take, whatever
// the shapes: a zero step in Arange, a probability outside [0, 1], a
// negative count.
// Ops panic with a *ValueError; Try turns the panic back into an error.
type ValueError struct {
	Op  string // the op
	Msg string // what went wrong, with the value
	Fix string // how to fix it, or ""
}

func (e *ValueError) Error() string { return errorString(e.Op, e.Msg, e.Fix) }

// TensorError marks *ValueError as an Error.
func (*ValueError) TensorError() {}

// A GradError reports misuse of automatic differentiation: Backward on a
// tensor that does not require grad, a second Backward through a graph
// that the first one freed, SetGrad on a tensor that is not a leaf.
// Ops panic with a *GradError; Try turns the panic back into an error.
type GradError struct {
	Op  string // the op, e.g. "Backward"
	Msg string // what went wrong
	Fix string // how to fix it, or ""
}

func (e *GradError) Error() string { return errorString(e.Op, e.Msg, e.Fix) }

// TensorError marks *GradError as an Error.
func (*GradError) TensorError() {}

// Error is implemented by every error that tensor ops panic with and Try
// turns back into an error: this package's *ShapeError, *DTypeError,
// *DeviceError and *IndexError, and the errors of backends that this
// package cannot name, such as the CUDA backend's *cuda.OutOfMemoryError.
// A backend makes its own error type reach Try by giving it the
// TensorError method.
type Error interface {
	error
	// TensorError does nothing; it marks the type as an op error.
	TensorError()
}

func errorString(op, msg, fix string) string {
	var b strings.Builder
	b.WriteString("tensor: ")
	if op != "" {
		b.WriteString(op)
		b.WriteString(": ")
	}
	b.WriteString(msg)
	if fix != "" {
		b.WriteString("; ")
		b.WriteString(fix)
	}
	return b.String()
}

// Try calls f and returns the Error that f panicked with (a *ShapeError,
// *DTypeError, *DeviceError, *IndexError, *ValueError, *GradError, or a
// backend's error such as *cuda.OutOfMemoryError), or nil if f returned
// normally. Other panics pass through unchanged: bugs, and the
// interruption of a long op (backend.ErrInterrupted), which must end the
// notebook cell.
//
//	err := tensor.Try(func() { a.MatMul(b) })
//	if err != nil { ... }
func Try(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case Error:
				err = e
			default:
				panic(r)
			}
		}
	}()
	f()
	return nil
}

func shapeErr(op, fix string, shapes [][]int, format string, args ...any) *ShapeError {
	return &ShapeError{Op: op, Shapes: shapes, Msg: fmt.Sprintf(format, args...), Fix: fix}
}

func valueErr(op, fix string, format string, args ...any) *ValueError {
	return &ValueError{Op: op, Msg: fmt.Sprintf(format, args...), Fix: fix}
}

func gradErr(op, fix string, format string, args ...any) *GradError {
	return &GradError{Op: op, Msg: fmt.Sprintf(format, args...), Fix: fix}
}

func dtypeErr(op, fix string, dts []DType, format string, args ...any) *DTypeError {
	return &DTypeError{Op: op, DTypes: dts, Msg: fmt.Sprintf(format, args...), Fix: fix}
}

// shapeStr formats a shape the way every message in this package does: [2 3].
func shapeStr(s []int) string { return fmt.Sprint(s) }

// normDim turns a possibly negative dim into an index in [0, n), panicking
// with a ShapeError naming op when it is out of range.
func normDim(op string, dim, n int, shape []int) int {
	d := dim
	if d < 0 {
		d += n
	}
	if d < 0 || d >= n {
		if n == 0 {
			panic(shapeErr(op, "a 0-d tensor has no dims; Unsqueeze or Reshape it first", [][]int{shape},
				"dim %d is out of range for a 0-d tensor", dim))
		}
		panic(shapeErr(op, fmt.Sprintf("use a dim in [%d, %d]", -n, n-1), [][]int{shape},
			"dim %d is out of range for shape %v (%d dims)", dim, shape, n))
	}
	return d
}

// An OutOfMemoryError reports a tensor too large for the host's memory: an
// allocation of Requested bytes when Available bytes can still be had. The
// op panics with it before asking the Go runtime, whose own out-of-memory
// error would end the process; Try turns it back into an error. Running
// out of GPU memory is a *cuda.OutOfMemoryError.
type OutOfMemoryError struct {
	Op        string // the op, or "" for an allocation outside one
	Requested int64  // bytes asked for
	Available int64  // bytes of host memory available
}

func (e *OutOfMemoryError) Error() string {
	return errorString(e.Op, fmt.Sprintf("out of memory on the CPU: tried to allocate %s with %s available",
		backend.ByteSize(e.Requested), backend.ByteSize(e.Available)),
		"use smaller tensors or batches, or free tensors you no longer need (drop references, then runtime.GC())")
}

// TensorError marks *OutOfMemoryError as an Error.
func (*OutOfMemoryError) TensorError() {}

// The CPU backend panics with these types, which it cannot name.
func init() {
	cpu.Errors.Index = func(op string, i, size int, msg, fix string) error {
		return &IndexError{Op: op, Index: i, Size: size, Msg: msg, Fix: fix}
	}
	cpu.Errors.OutOfMemory = func(requested, available int64) error {
		return &OutOfMemoryError{Requested: requested, Available: available}
	}
}
