package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// grainElems is the smallest number of elements worth handing to another
// goroutine in elementwise and reduction kernels.
const grainElems = 1 << 15

// Storage is the CPU backend's Storage: one Go slice, of the field that
// matches dtype.
type Storage struct {
	dtype DType
	f32   []float32
	f64   []float64
	i64   []int64
	b     []bool
	bf16  []backend.BF16
	f16   []backend.F16
}

func (s *Storage) DType() DType { return s.dtype }

func (s *Storage) Len() int {
	switch s.dtype {
	case Float32:
		return len(s.f32)
	case Float64:
		return len(s.f64)
	case Int64:
		return len(s.i64)
	case BFloat16:
		return len(s.bf16)
	case Float16:
		return len(s.f16)
	}
	return len(s.b)
}

// At returns element i of the storage (from its start, whatever the
// layout) as a float64.
func (s *Storage) At(i int) float64 {
	switch s.dtype {
	case Float32:
		return float64(s.f32[i])
	case Float64:
		return s.f64[i]
	case Int64:
		return float64(s.i64[i])
	case BFloat16:
		return float64(s.bf16[i].Float32())
	case Float16:
		return float64(s.f16[i].Float32())
	}
	if s.b[i] {
		return 1
	}
	return 0
}

// Set stores v as element i, converted to the storage's dtype (for Bool,
// v != 0).
func (s *Storage) Set(i int, v float64) {
	switch s.dtype {
	case Float32:
		s.f32[i] = float32(v)
	case Float64:
		s.f64[i] = v
	case Int64:
		s.i64[i] = int64(v)
	case Bool:
		s.b[i] = v != 0
	case BFloat16:
		s.bf16[i] = backend.BF16FromFloat32(float32(v))
	case Float16:
		s.f16[i] = backend.F16FromFloat32(float32(v))
	}
}

func newStorage(dt DType, n int) *Storage {
	checkHostAlloc(int64(n) * int64(dt.Size()))
	s := &Storage{dtype: dt}
	switch dt {
	case Float32:
		s.f32 = make([]float32, n)
	case Float64:
		s.f64 = make([]float64, n)
	case Int64:
		s.i64 = make([]int64, n)
	case Bool:
		s.b = make([]bool, n)
	case BFloat16:
		s.bf16 = make([]backend.BF16, n)
	case Float16:
		s.f16 = make([]backend.F16, n)
	default:
		panic(fmt.Sprintf("tensor: invalid dtype %d", dt))
	}
	return s
}

// Backend implements backend.Backend with Go slices.
type Backend struct{}

func store(s backend.Storage) *Storage {
	cs, ok := s.(*Storage)
	if !ok {
		panic(fmt.Sprintf("tensor: CPU backend got storage of another backend (%T)", s))
	}
	return cs
}

func (Backend) Alloc(dt DType, n int) backend.Storage { return newStorage(dt, n) }

func (Backend) FromHost(data any) backend.Storage {
	switch v := data.(type) {
	case []float32:
		return &Storage{dtype: Float32, f32: v}
	case []float64:
		return &Storage{dtype: Float64, f64: v}
	case []int64:
		return &Storage{dtype: Int64, i64: v}
	case []bool:
		return &Storage{dtype: Bool, b: v}
	case []backend.BF16:
		return &Storage{dtype: BFloat16, bf16: v}
	case []backend.F16:
		return &Storage{dtype: Float16, f16: v}
	}
	panic(fmt.Sprintf("tensor: FromHost: unsupported host data %T", data))
}

func (b Backend) ToHost(s backend.Storage, l backend.Layout) any {
	out := store(b.contiguous(s, l))
	switch out.dtype {
	case Float32:
		return out.f32
	case Float64:
		return out.f64
	case Int64:
		return out.i64
	case BFloat16:
		return out.bf16
	case Float16:
		return out.f16
	}
	return out.b
}

// contiguous returns a new contiguous copy of s under l.
func (b Backend) contiguous(s backend.Storage, l backend.Layout) backend.Storage {
	out := newStorage(s.DType(), l.Numel())
	b.Copy(s, l, out, backend.Contiguous(l.Shape))
	return out
}

// flat returns the elements of s under l as a contiguous slice storage and
// offset: s itself when l is contiguous, a copy otherwise.
func (b Backend) flat(s backend.Storage, l backend.Layout) (*Storage, int) {
	if l.IsContiguous() {
		return store(s), l.Offset
	}
	return store(b.contiguous(s, l)), 0
}

func (Backend) Copy(src backend.Storage, sl backend.Layout, dst backend.Storage, dl backend.Layout) {
	s, d := store(src), store(dst)
	switch s.dtype {
	case Float32:
		copyStrided(d.f32, dl, s.f32, sl)
	case Float64:
		copyStrided(d.f64, dl, s.f64, sl)
	case Int64:
		copyStrided(d.i64, dl, s.i64, sl)
	case Bool:
		copyStrided(d.b, dl, s.b, sl)
	case BFloat16:
		copyStrided(d.bf16, dl, s.bf16, sl)
	case Float16:
		copyStrided(d.f16, dl, s.f16, sl)
	}
}

func copyStrided[T any](dst []T, dl backend.Layout, src []T, sl backend.Layout) {
	n := dl.Numel()
	if n == 0 {
		return
	}
	if dl.IsContiguous() && sl.IsContiguous() {
		d, s := dst[dl.Offset:dl.Offset+n], src[sl.Offset:sl.Offset+n]
		parallelFor(n, 4*grainElems, func(lo, hi int) { copy(d[lo:hi], s[lo:hi]) })
		return
	}
	it := newIterRuns(dl.Shape, dl, sl)
	ds, ss := it.istr[0], it.istr[1]
	if copyTransposed(dst, src, it) {
		return
	}
	parallelFor(n, grainElems, func(lo, hi int) {
		it.each(lo, hi, func(_ int, offs []int, n int) {
			do, so := offs[0], offs[1]
			if ds == 1 && ss == 1 {
				copy(dst[do:do+n], src[so:so+n])
				return
			}
			for i := 0; i < n; i++ {
				dst[do] = src[so]
				do += ds
				so += ss
			}
		})
	})
}

// copyTransposed copies in square tiles when dst is contiguous and src
// is its transpose in the two innermost dims (src's rows run along dst's
// columns), as when a transposed gradient is made contiguous; element by
// element, every read would touch a new cache line. It reports whether
// the layouts had that form.
func copyTransposed[T any](dst, src []T, it *iterRuns) bool {
	const tile = 32
	nd := len(it.shape)
	if nd == 0 || it.istr[0] != 1 || it.istr[1] == 1 || it.inner < tile {
		return false
	}
	rows, cols := it.shape[nd-1], it.inner
	if rows < tile || it.strides[1][nd-1] != 1 || it.strides[0][nd-1] != cols {
		return false
	}
	// dst[o + r*cols + c] = src[so + r + c*cs] for each outer index.
	cs := it.istr[1]
	oshape, ods, oss := it.shape[:nd-1], it.strides[0][:nd-1], it.strides[1][:nd-1]
	rowTiles := (rows + tile - 1) / tile
	parallelFor(backend.Numel(oshape)*rowTiles, max(1, grainElems/(tile*cols)), func(lo, hi int) {
		for w := lo; w < hi; w++ {
			o, rt := w/rowTiles, w%rowTiles
			do := it.offsets[0] + offsetOf(o, oshape, ods)
			so := it.offsets[1] + offsetOf(o, oshape, oss)
			r0, r1 := rt*tile, min(rt*tile+tile, rows)
			for c0 := 0; c0 < cols; c0 += tile {
				c1 := min(c0+tile, cols)
				for r := r0; r < r1; r++ {
					d := dst[do+r*cols+c0 : do+r*cols+c1]
					sp := so + r + c0*cs
					for c := range d {
						d[c] = src[sp]
						sp += cs
					}
				}
			}
		}
	})
	return true
}

func (b Backend) Cast(s backend.Storage, l backend.Layout, dt DType) backend.Storage {
	src, off := b.flat(s, l)
	n := l.Numel()
	out := newStorage(dt, n)
	parallelFor(n, grainElems, func(lo, hi int) { castRange(out, src, off, lo, hi) })
	return out
}

// castRange converts src[off+lo : off+hi] into dst[lo:hi].
func castRange(dst, src *Storage, off, lo, hi int) {
	a, z := off+lo, off+hi
	switch src.dtype {
	case Float32:
		castTo(dst, src.f32[a:z], lo, hi)
	case Float64:
		castTo(dst, src.f64[a:z], lo, hi)
	case Int64:
		castTo(dst, src.i64[a:z], lo, hi)
	case Bool:
		s := src.b[a:z]
		switch dst.dtype {
		case Float32:
			boolTo(dst.f32[lo:hi], s)
		case Float64:
			boolTo(dst.f64[lo:hi], s)
		case Int64:
			boolTo(dst.i64[lo:hi], s)
		case Bool:
			copy(dst.b[lo:hi], s)
		case BFloat16:
			boolToBits(dst.bf16[lo:hi], s, 0x3f80) // 1 in bfloat16
		case Float16:
			boolToBits(dst.f16[lo:hi], s, 0x3c00) // 1 in float16
		}
	case BFloat16, Float16:
		// Through float32, which holds every 16-bit float exactly.
		f := make([]float32, hi-lo)
		if src.dtype == BFloat16 {
			for i, v := range src.bf16[a:z] {
				f[i] = v.Float32()
			}
		} else {
			for i, v := range src.f16[a:z] {
				f[i] = v.Float32()
			}
		}
		castTo(dst, f, lo, hi)
	}
}

func castTo[S number](dst *Storage, s []S, lo, hi int) {
	switch dst.dtype {
	case Float32:
		convert(dst.f32[lo:hi], s)
	case Float64:
		convert(dst.f64[lo:hi], s)
	case Int64:
		convert(dst.i64[lo:hi], s)
	case Bool:
		d := dst.b[lo:hi]
		for i, v := range s {
			d[i] = v != 0
		}
	case BFloat16:
		// Through float32 first, as PyTorch converts (float64 is rounded
		// twice).
		d := dst.bf16[lo:hi]
		for i, v := range s {
			d[i] = backend.BF16FromFloat32(float32(v))
		}
	case Float16:
		d := dst.f16[lo:hi]
		for i, v := range s {
			d[i] = backend.F16FromFloat32(float32(v))
		}
	}
}

func convert[D, S number](d []D, s []S) {
	d = d[:len(s)]
	for i, v := range s {
		d[i] = D(v)
	}
}

// boolToBits sets d[i] to one where s[i] and to 0 elsewhere.
func boolToBits[D backend.BF16 | backend.F16](d []D, s []bool, one D) {
	d = d[:len(s)]
	for i, v := range s {
		d[i] = 0
		if v {
			d[i] = one
		}
	}
}

func boolTo[D number](d []D, s []bool) {
	d = d[:len(s)]
	for i, v := range s {
		if v {
			d[i] = 1
		} else {
			d[i] = 0
		}
	}
}

func (Backend) Fill(dst backend.Storage, dl backend.Layout, v float64) {
	d := store(dst)
	switch d.dtype {
	case Float32:
		fillStrided(d.f32, dl, float32(v))
	case Float64:
		fillStrided(d.f64, dl, v)
	case Int64:
		fillStrided(d.i64, dl, int64(v))
	case Bool:
		fillStrided(d.b, dl, v != 0)
	case BFloat16:
		fillStrided(d.bf16, dl, backend.BF16FromFloat32(float32(v)))
	case Float16:
		fillStrided(d.f16, dl, backend.F16FromFloat32(float32(v)))
	}
}

func fillStrided[T any](dst []T, dl backend.Layout, v T) {
	n := dl.Numel()
	if n == 0 {
		return
	}
	it := newIterRuns(dl.Shape, dl)
	st := it.istr[0]
	parallelFor(n, grainElems, func(lo, hi int) {
		it.each(lo, hi, func(_ int, offs []int, n int) {
			o := offs[0]
			if st == 1 {
				d := dst[o : o+n]
				for i := range d {
					d[i] = v
				}
				return
			}
			for i := 0; i < n; i++ {
				dst[o] = v
				o += st
			}
		})
	})
}

func (Backend) Arange(dt DType, n int, start, step float64) backend.Storage {
	s := newStorage(dt, n)
	for i := 0; i < n; i++ {
		s.Set(i, start+float64(i)*step)
	}
	return s
}

func (Backend) Random(dist backend.Distribution, dt DType, n int, a, b float64, seed uint64) backend.Storage {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	s := newStorage(dt, n)
	for i := 0; i < n; i++ {
		var v float64
		switch dist {
		case backend.Uniform:
			if dt == Float32 {
				f := float32(a) + float32(b-a)*r.Float32()
				if f >= float32(b) {
					f = math.Nextafter32(float32(b), float32(a))
				}
				s.f32[i] = f
				continue
			}
			v = a + (b-a)*r.Float64()
		case backend.Normal:
			v = a + b*r.NormFloat64()
		case backend.IntUniform:
			k := int64(a) + r.Int64N(int64(b)-int64(a))
			if dt == Int64 {
				s.i64[i] = k
				continue
			}
			v = float64(k)
		}
		s.Set(i, v)
	}
	return s
}

// slice32 returns s's float32 elements, nil for a nil s.
func (s *Storage) slice32() []float32 {
	if s == nil {
		return nil
	}
	return s.f32
}

// slice64 returns s's float64 elements, nil for a nil s.
func (s *Storage) slice64() []float64 {
	if s == nil {
		return nil
	}
	return s.f64
}

// orNil returns s as a backend.Storage, a nil interface for a nil s.
func (s *Storage) orNil() backend.Storage {
	if s == nil {
		return nil
	}
	return s
}
