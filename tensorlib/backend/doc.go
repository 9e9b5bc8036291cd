// Package backend is the contract between package tensor and the devices
// it runs on. Users of tensors never need it; authors of a backend (the
// CPU one in package cpu, the CUDA one in package cuda) implement it.
//
// A backend owns Storage (blocks of elements of one DType) and computes on
// it: every Backend method receives storages with the Layout (shape,
// strides in elements, offset) through which the tensor views them, so
// views cost nothing. The Layout helpers here (Coalesce, SplitReduce,
// Window, MatrixOperand, ...) are the one implementation of the index
// arithmetic that the CPU backend (package cpu) and the CUDA backend
// share.
//
// Besides Backend's methods, which every backend has, optional
// interfaces compute one op in one pass over its data instead of the
// several primitive calls it takes otherwise, each in the file of its op
// (named as in the CPU and CUDA backends and kernels/): Conv (conv.go),
// BatchNorm and LayerNorm (norm.go), ActivationGrad (activation.go),
// Loss (loss.go), Softmax (softmax.go), Pool (pool.go), Sort (sort.go),
// Attention (attention.go), FlashAttention (flash.go). Package tensor
// uses one when the tensor's backend implements it and composes the same
// result from the Backend methods when it does not. They follow Backend's
// conventions: inputs may be any view, results are new contiguous
// storages, and every float operand has one dtype, Float32 or Float64
// (or 16-bit where the backend says so through HalfOps).
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
