package cpu

import (
	"math"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

func (b Backend) Unary(op backend.UnaryOp, s backend.Storage, l backend.Layout) backend.Storage {
	n := l.Numel()
	src, off := b.flat(s, l)
	out := newStorage(src.dtype, n)
	parallelFor(n, grainElems, func(lo, hi int) {
		switch src.dtype {
		case Float32:
			unaryF32(op, out.f32[lo:hi], src.f32[off+lo:off+hi])
		case Float64:
			unaryFloat(op, out.f64[lo:hi], src.f64[off+lo:off+hi])
		case Int64:
			unaryInt(op, out.i64[lo:hi], src.i64[off+lo:off+hi])
		default:
			panic("tensor: Unary on " + src.dtype.String())
		}
	})
	return out
}

// unaryF32 has tight float32 loops for the ops that are hot in training
// and falls back to float64 math for the rest.
func unaryF32(op backend.UnaryOp, dst, src []float32) {
	dst = dst[:len(src)]
	switch op {
	case backend.OpExp:
		if !simdExpF32(dst, src) {
			expSlice(dst, src)
		}
	case backend.OpSigmoid:
		if !simdSigmoidF32(dst, src) {
			sigmoidSlice(dst, src)
		}
	case backend.OpTanh:
		if !simdTanhF32(dst, src) {
			tanhSlice(dst, src)
		}
	case backend.OpSqrt:
		for i, v := range src {
			dst[i] = float32(math.Sqrt(float64(v)))
		}
	case backend.OpReLU:
		if !simdReluF32(dst, src) {
			reluSlice(dst, src)
		}
	default:
		unaryFloat(op, dst, src)
	}
}

// reluSlice sets dst[i] = max(src[i], 0). Go's max keeps NaN, as
// torch.relu does, and compiles without a data-dependent branch. (A loop
// of its own: inside unaryFloat's big switch the slices live on the
// stack.)
func reluSlice[T float](dst, src []T) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = max(v, 0)
	}
}

func unaryFloat[T float](op backend.UnaryOp, dst, src []T) {
	dst = dst[:len(src)]
	switch op {
	case backend.OpNeg:
		for i, v := range src {
			dst[i] = -v
		}
	case backend.OpAbs:
		for i, v := range src {
			dst[i] = T(math.Abs(float64(v)))
		}
	case backend.OpReLU:
		reluSlice(dst, src)
	case backend.OpSqrt:
		for i, v := range src {
			dst[i] = T(math.Sqrt(float64(v)))
		}
	case backend.OpExp:
		for i, v := range src {
			dst[i] = T(math.Exp(float64(v)))
		}
	case backend.OpLog:
		for i, v := range src {
			dst[i] = T(math.Log(float64(v)))
		}
	case backend.OpSin:
		for i, v := range src {
			dst[i] = T(math.Sin(float64(v)))
		}
	case backend.OpCos:
		for i, v := range src {
			dst[i] = T(math.Cos(float64(v)))
		}
	case backend.OpTanh:
		for i, v := range src {
			dst[i] = T(math.Tanh(float64(v)))
		}
	case backend.OpSigmoid:
		for i, v := range src {
			dst[i] = T(sigmoid64(float64(v)))
		}
	case backend.OpGELU:
		for i, v := range src {
			dst[i] = T(gelu(float64(v)))
		}
	case backend.OpErf:
		for i, v := range src {
			dst[i] = T(math.Erf(float64(v)))
		}
	default:
		panic("tensor: unknown unary op")
	}
}

func unaryInt(op backend.UnaryOp, dst, src []int64) {
	dst = dst[:len(src)]
	switch op {
	case backend.OpNeg:
		for i, v := range src {
			dst[i] = -v
		}
	case backend.OpAbs:
		for i, v := range src {
			if v < 0 {
				v = -v
			}
			dst[i] = v
		}
	case backend.OpReLU:
		for i, v := range src {
			dst[i] = max(v, 0)
		}
	default:
		panic("tensor: unary op " + op.String() + " on int64")
	}
}

func (Backend) Binary(op backend.BinaryOp, a backend.Storage, la backend.Layout, b backend.Storage, lb backend.Layout) backend.Storage {
	as, bs := store(a), store(b)
	out := newStorage(as.dtype, la.Numel())
	switch as.dtype {
	case Float32:
		binaryKernel(op, out.f32, as.f32, la, bs.f32, lb)
	case Float64:
		binaryKernel(op, out.f64, as.f64, la, bs.f64, lb)
	case Int64:
		binaryKernel(op, out.i64, as.i64, la, bs.i64, lb)
	default:
		panic("tensor: Binary on " + as.dtype.String())
	}
	return out
}

func (Backend) BinaryScalar(op backend.BinaryOp, a backend.Storage, la backend.Layout, s float64, reversed bool) backend.Storage {
	as := store(a)
	out := newStorage(as.dtype, la.Numel())
	switch as.dtype {
	case Float32:
		scalarKernel(op, out.f32, as.f32, la, float32(s), reversed)
	case Float64:
		scalarKernel(op, out.f64, as.f64, la, s, reversed)
	case Int64:
		scalarKernel(op, out.i64, as.i64, la, int64(s), reversed)
	default:
		panic("tensor: BinaryScalar on " + as.dtype.String())
	}
	return out
}

// binaryKernel writes op(a, b) into the contiguous dst.
func binaryKernel[T number](op backend.BinaryOp, dst, a []T, la backend.Layout, b []T, lb backend.Layout) {
	n := len(dst)
	if n == 0 {
		return
	}
	if la.IsContiguous() && lb.IsContiguous() {
		a, b := a[la.Offset:la.Offset+n], b[lb.Offset:lb.Offset+n]
		parallelFor(n, grainElems, func(lo, hi int) {
			binRun(op, dst[lo:hi], a[lo:hi], 0, 1, b[lo:hi], 0, 1)
		})
		return
	}
	it := newIterRuns(la.Shape, la, lb)
	sa, sb := it.istr[0], it.istr[1]
	parallelFor(n, grainElems, func(lo, hi int) {
		it.each(lo, hi, func(pos int, offs []int, k int) {
			binRun(op, dst[pos:pos+k], a, offs[0], sa, b, offs[1], sb)
		})
	})
}

func scalarKernel[T number](op backend.BinaryOp, dst, a []T, la backend.Layout, s T, reversed bool) {
	n := len(dst)
	if n == 0 {
		return
	}
	sv := []T{s}
	run := func(d []T, ao, as int) {
		if reversed {
			binRun(op, d, sv, 0, 0, a, ao, as)
		} else {
			binRun(op, d, a, ao, as, sv, 0, 0)
		}
	}
	if la.IsContiguous() {
		parallelFor(n, grainElems, func(lo, hi int) { run(dst[lo:hi], la.Offset+lo, 1) })
		return
	}
	it := newIterRuns(la.Shape, la)
	sa := it.istr[0]
	parallelFor(n, grainElems, func(lo, hi int) {
		it.each(lo, hi, func(pos int, offs []int, k int) { run(dst[pos:pos+k], offs[0], sa) })
	})
}

// binRun computes dst[i] = op(a[ao+i*as], b[bo+i*bs]) with tight loops for
// the contiguous and scalar-broadcast cases of the common ops.
func binRun[T number](op backend.BinaryOp, dst, a []T, ao, as int, b []T, bo, bs int) {
	n := len(dst)
	if n >= simdMin && simdBinary(op, dst, a[ao:], as, b[bo:], bs) {
		return
	}
	switch {
	case as == 1 && bs == 1:
		a, b := a[ao:ao+n], b[bo:bo+n]
		switch op {
		case backend.OpAdd:
			for i := range dst {
				dst[i] = a[i] + b[i]
			}
		case backend.OpSub:
			for i := range dst {
				dst[i] = a[i] - b[i]
			}
		case backend.OpMul:
			for i := range dst {
				dst[i] = a[i] * b[i]
			}
		case backend.OpDiv:
			for i := range dst {
				dst[i] = a[i] / b[i]
			}
		default:
			for i := range dst {
				dst[i] = binOne(op, a[i], b[i])
			}
		}
		return
	case as == 1 && bs == 0:
		a, s := a[ao:ao+n], b[bo]
		switch op {
		case backend.OpAdd:
			for i := range dst {
				dst[i] = a[i] + s
			}
		case backend.OpSub:
			for i := range dst {
				dst[i] = a[i] - s
			}
		case backend.OpMul:
			for i := range dst {
				dst[i] = a[i] * s
			}
		case backend.OpDiv:
			for i := range dst {
				dst[i] = a[i] / s
			}
		default:
			for i := range dst {
				dst[i] = binOne(op, a[i], s)
			}
		}
		return
	case as == 0 && bs == 1:
		s, b := a[ao], b[bo:bo+n]
		switch op {
		case backend.OpAdd:
			for i := range dst {
				dst[i] = s + b[i]
			}
		case backend.OpSub:
			for i := range dst {
				dst[i] = s - b[i]
			}
		case backend.OpMul:
			for i := range dst {
				dst[i] = s * b[i]
			}
		case backend.OpDiv:
			for i := range dst {
				dst[i] = s / b[i]
			}
		default:
			for i := range dst {
				dst[i] = binOne(op, s, b[i])
			}
		}
		return
	}
	for i := range dst {
		dst[i] = binOne(op, a[ao], b[bo])
		ao += as
		bo += bs
	}
}

// binOne applies op to one pair of elements.
func binOne[T number](op backend.BinaryOp, x, y T) T {
	switch op {
	case backend.OpAdd:
		return x + y
	case backend.OpSub:
		return x - y
	case backend.OpMul:
		return x * y
	case backend.OpDiv:
		return x / y
	case backend.OpPow:
		return powT(x, y)
	case backend.OpMaximum:
		if x != x || x > y {
			return x
		}
		return y
	case backend.OpMinimum:
		if x != x || x < y {
			return x
		}
		return y
	}
	panic("tensor: unknown binary op")
}

func powT[T number](x, y T) T {
	switch any(x).(type) {
	case int64:
		return T(ipow(int64(x), int64(y)))
	case float32:
		if y == 2 {
			return x * x
		}
		return T(math.Pow(float64(x), float64(y)))
	}
	if y == 2 {
		return x * x
	}
	return T(math.Pow(float64(x), float64(y)))
}

func (Backend) Compare(op backend.CompareOp, a backend.Storage, la backend.Layout, b backend.Storage, lb backend.Layout) backend.Storage {
	as, bs := store(a), store(b)
	out := newStorage(Bool, la.Numel())
	switch as.dtype {
	case Float32:
		compareKernel(op, out.b, as.f32, la, bs.f32, lb)
	case Float64:
		compareKernel(op, out.b, as.f64, la, bs.f64, lb)
	case Int64:
		compareKernel(op, out.b, as.i64, la, bs.i64, lb)
	default:
		panic("tensor: Compare on " + as.dtype.String())
	}
	return out
}

func compareKernel[T number](op backend.CompareOp, dst []bool, a []T, la backend.Layout, b []T, lb backend.Layout) {
	n := len(dst)
	if n == 0 {
		return
	}
	it := newIterRuns(la.Shape, la, lb)
	sa, sb := it.istr[0], it.istr[1]
	parallelFor(n, grainElems, func(lo, hi int) {
		it.each(lo, hi, func(pos int, offs []int, k int) {
			d := dst[pos : pos+k]
			ao, bo := offs[0], offs[1]
			if sa == 1 && sb == 0 {
				compareScalarRun(op, d, a[ao:ao+k], b[bo])
				return
			}
			switch op {
			case backend.OpEq:
				for i := range d {
					d[i] = a[ao] == b[bo]
					ao += sa
					bo += sb
				}
			case backend.OpNe:
				for i := range d {
					d[i] = a[ao] != b[bo]
					ao += sa
					bo += sb
				}
			case backend.OpLt:
				for i := range d {
					d[i] = a[ao] < b[bo]
					ao += sa
					bo += sb
				}
			case backend.OpLe:
				for i := range d {
					d[i] = a[ao] <= b[bo]
					ao += sa
					bo += sb
				}
			case backend.OpGt:
				for i := range d {
					d[i] = a[ao] > b[bo]
					ao += sa
					bo += sb
				}
			case backend.OpGe:
				for i := range d {
					d[i] = a[ao] >= b[bo]
					ao += sa
					bo += sb
				}
			}
		})
	})
}

// compareScalarRun sets d[i] = op(a[i], s): a contiguous run against one
// value, as in x.GtScalar(0).
func compareScalarRun[T number](op backend.CompareOp, d []bool, a []T, s T) {
	a = a[:len(d)]
	if a32, ok := any(a).([]float32); ok && simdCompareScalarF32(op, d, a32, any(s).(float32)) {
		return
	}
	switch op {
	case backend.OpEq:
		for i, v := range a {
			d[i] = v == s
		}
	case backend.OpNe:
		for i, v := range a {
			d[i] = v != s
		}
	case backend.OpLt:
		for i, v := range a {
			d[i] = v < s
		}
	case backend.OpLe:
		for i, v := range a {
			d[i] = v <= s
		}
	case backend.OpGt:
		for i, v := range a {
			d[i] = v > s
		}
	case backend.OpGe:
		for i, v := range a {
			d[i] = v >= s
		}
	}
}

func (Backend) Where(cond backend.Storage, lc backend.Layout, a backend.Storage, la backend.Layout, b backend.Storage, lb backend.Layout) backend.Storage {
	cs, as, bs := store(cond), store(a), store(b)
	out := newStorage(as.dtype, la.Numel())
	switch as.dtype {
	case Float32:
		whereKernel(out.f32, cs.b, lc, as.f32, la, bs.f32, lb)
	case Float64:
		whereKernel(out.f64, cs.b, lc, as.f64, la, bs.f64, lb)
	case Int64:
		whereKernel(out.i64, cs.b, lc, as.i64, la, bs.i64, lb)
	case Bool:
		whereKernel(out.b, cs.b, lc, as.b, la, bs.b, lb)
	}
	return out
}

func whereKernel[T any](dst []T, c []bool, lc backend.Layout, a []T, la backend.Layout, b []T, lb backend.Layout) {
	n := len(dst)
	if n == 0 {
		return
	}
	it := newIterRuns(la.Shape, lc, la, lb)
	sc, sa, sb := it.istr[0], it.istr[1], it.istr[2]
	parallelFor(n, grainElems, func(lo, hi int) {
		it.each(lo, hi, func(pos int, offs []int, k int) {
			co, ao, bo := offs[0], offs[1], offs[2]
			d := dst[pos : pos+k]
			if sc == 1 && (sa == 1 || sa == 0) && (sb == 1 || sb == 0) {
				if d32, ok := any(d).([]float32); ok {
					whereF32Run(d32, c[co:co+k], any(a).([]float32)[ao:], sa, any(b).([]float32)[bo:], sb)
					return
				}
			}
			for i := range d {
				if c[co] {
					d[i] = a[ao]
				} else {
					d[i] = b[bo]
				}
				co += sc
				ao += sa
				bo += sb
			}
		})
	})
}

// whereF32Run sets d[i] = c[i] ? a[i*sa] : b[i*sb] for a contiguous
// condition and operands that are contiguous (stride 1) or one repeated
// value (stride 0), selecting bits without branches: a ReLU mask is as
// unpredictable as its input's signs.
func whereF32Run(d []float32, c []bool, a []float32, sa int, b []float32, sb int) {
	if simdWhereF32(d, c, a, sa, b, sb) {
		return
	}
	c = c[:len(d)]
	switch {
	case sa == 1 && sb == 1:
		a, b = a[:len(d)], b[:len(d)]
		for i := range d {
			m := -uint32(boolByte(c[i]))
			d[i] = math.Float32frombits(math.Float32bits(a[i])&m | math.Float32bits(b[i])&^m)
		}
	case sa == 1 && sb == 0:
		a, bv := a[:len(d)], math.Float32bits(b[0])
		for i := range d {
			m := -uint32(boolByte(c[i]))
			d[i] = math.Float32frombits(math.Float32bits(a[i])&m | bv&^m)
		}
	case sa == 0 && sb == 1:
		av, b := math.Float32bits(a[0]), b[:len(d)]
		for i := range d {
			m := -uint32(boolByte(c[i]))
			d[i] = math.Float32frombits(av&m | math.Float32bits(b[i])&^m)
		}
	default:
		av, bv := math.Float32bits(a[0]), math.Float32bits(b[0])
		for i := range d {
			m := -uint32(boolByte(c[i]))
			d[i] = math.Float32frombits(av&m | bv&^m)
		}
	}
}

// boolByte returns 1 for true and 0 for false; the compiler turns it into
// a SETcc, without a branch.
func boolByte(b bool) uint8 {
	var u uint8
	if b {
		u = 1
	}
	return u
}
