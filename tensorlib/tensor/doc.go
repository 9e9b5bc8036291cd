// Package tensor is gotensor's n-dimensional array: a PyTorch-like
// *Tensor with dtypes, devices, broadcasting, views, reductions and
// matrix products, with a CPU backend built in and other devices (CUDA)
// plugged in through package backend's contract.
//
// # A short tour
//
//	x := tensor.FromFloat32s([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
//	w := tensor.Randn(3, 4)           // Float32, seeded by tensor.ManualSeed
//	h := x.MatMul(w).AddScalar(1)     // [2 3] @ [3 4] = [2 4]
//	p := h.ReLU().Softmax(-1)         // negative dims count from the end
//	fmt.Println(p.Sum(1))             // each row sums to 1
//	y := x.To(tensor.DefaultDevice()) // CUDA(0) when available, else CPU
//
// # Gradients
//
// Autograd is a property of the tensor, as in PyTorch: mark leaves with
// SetRequiresGrad(true), compute a scalar, call Backward, read Grad.
//
//	w := tensor.Randn(3, 1).SetRequiresGrad(true)
//	loss := x.MatMul(w).Sub(y).Square().Mean()
//	loss.Backward()                   // frees the graph
//	w.Grad()                          // d loss / d w, accumulates until w.ZeroGrad()
//	tensor.NoGrad(func() { ... })     // no graph inside (evaluation, updates)
//
// Every op's backward is defined next to its forward; the engine in package
// autograd sorts the graph, sums gradients of broadcast operands back to
// their shapes and accumulates into leaves. Ops cost nothing extra when no
// operand requires grad. The nn building blocks Linear, Conv2d,
// BatchNorm, MaxPool2d, AvgPool2d, CrossEntropy and Dropout are
// differentiable primitives here. Backends may compute Conv2d, BatchNorm
// and ReLU's gradient in one pass (package backend's optional
// interfaces); the CPU backend does, others get the same results composed
// from their primitive ops.
// CopyInto is the one in-place write (PyTorch's copy_), for setting
// weights.
//
// # Conventions
//
// Dtypes are Float32 (the default), Float64, Int64 and Bool. Binary ops
// promote mixed operands as PyTorch does (Int64+Float32 is Float32,
// Float32+Float64 is Float64, Bool+Int64 is Int64), comparisons give Bool,
// Div is true division, and float functions (Exp, Log, ...) of Int64 or
// Bool give Float32. A scalar argument never widens a float tensor.
//
// Shapes broadcast as in NumPy: aligned from the right, each pair of sizes
// equal or 1. Dims may be negative (-1 is the last). Reductions remove the
// reduced dims (Sum, Mean, Max, ...); the Keep forms keep them with size 1.
//
// Tensors are immutable values over shared storage: ops return new
// tensors, and the view ops (Reshape when the strides allow, View,
// Transpose, Permute, T, Narrow, Select, Squeeze, Unsqueeze, Expand,
// Flatten) share their source's storage without copying. Every op accepts
// views.
//
// # Errors
//
// Misuse by the program — shapes that do not broadcast, a dim out of range,
// a dtype an op does not take, tensors on two devices, an index or a value
// out of range, a second Backward through a freed graph — panics with a
// *ShapeError, *DTypeError, *DeviceError, *IndexError, *ValueError or
// *GradError whose message names the op, the operands and the fix:
//
//	tensor: MatMul: [128 784] @ [256 10]: inner sizes 784 and 256 differ; ...
//
// Try turns such a panic back into an error, as it does a backend's
// failure (the CUDA device out of memory, a driver error).
//
// # Devices
//
// Every tensor lives on one Device. CPU is always present; a backend
// package registers more with backend.Register (package cuda does so on a
// GPU build, or when cuda.UseEmulator is called). x.To(dev) copies and leaves x valid; ops on
// tensors of different devices panic with a *DeviceError.
//
// # Printing
//
// String prints like PyTorch: 4 decimals, summarised beyond 1000 elements,
// with a dtype suffix for Float64 and a device suffix off the CPU.
package tensor
