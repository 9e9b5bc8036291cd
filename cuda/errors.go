package cuda

import (
	"fmt"
	"strings"

	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// Failures of the device are environment failures, not mistakes in the
// program: ops panic with one of these errors, which implement
// tensor.Error, so that tensor.Try returns them and a notebook cell ends
// with the message while the session goes on. The panic happens on the
// goroutine that ran the op (ops drive the device from the calling
// goroutine), so its stack shows the op that failed. Broken invariants of
// this package (a storage of another backend, a dtype the front end never
// passes) are bugs, and panic with plain strings, which Try passes on.

// An OutOfMemoryError reports that a CUDA device could not satisfy an
// allocation even after the allocator emptied its cache and ran the
// garbage collector. Tensor ops panic with it; tensor.Try (or a notebook
// cell) turns the panic into an error, and the session goes on.
type OutOfMemoryError struct {
	Device    int           // the device ordinal
	Requested int64         // bytes asked for
	Allocated int64         // bytes held by live tensors
	Cached    int64         // bytes cached for reuse (0 after the retry)
	Total     int64         // the device's memory
	Largest   []LiveTensors // what holds the most memory: live tensors grouped by dtype and length
	cause     error
}

// LiveTensors is a group of live tensor storages on a device of one dtype
// and length: what MemorySummary and an *OutOfMemoryError list as holding
// memory.
type LiveTensors struct {
	DType    tensor.DType
	Elements int   // elements in each
	Count    int   // how many such storages are alive
	Bytes    int64 // their bytes in all
}

// String formats the group: "3 × float32[1048576] (4.0 MiB each)".
func (l LiveTensors) String() string {
	return fmt.Sprintf("%d × %v[%d] (%s each)", l.Count, l.DType, l.Elements, backend.ByteSize(l.Bytes/int64(max(1, l.Count))))
}

func (e *OutOfMemoryError) Error() string {
	var held strings.Builder
	for i, l := range e.Largest {
		if i > 0 {
			held.WriteString(", ")
		}
		held.WriteString(l.String())
	}
	if held.Len() > 0 {
		held.WriteString("; ")
	}
	return fmt.Sprintf("cuda: out of memory on cuda:%d: tried to allocate %s with %s held by tensors, %s cached, of %s; "+
		"the largest live tensors: %s"+
		"free tensors you no longer need (x.Free(), or drop the variables that hold them: %%gpu lists them), "+
		"mind that a loss not yet Backward'ed keeps its forward's activations, "+
		"use smaller batches or tensor.Autocast(tensor.BFloat16, ...), or move work to the CPU",
		e.Device, backend.ByteSize(e.Requested), backend.ByteSize(e.Allocated), backend.ByteSize(e.Cached), backend.ByteSize(e.Total), held.String())
}

// Unwrap returns the driver's error.
func (e *OutOfMemoryError) Unwrap() error { return e.cause }

// TensorError marks *OutOfMemoryError as a tensor.Error, so tensor.Try
// returns it.
func (*OutOfMemoryError) TensorError() {}

var _ tensor.Error = (*OutOfMemoryError)(nil)

// A DriverError reports a call to the CUDA driver or cuBLAS that failed:
// a copy, a kernel launch, loading the kernels, waiting for the device.
// Errors of earlier asynchronous work (a kernel that faulted) surface at
// the next call that waits, and a faulted device fails every call after
// it: the message says so, and what to do.
type DriverError struct {
	Device int    // the device ordinal
	Op     string // what was being done: "launching relu_f32 (grid 4, block 256)"
	Err    error  // the driver's error
	Fix    string // what to do; "" for the advice that fits most failures
}

func (e *DriverError) Error() string {
	fix := e.Fix
	if fix == "" {
		fix = fixDevice
	}
	return fmt.Sprintf("cuda: cuda:%d: %s: %v; %s", e.Device, e.Op, e.Err, fix)
}

// fixDevice is what to do about most driver failures.
const fixDevice = "the GPU may be in an error state after a failed kernel, which makes every later call fail: " +
	"restart the notebook kernel to reset it, and if the error comes back, check the GPU with nvidia-smi " +
	"or move the work to tensor.CPU"

// fixModule is what to do when the driver cannot load the kernels.
const fixModule = "the driver could not load gotensor's kernels (PTX for CUDA 11.8, compute capability 7.0 or newer): " +
	"update the NVIDIA driver (nvidia-smi shows the CUDA version it supports), or use tensor.CPU"

// Unwrap returns the driver's error.
func (e *DriverError) Unwrap() error { return e.Err }

// TensorError marks *DriverError as a tensor.Error, so tensor.Try returns
// it.
func (*DriverError) TensorError() {}

var _ tensor.Error = (*DriverError)(nil)

// fail panics with a *DriverError for the call on d that returned err
// while doing op. Callers format op only once err is non-nil, so that a
// successful call costs nothing.
func (d *device) fail(err error, op string) {
	panic(&DriverError{Device: d.index, Op: op, Err: err})
}
