package cpu

import (
	"math"
	"runtime"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// offsetOf returns the storage offset of flat index i over (shape, strides).
func offsetOf(i int, shape, strides []int) int {
	o := 0
	for d := len(shape) - 1; d >= 0; d-- {
		o += (i % shape[d]) * strides[d]
		i /= shape[d]
	}
	return o
}

func (Backend) Reduce(op backend.ReduceOp, s backend.Storage, l backend.Layout, dims []int) backend.Storage {
	src := store(s)
	p := backend.SplitReduce(l, dims)
	out := newStorage(src.dtype, p.NumOut)
	switch src.dtype {
	case Float32:
		reduceKernel(op, out.f32, src.f32, p)
	case Float64:
		reduceKernel(op, out.f64, src.f64, p)
	case Int64:
		reduceKernel(op, out.i64, src.i64, p)
	default:
		panic("tensor: Reduce on " + src.dtype.String())
	}
	return out
}

func reduceKernel[T number](op backend.ReduceOp, dst, src []T, p backend.Reduction) {
	if p.NumOut == 0 {
		return
	}
	if p.NumReduced == 0 {
		// Sum over nothing is 0; the front end rejects Max/Min here.
		return
	}
	nr := len(p.ReducedShape)
	innerRed := nr > 0 && p.ReducedStrides[nr-1] == 1
	nk := len(p.KeptShape)
	innerKept := nk > 0 && p.KeptStrides[nk-1] == 1 && !innerRed

	switch {
	case innerRed && p.NumOut == 1 && nr == 1:
		// One contiguous run reduced to one value: split it over workers.
		n := p.ReducedShape[0]
		src := src[p.Offset : p.Offset+n]
		workers := runtime.GOMAXPROCS(0)
		if n < 4*grainElems || workers == 1 {
			dst[0] = reduceContig(op, src)
			return
		}
		parts := make([]T, workers)
		chunk := (n + workers - 1) / workers
		parallelFor(workers, 1, func(lo, hi int) {
			for w := lo; w < hi; w++ {
				a, z := min(w*chunk, n), min((w+1)*chunk, n)
				if a < z {
					parts[w] = reduceContig(op, src[a:z])
				} else {
					parts[w] = identity[T](op)
				}
			}
		})
		dst[0] = reduceContig(op, parts)
	case innerRed:
		// Each output reduces runs that are contiguous in memory.
		run := p.ReducedShape[nr-1]
		outer := p.NumReduced / run
		oshape, ostr := p.ReducedShape[:nr-1], p.ReducedStrides[:nr-1]
		grain := max(1, grainElems/p.NumReduced)
		parallelFor(p.NumOut, grain, func(lo, hi int) {
			for o := lo; o < hi; o++ {
				base := p.Offset + offsetOf(o, p.KeptShape, p.KeptStrides)
				acc := identity[T](op)
				var acc64 float64
				for r := 0; r < outer; r++ {
					b := base + offsetOf(r, oshape, ostr)
					v := reduceContig(op, src[b:b+run])
					if op == backend.OpSum {
						acc64 += float64(v)
						if _, isInt := any(v).(int64); isInt {
							acc += v
						}
					} else {
						acc = combine(op, acc, v)
					}
				}
				if op == backend.OpSum {
					if _, isInt := any(acc).(int64); !isInt {
						acc = T(acc64)
					}
				}
				dst[o] = acc
			}
		})
	case innerKept:
		// The innermost kept dim is contiguous: accumulate whole rows.
		run := p.KeptShape[nk-1]
		outer := p.NumOut / run
		oshape, ostr := p.KeptShape[:nk-1], p.KeptStrides[:nk-1]
		// Columns go in chunks of up to 4096 (split further so that every
		// worker gets one), each summed over all reduced rows.
		cw := min(run, 4096)
		if w := runtime.GOMAXPROCS(0); outer*((run+cw-1)/cw) < w {
			cw = max(64, (run+w-1)/w)
		}
		chunks := (run + cw - 1) / cw
		parallelFor(outer*chunks, max(1, grainElems/(cw*p.NumReduced)), func(lo, hi int) {
			acc := make([]float64, cw)
			for w := lo; w < hi; w++ {
				o, c := w/chunks, w%chunks
				a, z := c*cw, min(c*cw+cw, run)
				if a >= z {
					continue
				}
				d := dst[o*run+a : o*run+z]
				base := p.Offset + offsetOf(o, oshape, ostr) + a
				rowAccumulate(op, d, acc[:z-a], src, base, p.ReducedShape, p.ReducedStrides)
			}
		})
	default:
		grain := max(1, grainElems/p.NumReduced)
		parallelFor(p.NumOut, grain, func(lo, hi int) {
			for o := lo; o < hi; o++ {
				base := p.Offset + offsetOf(o, p.KeptShape, p.KeptStrides)
				acc := identity[T](op)
				var acc64 float64
				for r := 0; r < p.NumReduced; r++ {
					v := src[base+offsetOf(r, p.ReducedShape, p.ReducedStrides)]
					if op == backend.OpSum {
						acc64 += float64(v)
						acc += v
					} else {
						acc = combine(op, acc, v)
					}
				}
				if _, isInt := any(acc).(int64); op == backend.OpSum && !isInt {
					acc = T(acc64)
				}
				dst[o] = acc
			}
		})
	}
}

// accRows4 adds (r0 + r1) + (r2 + r3), in T, to acc.
func accRows4[T number](acc []float64, r0, r1, r2, r3 []T) {
	r0, r1, r2, r3 = r0[:len(acc)], r1[:len(acc)], r2[:len(acc)], r3[:len(acc)]
	for i := range acc {
		acc[i] += float64((r0[i] + r1[i]) + (r2[i] + r3[i]))
	}
}

// rowAccumulate reduces src rows of len(d) at base + each reduced offset
// into d, using acc as float64 scratch for sums.
func rowAccumulate[T number](op backend.ReduceOp, d []T, acc []float64, src []T, base int, rshape, rstr []int) {
	n := len(d)
	redN := backend.Numel(rshape)
	_, isInt := any(d[0]).(int64)
	if op == backend.OpSum && !isInt {
		clear(acc)
		acc = acc[:n]
		r := 0
		// Four rows at a time: add them in T, accumulate in float64.
		for ; r+4 <= redN; r += 4 {
			r0 := src[base+offsetOf(r, rshape, rstr):][:n]
			r1 := src[base+offsetOf(r+1, rshape, rstr):][:n]
			r2 := src[base+offsetOf(r+2, rshape, rstr):][:n]
			r3 := src[base+offsetOf(r+3, rshape, rstr):][:n]
			if a32, ok := any(r0).([]float32); ok && simdAccRows4F32(acc, a32, any(r1).([]float32), any(r2).([]float32), any(r3).([]float32)) {
				continue
			}
			accRows4(acc, r0, r1, r2, r3)
		}
		for ; r < redN; r++ {
			row := src[base+offsetOf(r, rshape, rstr):][:n]
			for i, v := range row {
				acc[i] += float64(v)
			}
		}
		for i := range d {
			d[i] = T(acc[i])
		}
		return
	}
	copy(d, src[base+offsetOf(0, rshape, rstr):][:n])
	for r := 1; r < redN; r++ {
		row := src[base+offsetOf(r, rshape, rstr):][:n]
		switch op {
		case backend.OpSum:
			for i, v := range row {
				d[i] += v
			}
		case backend.OpMax:
			for i, v := range row {
				if v > d[i] || v != v {
					d[i] = v
				}
			}
		case backend.OpMin:
			for i, v := range row {
				if v < d[i] || v != v {
					d[i] = v
				}
			}
		}
	}
}

func identity[T number](op backend.ReduceOp) T {
	var z T
	switch op {
	case backend.OpMax:
		switch any(z).(type) {
		case int64:
			var v int64 = math.MinInt64
			return T(v)
		}
		return T(math.Inf(-1))
	case backend.OpMin:
		switch any(z).(type) {
		case int64:
			var v int64 = math.MaxInt64
			return T(v)
		}
		return T(math.Inf(1))
	}
	return z
}

func combine[T number](op backend.ReduceOp, acc, v T) T {
	switch op {
	case backend.OpSum:
		return acc + v
	case backend.OpMax:
		if v > acc || v != v {
			return v
		}
	case backend.OpMin:
		if v < acc || v != v {
			return v
		}
	}
	return acc
}

// reduceContig reduces a contiguous slice. Float sums add blocks of 256
// elements in eight float32/float64 lanes and the block sums in float64,
// which keeps float32 error near NumPy's pairwise sum.
func reduceContig[T number](op backend.ReduceOp, x []T) T {
	switch op {
	case backend.OpSum:
		if _, isInt := any(x[:0]).([]int64); isInt {
			var s T
			for _, v := range x {
				s += v
			}
			return s
		}
		if x32, ok := any(x).([]float32); ok {
			if s, ok := simdSumF32(x32); ok {
				return T(s)
			}
		}
		var total float64
		for len(x) >= 256 {
			blk := x[:256]
			var s0, s1, s2, s3, s4, s5, s6, s7 T
			for i := 0; i < 256; i += 8 {
				b := blk[i : i+8 : i+8]
				s0 += b[0]
				s1 += b[1]
				s2 += b[2]
				s3 += b[3]
				s4 += b[4]
				s5 += b[5]
				s6 += b[6]
				s7 += b[7]
			}
			total += float64((s0 + s1) + (s2 + s3) + ((s4 + s5) + (s6 + s7)))
			x = x[256:]
		}
		var s T
		for _, v := range x {
			s += v
		}
		return T(total + float64(s))
	case backend.OpMax, backend.OpMin:
		if x32, ok := any(x).([]float32); ok {
			if m, ok := simdExtremumF32(x32, op == backend.OpMin); ok {
				return T(m)
			}
		}
		if _, isInt := any(x[:0]).([]int64); !isInt && len(x) >= extremumLanes {
			return extremumLanesLoop(x, op == backend.OpMin)
		}
		// Sequentially: the first NaN, else the first extremum.
		m := x[0]
		for _, v := range x[1:] {
			if v != v {
				return v
			}
			if (op == backend.OpMax && v > m) || (op == backend.OpMin && v < m) {
				m = v
			}
		}
		return m
	}
	panic("tensor: unknown reduce op")
}

// extremumLanes is the number of running maxima (or minima) that the
// float Max and Min of a contiguous run keep, element i in lane i%8 (the C
// loop vectorizes them); the lanes are folded pairwise at the end. Among
// equal values (+0 and -0) the one kept may differ from a sequential scan.
const extremumLanes = 8

// extremumLanesLoop returns the maximum of x (the minimum when min is
// set), or its first NaN; len(x) >= extremumLanes.
func extremumLanesLoop[T number](x []T, min bool) T {
	var m [extremumLanes]T
	copy(m[:], x)
	nan := false
	better := func(v, cur T) bool {
		if min {
			return v < cur
		}
		return v > cur
	}
	i := extremumLanes
	for ; i+extremumLanes <= len(x); i += extremumLanes {
		for j := 0; j < extremumLanes; j++ {
			v := x[i+j]
			nan = nan || v != v
			if better(v, m[j]) {
				m[j] = v
			}
		}
	}
	for ; i < len(x); i++ {
		v := x[i]
		nan = nan || v != v
		if better(v, m[0]) {
			m[0] = v
		}
	}
	for j := range m {
		nan = nan || m[j] != m[j]
	}
	if nan {
		for _, v := range x {
			if v != v {
				return v
			}
		}
	}
	for w := extremumLanes / 2; w >= 1; w /= 2 {
		for j := 0; j < w; j++ {
			if better(m[j+w], m[j]) {
				m[j] = m[j+w]
			}
		}
	}
	return m[0]
}

func (Backend) ArgReduce(op backend.ReduceOp, s backend.Storage, l backend.Layout, dim int) backend.Storage {
	src := store(s)
	keptL := backend.Layout{Shape: cloneInts(l.Shape), Strides: l.Strides, Offset: l.Offset}
	keptL.Shape[dim] = 1
	outN := keptL.Numel()
	out := newStorage(Int64, outN)
	n, st := l.Shape[dim], l.Strides[dim]
	switch src.dtype {
	case Float32:
		argKernel(op, out.i64, src.f32, keptL, n, st)
	case Float64:
		argKernel(op, out.i64, src.f64, keptL, n, st)
	case Int64:
		argKernel(op, out.i64, src.i64, keptL, n, st)
	default:
		panic("tensor: ArgReduce on " + src.dtype.String())
	}
	return out
}

func argKernel[T number](op backend.ReduceOp, dst []int64, src []T, kl backend.Layout, n, st int) {
	if len(dst) == 0 {
		return
	}
	it := newIterRuns(kl.Shape, kl)
	ks := it.istr[0]
	parallelFor(len(dst), max(1, grainElems/max(n, 1)), func(lo, hi int) {
		it.each(lo, hi, func(pos int, offs []int, k int) {
			o := offs[0]
			for j := 0; j < k; j++ {
				best, bi := src[o], 0
				if best == best {
					p := o + st
					for i := 1; i < n; i++ {
						v := src[p]
						if v != v {
							bi = i
							break
						}
						if (op == backend.OpArgmax && v > best) || (op == backend.OpArgmin && v < best) {
							best, bi = v, i
						}
						p += st
					}
				}
				dst[pos+j] = int64(bi)
				o += ks
			}
		})
	})
}
