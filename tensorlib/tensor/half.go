package tensor

import "github.com/gotensor/gotensor/tensorlib/backend"

// The 16-bit floats (BFloat16, Float16) are stored by every backend, and
// computed on in float32: the engine's methods below shadow the backend's
// compute methods, convert 16-bit operands to Float32, call the backend,
// and round a float result back to the operands' dtype, as PyTorch's CPU
// kernels do (load as float, compute, store rounded). A backend that
// computes an op on 16-bit storages itself (a GPU's GEMM on tensor cores)
// says so through backend.HalfOps, and gets them unconverted.
//
// The optional fused interfaces (backend.Softmax, LayerNorm, ...) are
// reached by type assertions in the ops' front ends, which convert 16-bit
// inputs to Float32 themselves (see inFloat32).

// BF16 is one bfloat16 number as its bits, with a Float32 method;
// backend.BF16FromFloat32 rounds a float32 to it. BFloat16 tensors hold
// these.
type BF16 = backend.BF16

// F16 is one float16 number as its bits, with a Float32 method;
// backend.F16FromFloat32 rounds a float32 to it. Float16 tensors hold
// these.
type F16 = backend.F16

// FromBFloat16s returns a BFloat16 tensor on the CPU holding a copy of
// data, bfloat16 numbers as their bits (as a file stores them), with the
// given shape as in FromFloat32s. FromFloat32s(...).AsType(BFloat16)
// makes one from float32 values.
func FromBFloat16s(data []BF16, shape ...int) *Tensor {
	return fromData("FromBFloat16s", append([]BF16(nil), data...), len(data), shape)
}

// FromFloat16s is FromBFloat16s for float16 bits: the tensor is Float16.
func FromFloat16s(data []F16, shape ...int) *Tensor {
	return fromData("FromFloat16s", append([]F16(nil), data...), len(data), shape)
}

// BFloat16s returns a new slice with x's elements in row-major order as
// bfloat16 bits, converted (rounded) when x has another dtype.
func (x *Tensor) BFloat16s() []BF16 { return x.AsType(BFloat16).host().([]BF16) }

// Float16s returns a new slice with x's elements in row-major order as
// float16 bits, converted (rounded) when x has another dtype.
func (x *Tensor) Float16s() []F16 { return x.AsType(Float16).host().([]F16) }

// native reports whether e's backend computes op on 16-bit storages.
func (e *engine) native(op string) bool {
	h, ok := e.Backend.(backend.HalfOps)
	return ok && h.HalfNative(op)
}

// half reports whether s holds 16-bit floats that e must convert for op.
func (e *engine) half(s backend.Storage, op string) bool {
	return s != nil && s.DType().IsHalf() && !e.native(op)
}

// up returns s under l converted to Float32, with the layout of the
// converted elements: dims that l broadcasts (stride 0) are converted
// once and stay broadcast.
func (e *engine) up(s backend.Storage, l backend.Layout) (backend.Storage, backend.Layout) {
	shape := cloneInts(l.Shape)
	for i, st := range l.Strides {
		if st == 0 {
			shape[i] = 1
		}
	}
	c := e.Backend.Cast(s, backend.Layout{Shape: shape, Strides: l.Strides, Offset: l.Offset}, Float32)
	st := backend.ContiguousStrides(shape)
	for i := range st {
		if l.Strides[i] == 0 {
			st[i] = 0
		}
	}
	return c, backend.Layout{Shape: cloneInts(l.Shape), Strides: st}
}

// down returns the Float32 storage s rounded to dt, freeing s.
func (e *engine) down(s backend.Storage, dt DType) backend.Storage {
	out := e.Backend.Cast(s, backend.Contiguous([]int{s.Len()}), dt)
	release(s)
	return out
}

// release frees a temporary storage now where the backend can (device
// memory); the CPU's goes to the garbage collector.
func release(ss ...backend.Storage) {
	for _, s := range ss {
		if f, ok := s.(backend.Freer); ok {
			f.Free()
		}
	}
}

// writeBack rounds the contiguous Float32 storage tmp to dst's dtype and
// copies it into dst under dl, freeing tmp.
func (e *engine) writeBack(tmp backend.Storage, dst backend.Storage, dl backend.Layout) {
	r := e.down(tmp, dst.DType())
	e.Backend.Copy(r, backend.Contiguous(dl.Shape), dst, dl)
	release(r)
}

// one calls f with s converted to Float32, frees the conversion and
// returns f's result rounded to s's dtype.
func (e *engine) one(s backend.Storage, l backend.Layout, f func(s backend.Storage, l backend.Layout) backend.Storage) backend.Storage {
	c, cl := e.up(s, l)
	r := f(c, cl)
	release(c)
	return e.down(r, s.DType())
}

func (e *engine) Unary(op backend.UnaryOp, s backend.Storage, l backend.Layout) backend.Storage {
	if !e.half(s, "Unary") {
		return e.Backend.Unary(op, s, l)
	}
	return e.one(s, l, func(s backend.Storage, l backend.Layout) backend.Storage { return e.Backend.Unary(op, s, l) })
}

// pair calls f with a and b converted to Float32, frees the conversions
// and returns f's result: rounded to a's dtype when round is set.
func (e *engine) pair(a backend.Storage, la backend.Layout, b backend.Storage, lb backend.Layout, round bool,
	f func(a backend.Storage, la backend.Layout, b backend.Storage, lb backend.Layout) backend.Storage) backend.Storage {
	ca, cla := e.up(a, la)
	cb, clb := e.up(b, lb)
	r := f(ca, cla, cb, clb)
	release(ca, cb)
	if !round {
		return r
	}
	return e.down(r, a.DType())
}

func (e *engine) Binary(op backend.BinaryOp, a backend.Storage, la backend.Layout, b backend.Storage, lb backend.Layout) backend.Storage {
	if !e.half(a, "Binary") {
		return e.Backend.Binary(op, a, la, b, lb)
	}
	return e.pair(a, la, b, lb, true, func(a backend.Storage, la backend.Layout, b backend.Storage, lb backend.Layout) backend.Storage {
		return e.Backend.Binary(op, a, la, b, lb)
	})
}

func (e *engine) BinaryScalar(op backend.BinaryOp, a backend.Storage, la backend.Layout, s float64, reversed bool) backend.Storage {
	if !e.half(a, "BinaryScalar") {
		return e.Backend.BinaryScalar(op, a, la, s, reversed)
	}
	return e.one(a, la, func(a backend.Storage, la backend.Layout) backend.Storage {
		return e.Backend.BinaryScalar(op, a, la, s, reversed)
	})
}

func (e *engine) Compare(op backend.CompareOp, a backend.Storage, la backend.Layout, b backend.Storage, lb backend.Layout) backend.Storage {
	if !e.half(a, "Compare") {
		return e.Backend.Compare(op, a, la, b, lb)
	}
	return e.pair(a, la, b, lb, false, func(a backend.Storage, la backend.Layout, b backend.Storage, lb backend.Layout) backend.Storage {
		return e.Backend.Compare(op, a, la, b, lb)
	})
}

func (e *engine) Where(cond backend.Storage, lc backend.Layout, a backend.Storage, la backend.Layout, b backend.Storage, lb backend.Layout) backend.Storage {
	if !e.half(a, "Where") {
		return e.Backend.Where(cond, lc, a, la, b, lb)
	}
	return e.pair(a, la, b, lb, true, func(a backend.Storage, la backend.Layout, b backend.Storage, lb backend.Layout) backend.Storage {
		return e.Backend.Where(cond, lc, a, la, b, lb)
	})
}

func (e *engine) Reduce(op backend.ReduceOp, s backend.Storage, l backend.Layout, dims []int) backend.Storage {
	if !e.half(s, "Reduce") {
		return e.Backend.Reduce(op, s, l, dims)
	}
	return e.one(s, l, func(s backend.Storage, l backend.Layout) backend.Storage { return e.Backend.Reduce(op, s, l, dims) })
}

func (e *engine) ArgReduce(op backend.ReduceOp, s backend.Storage, l backend.Layout, dim int) backend.Storage {
	if !e.half(s, "ArgReduce") {
		return e.Backend.ArgReduce(op, s, l, dim)
	}
	c, cl := e.up(s, l)
	r := e.Backend.ArgReduce(op, c, cl, dim)
	release(c)
	return r
}

func (e *engine) MatMul(a backend.Storage, la backend.Layout, b backend.Storage, lb backend.Layout) backend.Storage {
	if !e.half(a, "MatMul") {
		return e.Backend.MatMul(a, la, b, lb)
	}
	return e.pair(a, la, b, lb, true, e.Backend.MatMul)
}

func (e *engine) Gather(s backend.Storage, l backend.Layout, dim int, idx backend.Storage, il backend.Layout) backend.Storage {
	if !e.half(s, "Gather") {
		return e.Backend.Gather(s, l, dim, idx, il)
	}
	return e.one(s, l, func(s backend.Storage, l backend.Layout) backend.Storage { return e.Backend.Gather(s, l, dim, idx, il) })
}

func (e *engine) IndexSelect(s backend.Storage, l backend.Layout, dim int, idx backend.Storage, il backend.Layout) backend.Storage {
	if !e.half(s, "IndexSelect") {
		return e.Backend.IndexSelect(s, l, dim, idx, il)
	}
	return e.one(s, l, func(s backend.Storage, l backend.Layout) backend.Storage {
		return e.Backend.IndexSelect(s, l, dim, idx, il)
	})
}

// ScatterAdd on 16-bit storage adds in float32 and rounds each element of
// dst once (PyTorch rounds after each addition).
func (e *engine) ScatterAdd(dst backend.Storage, dl backend.Layout, dim int, idx backend.Storage, il backend.Layout, src backend.Storage, sl backend.Layout) {
	if !e.half(dst, "ScatterAdd") {
		e.Backend.ScatterAdd(dst, dl, dim, idx, il, src, sl)
		return
	}
	e.addInto(dst, dl, src, sl, func(d backend.Storage, dl backend.Layout, s backend.Storage, sl backend.Layout) {
		e.Backend.ScatterAdd(d, dl, dim, idx, il, s, sl)
	})
}

// addInto runs the in-place f on dst and src converted to Float32 and
// writes the result back into dst, rounded.
func (e *engine) addInto(dst backend.Storage, dl backend.Layout, src backend.Storage, sl backend.Layout,
	f func(d backend.Storage, dl backend.Layout, s backend.Storage, sl backend.Layout)) {
	cd, cdl := e.up(dst, dl)
	cs, csl := e.up(src, sl)
	f(cd, cdl, cs, csl)
	release(cs)
	e.writeBack(cd, dst, dl)
}

// IndexAdd on 16-bit storage adds as ScatterAdd does.
func (e *engine) IndexAdd(dst backend.Storage, dl backend.Layout, dim int, idx backend.Storage, il backend.Layout, src backend.Storage, sl backend.Layout) {
	if !e.half(dst, "IndexAdd") {
		e.Backend.IndexAdd(dst, dl, dim, idx, il, src, sl)
		return
	}
	e.addInto(dst, dl, src, sl, func(d backend.Storage, dl backend.Layout, s backend.Storage, sl backend.Layout) {
		e.Backend.IndexAdd(d, dl, dim, idx, il, s, sl)
	})
}

func (e *engine) Im2Col(s backend.Storage, l backend.Layout, kernel, stride, padding, dilation [2]int) backend.Storage {
	if !e.half(s, "Im2Col") {
		return e.Backend.Im2Col(s, l, kernel, stride, padding, dilation)
	}
	return e.one(s, l, func(s backend.Storage, l backend.Layout) backend.Storage {
		return e.Backend.Im2Col(s, l, kernel, stride, padding, dilation)
	})
}

func (e *engine) Col2Im(s backend.Storage, l backend.Layout, shape []int, kernel, stride, padding, dilation [2]int) backend.Storage {
	if !e.half(s, "Col2Im") {
		return e.Backend.Col2Im(s, l, shape, kernel, stride, padding, dilation)
	}
	return e.one(s, l, func(s backend.Storage, l backend.Layout) backend.Storage {
		return e.Backend.Col2Im(s, l, shape, kernel, stride, padding, dilation)
	})
}

func (e *engine) MaxPool2d(s backend.Storage, l backend.Layout, kernel, stride, padding [2]int) (out, idx backend.Storage) {
	if !e.half(s, "MaxPool2d") {
		return e.Backend.MaxPool2d(s, l, kernel, stride, padding)
	}
	c, cl := e.up(s, l)
	r, idx := e.Backend.MaxPool2d(c, cl, kernel, stride, padding)
	release(c)
	return e.down(r, s.DType()), idx
}

// AdamStep on 16-bit parameters and state computes in float32 and rounds
// p, m and v once per step.
func (e *engine) AdamStep(p backend.Storage, pl backend.Layout, g backend.Storage, gl backend.Layout, m backend.Storage, ml backend.Layout, v backend.Storage, vl backend.Layout, h backend.AdamParams) {
	if !e.half(p, "AdamStep") {
		e.Backend.AdamStep(p, pl, g, gl, m, ml, v, vl, h)
		return
	}
	cp, cpl := e.up(p, pl)
	cg, cgl := e.up(g, gl)
	cm, cml := e.up(m, ml)
	cv, cvl := e.up(v, vl)
	e.Backend.AdamStep(cp, cpl, cg, cgl, cm, cml, cv, cvl, h)
	release(cg)
	e.writeBack(cp, p, pl)
	e.writeBack(cm, m, ml)
	e.writeBack(cv, v, vl)
}

// SGDStep on 16-bit parameters computes as AdamStep does.
func (e *engine) SGDStep(p backend.Storage, pl backend.Layout, g backend.Storage, gl backend.Layout, buf backend.Storage, bl backend.Layout, h backend.SGDParams) {
	if !e.half(p, "SGDStep") {
		e.Backend.SGDStep(p, pl, g, gl, buf, bl, h)
		return
	}
	cp, cpl := e.up(p, pl)
	cg, cgl := e.up(g, gl)
	var cb backend.Storage
	var cbl backend.Layout
	if buf != nil {
		cb, cbl = e.up(buf, bl)
	}
	e.Backend.SGDStep(cp, cpl, cg, cgl, cb, cbl, h)
	release(cg)
	e.writeBack(cp, p, pl)
	if buf != nil {
		e.writeBack(cb, buf, bl)
	}
}

// Random draws 16-bit floats as Float32 and rounds them.
func (e *engine) Random(dist backend.Distribution, dt DType, n int, a, b float64, seed uint64) backend.Storage {
	if !dt.IsHalf() {
		return e.Backend.Random(dist, dt, n, a, b, seed)
	}
	return e.down(e.Backend.Random(dist, Float32, n, a, b, seed), dt)
}

// Arange computes 16-bit floats in Float32 and rounds them.
func (e *engine) Arange(dt DType, n int, start, step float64) backend.Storage {
	if !dt.IsHalf() {
		return e.Backend.Arange(dt, n, start, step)
	}
	return e.down(e.Backend.Arange(Float32, n, start, step), dt)
}

// roundScalar returns s rounded to the 16-bit dtype dt (through float32,
// as conversions do).
func roundScalar(s float64, dt DType) float64 {
	if dt == BFloat16 {
		return float64(backend.BF16FromFloat32(float32(s)).Float32())
	}
	return float64(backend.F16FromFloat32(float32(s)).Float32())
}

// isHalf reports whether some tensor of xs (nil entries allowed) is
// 16-bit.
func isHalf(xs ...*Tensor) bool {
	for _, x := range xs {
		if x != nil && x.DType().IsHalf() {
			return true
		}
	}
	return false
}

// fused reports whether the backend's fused kernel for op may run on
// xs: they are not 16-bit, or the backend computes op on 16-bit storages.
func fused(op string, xs ...*Tensor) bool {
	return !isHalf(xs...) || xs[0].backend.native(op)
}

// inFloat32 returns f of xs with the 16-bit ones converted to Float32
// (others, nil included, as they are), its result rounded to dt: how a
// fused op (Softmax, LayerNorm, a convolution) computes on 16-bit inputs,
// in float32 with one rounding, as PyTorch's kernels do. Gradients flow
// through the conversions.
func inFloat32(dt DType, f func(xs []*Tensor) *Tensor, xs ...*Tensor) *Tensor {
	return f(float32s(xs)).AsType(dt)
}

// float32s returns xs with the 16-bit tensors converted to Float32.
func float32s(xs []*Tensor) []*Tensor {
	up := make([]*Tensor, len(xs))
	for i, x := range xs {
		up[i] = x
		if x != nil && x.DType().IsHalf() {
			up[i] = x.AsType(Float32)
		}
	}
	return up
}

// SetFloat32MatmulPrecision sets how Float32 matrix products (MatMul,
// Linear, the attention's products) and convolutions run on a CUDA GPU,
// as torch.set_float32_matmul_precision does, process wide:
//
//   - "highest" (the default): in float32 throughout;
//   - "high": on TF32 tensor cores (Ampere and newer GPUs), cuBLAS and
//     cuDNN rounding the inputs to TF32's 10 mantissa bits and summing in
//     float32: several times faster, about 3 decimal digits per input;
//   - "medium": as "high" (PyTorch may also use bfloat16 there).
//
// On the CPU it changes nothing: the CPU has no TF32 and computes in
// float32 always. (PyTorch also sets cuDNN's TF32 use apart, with
// torch.backends.cudnn.allow_tf32, true by default; here one switch
// covers both.) The emulated CUDA device models TF32 by rounding the
// inputs. It panics with a *ValueError for another name.
//
//	tensor.SetFloat32MatmulPrecision("high")
func SetFloat32MatmulPrecision(precision string) {
	p, ok := map[string]backend.Precision{"highest": backend.Highest, "high": backend.High, "medium": backend.Medium}[precision]
	if !ok {
		panic(valueErr("SetFloat32MatmulPrecision", `use "highest", "high" or "medium"`, "unknown precision %q", precision))
	}
	backend.SetFloat32Precision(p)
}

// Float32MatmulPrecision returns the precision SetFloat32MatmulPrecision
// set: "highest" (the default), "high" or "medium".
func Float32MatmulPrecision() string {
	return [...]string{"highest", "high", "medium"}[backend.Float32Precision()]
}
