package backend

// A Storage is a block of elements of one dtype owned by a backend. Tensors
// read it through a Layout; many tensors (views) may share one Storage.
type Storage interface {
	// DType returns the element type.
	DType() DType
	// Len returns the number of elements.
	Len() int
}

// A Freer is a Storage whose memory can be released before the garbage
// collector finds it unreachable, as the CUDA backend's device memory can.
// Tensor.Free calls Free. After Free, the backend panics with a
// *tensor.DeviceError when it is handed the storage again; Free must be
// safe to call more than once.
type Freer interface {
	Free()
}

// A Backend implements tensor storage and compute for one device. The CPU
// backend (package cpu) is the one package tensor opens itself; others
// (CUDA) register a Factory with Register.
//
// Conventions: every Storage argument was made by the same backend; every
// method that returns a Storage returns a new, contiguous one (row-major in
// the shape of the result); input layouts may be any view (strided,
// transposed, broadcast with stride 0, offset) and are never written
// through. The front end (package tensor) checks shapes, dtypes and devices
// before calling, so backends may panic on misuse without a friendly
// message. It never passes Bool storage to Unary, Binary, BinaryScalar,
// Reduce, ArgReduce or MatMul.
//
// The 16-bit floats (BFloat16, Float16) are storage formats: a backend
// stores them (Alloc, FromHost and ToHost with []BF16 and []F16, Copy,
// Cast, Fill, Arange), and package tensor computes on them in float32,
// converting operands with Cast and rounding results back, as PyTorch's
// CPU does. So no other method receives a 16-bit storage, unless the
// backend implements HalfOps and names the method there.
//
// Failures of the device itself (out of memory, a driver error) panic with
// a value that implements tensor.Error, so that tensor.Try returns them.
type Backend interface {
	// Alloc returns n zero elements of dtype dt.
	Alloc(dt DType, n int) Storage
	// FromHost returns storage holding data, a []float32, []float64,
	// []int64, []bool, []BF16 or []F16 that the backend may keep (the
	// caller gives it up).
	FromHost(data any) Storage
	// ToHost returns a new host slice ([]float32, []float64, []int64,
	// []bool, []BF16 or []F16) with the elements of s under l, in
	// row-major order.
	ToHost(s Storage, l Layout) any

	// Copy writes the elements of src under sl into dst under dl. Both have
	// the same dtype and shape; dl does not overlap itself.
	Copy(src Storage, sl Layout, dst Storage, dl Layout)
	// Cast returns the elements of s under l converted to dt, truncating
	// floats toward zero for Int64 and mapping nonzero to true for Bool.
	// Conversions to BFloat16 and Float16 round to nearest, ties to even,
	// from the value converted to float32 first (as PyTorch converts).
	Cast(s Storage, l Layout, dt DType) Storage
	// Fill sets every element of dst under dl to v.
	Fill(dst Storage, dl Layout, v float64)
	// Arange returns n elements start, start+step, ... of dtype dt.
	Arange(dt DType, n int, start, step float64) Storage
	// Random returns n elements of dtype dt drawn from dist with
	// parameters a and b, from a generator seeded with seed: equal seeds
	// give equal results.
	Random(dist Distribution, dt DType, n int, a, b float64, seed uint64) Storage

	// Unary returns op applied to each element of s under l.
	Unary(op UnaryOp, s Storage, l Layout) Storage
	// Binary returns op(a, b) elementwise; la and lb have the same shape
	// (the broadcast shape, with stride 0 where an operand repeats) and the
	// storages the same dtype, which the result has.
	Binary(op BinaryOp, a Storage, la Layout, b Storage, lb Layout) Storage
	// BinaryScalar returns op(a, s) elementwise, or op(s, a) when reversed;
	// the result has a's dtype.
	BinaryScalar(op BinaryOp, a Storage, la Layout, s float64, reversed bool) Storage
	// Compare returns op(a, b) elementwise as Bool; la and lb as in Binary.
	Compare(op CompareOp, a Storage, la Layout, b Storage, lb Layout) Storage
	// Where returns a where cond is true and b elsewhere; cond is Bool,
	// a and b share a dtype, and the three layouts share a shape.
	Where(cond Storage, lc Layout, a Storage, la Layout, b Storage, lb Layout) Storage

	// Reduce reduces s under l over dims (sorted, distinct, non-negative)
	// with op (OpSum, OpMax or OpMin). The result has l's shape with those
	// dims set to 1. Every reduced dim is non-empty for OpMax and OpMin.
	Reduce(op ReduceOp, s Storage, l Layout, dims []int) Storage
	// ArgReduce returns the Int64 index of the first maximum (OpArgmax) or
	// minimum (OpArgmin) along dim, shaped as l with dim set to 1. NaN
	// counts as the maximum and the minimum, as in PyTorch.
	ArgReduce(op ReduceOp, s Storage, l Layout, dim int) Storage

	// MatMul returns the batched matrix product of a under la, shaped
	// [batch..., m, k], and b under lb, shaped [batch..., k, n], with equal
	// batch dims (possibly stride 0). The result is [batch..., m, n].
	MatMul(a Storage, la Layout, b Storage, lb Layout) Storage

	// Gather returns out[..., i, ...] = s[..., idx[..., i, ...], ...] along
	// dim, shaped as il; idx is Int64. Out-of-range indices panic with a
	// *tensor.IndexError.
	Gather(s Storage, l Layout, dim int, idx Storage, il Layout) Storage
	// IndexSelect returns the slices of s along dim listed in the 1-D
	// Int64 idx, shaped as l with dim's size len(idx). Out-of-range
	// indices panic with a *tensor.IndexError.
	IndexSelect(s Storage, l Layout, dim int, idx Storage, il Layout) Storage

	// ScatterAdd adds src under sl into dst under dl in place along dim:
	// dst[..., idx[..., i, ...], ...] += src[..., i, ...], with idx (Int64)
	// under il of sl's shape; repeated indices add up. It is Gather's
	// adjoint. The front end checks the indices.
	ScatterAdd(dst Storage, dl Layout, dim int, idx Storage, il Layout, src Storage, sl Layout)
	// IndexAdd adds the slices of src under sl along dim into dst under dl
	// in place: slice idx[j] of dst += slice j of src, with the 1-D Int64
	// idx under il; repeats add up. It is IndexSelect's adjoint.
	IndexAdd(dst Storage, dl Layout, dim int, idx Storage, il Layout, src Storage, sl Layout)

	// Im2Col returns the sliding windows of s under l, shaped [N, C, H, W],
	// as columns, like torch.nn.functional.unfold: the result is
	// [N, C*KH*KW, OH*OW], where row c*KH*KW + i*KW + j, column oh*OW + ow
	// holds input (c, oh*SH - PH + i*DH, ow*SW - PW + j*DW), 0 outside the
	// input. kernel, stride, padding and dilation are (H, W) pairs; see
	// Window for the output size, which is at least 1.
	Im2Col(s Storage, l Layout, kernel, stride, padding, dilation [2]int) Storage
	// Col2Im is Im2Col's adjoint (torch.nn.functional.fold): it sums the
	// columns c under cl, shaped [N, C*KH*KW, OH*OW], back into a new
	// [N, C, H, W] storage, where shape is [N, C, H, W].
	Col2Im(c Storage, cl Layout, shape []int, kernel, stride, padding, dilation [2]int) Storage
	// MaxPool2d returns the maxima of the windows of s under l, shaped
	// [N, C, H, W], padded with -Inf: out is [N, C, OH, OW] (sizes as in
	// Window with dilation 1) and idx, Int64 of the same shape, holds each
	// maximum's position h*W + w in its input plane (the first one on
	// ties; NaN wins, as in PyTorch).
	MaxPool2d(s Storage, l Layout, kernel, stride, padding [2]int) (out, idx Storage)

	// AdamStep updates the parameters p, first moments m and second
	// moments v in place with one Adam or AdamW step on the gradient g.
	// All four have one shape and one float dtype; pl, ml and vl are
	// contiguous (gl may be any layout). One fused pass is several times
	// faster than the dozen elementwise ops it replaces.
	AdamStep(p Storage, pl Layout, g Storage, gl Layout, m Storage, ml Layout, v Storage, vl Layout, h AdamParams)
	// SGDStep updates p in place with one SGD step on the gradient g, and
	// the momentum buffer buf when h.Momentum != 0 (buf is nil otherwise).
	// Layouts as in AdamStep.
	SGDStep(p Storage, pl Layout, g Storage, gl Layout, buf Storage, bl Layout, h SGDParams)
}

// AdamParams are the hyperparameters of one Backend.AdamStep.
type AdamParams struct {
	LR           float64 // learning rate
	Beta1, Beta2 float64 // decay rates of the moment estimates (0.9, 0.999)
	Eps          float64 // added to the denominator (1e-8)
	WeightDecay  float64 // L2 penalty (Adam) or decoupled decay (AdamW)
	Step         int     // 1-based number of this step, for bias correction
	Decoupled    bool    // AdamW: p *= 1 - LR*WeightDecay instead of g += WeightDecay*p
}

// SGDParams are the hyperparameters of one Backend.SGDStep.
type SGDParams struct {
	LR          float64 // learning rate
	Momentum    float64 // momentum factor (0 for plain SGD)
	Dampening   float64 // dampening for momentum
	WeightDecay float64 // L2 penalty added to the gradient
	Nesterov    bool    // Nesterov momentum
	First       bool    // the first step: the buffer starts as the gradient
}

// HalfOps is an optional interface for backends that compute some ops on
// BFloat16 and Float16 storages themselves, as a GPU's tensor cores do,
// instead of having package tensor convert the operands to Float32 and
// round the result. HalfNative reports whether the method called op
// takes 16-bit float operands (all of one dtype, or as the method's doc
// says): "MatMul" (a product accumulated in float32 and rounded once, as
// cuBLAS's GemmEx with CUBLAS_COMPUTE_32F), "Conv2d" (backend.Conv, both
// methods), "Attention" (backend.Attention, both methods). Package tensor
// asks before each call, so the answer may depend on nothing but op.
type HalfOps interface {
	HalfNative(op string) bool
}
