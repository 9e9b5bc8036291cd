package tensor

import "github.com/gotensor/gotensor/internal/goroutine"

// Autocast (mixed precision, as torch.autocast): inside a scope, the ops
// that run on a GPU's tensor cores take their float inputs in a 16-bit
// dtype, and the ops that need range or precision take them in float32,
// each converting its inputs on entry. The lists are PyTorch's CUDA
// autocast lists (aten/src/ATen/autocast_mode.cpp), for every device:
//
//   - in the 16-bit dtype: MatMul (mm, bmm, matmul), Linear, Conv2d,
//     ScaledDotProductAttention;
//   - in float32: Exp, Log, Pow, PowScalar, Sum, SumKeep, CumSum,
//     Softmax, LogSoftmax, LogSumExp, LayerNorm, CrossEntropy, and the
//     losses of package nn (through AutocastFloat32);
//   - every other op runs in its inputs' dtype, and binary ops promote
//     (a bfloat16 activation plus a float32 residual is float32).
//
// BatchNorm is on neither list in PyTorch; here, as in cuDNN, a 16-bit
// input is normalised in float32 with float32 statistics and parameters,
// and rounded back.
//
// The scope is a function, as NoGrad is, and belongs to the goroutine
// that opens it, as PyTorch's autocast state belongs to a thread: ops on
// other goroutines (another notebook session's, one that f starts) do not
// autocast, and scopes with different dtypes on several goroutines at
// once do not mix. A scope cannot outlive the call that opened it: it
// ends when f returns or panics (an interrupted cell included), so no
// session is left autocasting by a cell that stopped.

// autocastState is a scope: on is false for NoAutocast.
type autocastState struct {
	dt DType
	on bool
}

// autocastNow holds the innermost scope of each goroutine inside one.
var autocastNow goroutine.Local[autocastState]

// Autocast runs f with ops autocasting to dt, BFloat16 (the usual choice:
// float32's range, so no loss scaling) or Float16 (more precision, a range
// of ±65504: scale the loss with optim.GradScaler), as torch.autocast
// does. Parameters and optimizer state stay Float32: a MatMul converts a
// Float32 weight to dt on entry, and the conversion's gradient brings the
// weight's gradient back in Float32. Scopes nest, the inner one winning;
// NoAutocast turns autocasting off within one. Backward runs outside any
// scope (each op's backward in the dtypes its forward used), so call it
// inside or after f alike. It panics with a *DTypeError when dt is not
// BFloat16 or Float16.
//
// On a CUDA GPU the 16-bit products run on the tensor cores (cuBLAS,
// cuDNN); on the CPU the numbers are the same, and so is the time or a
// little more (the CPU computes 16-bit floats in float32 and converts).
//
//	tensor.Autocast(tensor.BFloat16, func() {
//		loss = nn.CrossEntropy(model.Forward(x), y) // Linear in bfloat16, the loss in float32
//	})
//	loss.Backward() // gradients of the Float32 parameters are Float32
func Autocast(dt DType, f func()) {
	if !dt.IsHalf() {
		panic(dtypeErr("Autocast", "use tensor.BFloat16 or tensor.Float16", []DType{dt},
			"autocasting to %v: the scope computes in a 16-bit float", dt))
	}
	withAutocast(autocastState{dt: dt, on: true}, f)
}

// NoAutocast runs f with autocasting off, inside an Autocast scope (as
// torch.autocast(enabled=False)): ops take their inputs' dtypes, so a part
// of a model that needs float32 can convert its inputs and run in it.
func NoAutocast(f func()) { withAutocast(autocastState{}, f) }

func withAutocast(s autocastState, f func()) {
	defer autocastNow.Set(s)()
	f()
}

// AutocastDType returns the dtype ops on the calling goroutine autocast to
// now and true inside an Autocast scope, or Float32 and false outside one (or inside
// NoAutocast).
func AutocastDType() (DType, bool) {
	if s, ok := autocastNow.Get(); ok && s.on {
		return s.dt, true
	}
	return Float32, false
}

// suspendAutocast turns autocasting off on the calling goroutine until the
// returned function is called: Backward runs each op's backward in its
// forward's dtypes.
func suspendAutocast() (restore func()) {
	if _, on := AutocastDType(); !on {
		return func() {}
	}
	return autocastNow.Set(autocastState{})
}

// AutocastLower returns x converted to the autocast dtype inside an
// Autocast scope when x is Float32 or the other 16-bit float, and x
// otherwise (outside a scope, Float64, integers, Bool, nil): what the ops
// of PyTorch's lower-precision list do with each input. Ops composed
// outside package tensor that belong on that list call it.
func AutocastLower(x *Tensor) *Tensor {
	dt, on := AutocastDType()
	if !on || x == nil || x.DType() == dt || (x.DType() != Float32 && !x.DType().IsHalf()) {
		return x
	}
	return x.AsType(dt)
}

// AutocastFloat32 returns x converted to Float32 inside an Autocast scope
// when x is a 16-bit float, and x otherwise: what the ops of PyTorch's
// float32 list (losses, softmax, norms, sums) do with each input. Ops
// composed outside package tensor that belong on that list, such as the
// losses of package nn, call it.
//
//	pred, target = tensor.AutocastFloat32(pred), tensor.AutocastFloat32(target)
func AutocastFloat32(x *Tensor) *Tensor {
	if _, on := AutocastDType(); !on || x == nil || !x.DType().IsHalf() {
		return x
	}
	return x.AsType(Float32)
}
