// Package backend is the contract between package tensor and the devices
// it runs on. Users of tensors never need it; authors of a backend (the
// CUDA one in package cuda) implement it.
//
// A backend owns Storage (blocks of elements of one DType) and computes on
// it: every Backend method receives storages with the Layout (shape,
// strides in elements, offset) through which the tensor views them, so
// views cost nothing. The Layout helpers here (Coalesce, SplitReduce,
// Window, MatrixOperand, ...) are the one implementation of the index
// arithmetic that the CPU backend (in package tensor) and the CUDA backend
// share.
//
// A backend registers a factory for its device kind with Register, the
// way database/sql drivers register themselves; package tensor opens it
// when a tensor first moves to such a device.
//
// Long native work checks the interrupt hook of the goroutine it runs for
// (Interrupted, InterruptHook), which a notebook session binds to its own
// goroutines (BindInterruptHook), and stops with ErrInterrupted.
//
// The registry of backends is process wide, as database/sql's drivers
// are: a device is the machine's, whichever session uses it.
package backend
