package cuda

import (
	"fmt"
	"unsafe"

	"github.com/gotensor/gotensor/kernels"
	"github.com/gotensor/gotensor/tensorlib/tensor"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// backend implements backend.Backend for one device. Each method does its
// work in one call of device.do.
type deviceBackend struct {
	dev *device
}

var _ backend.Backend = (*deviceBackend)(nil)

// Device returns CUDA(i).
func (b *deviceBackend) Device() tensor.Device { return tensor.CUDA(b.dev.index) }

// store returns s as this device's storage, or panics.
func (b *deviceBackend) store(s backend.Storage) *storage {
	cs, ok := s.(*storage)
	if !ok {
		panic(fmt.Sprintf("cuda: cuda:%d backend got storage of another backend (%T)", b.dev.index, s))
	}
	if cs.dev != b.dev {
		panic(fmt.Sprintf("cuda: cuda:%d backend got storage of cuda:%d", b.dev.index, cs.dev.index))
	}
	if cs.freed.Load() {
		panic(&tensor.DeviceError{Devices: []tensor.Device{b.Device()},
			Msg: "the tensor's device memory was freed (x.Free())",
			Fix: "do not use a tensor after freeing it; keep a copy (x.Clone()) if you need it"})
	}
	return cs
}

// Alloc returns n zero elements.
func (b *deviceBackend) Alloc(dt tensor.DType, n int) backend.Storage {
	var s *storage
	b.dev.do(func() { s = b.dev.zeroStorage(dt, n) })
	return s
}

// FromHost copies a host slice to the device.
func (b *deviceBackend) FromHost(data any) backend.Storage {
	var (
		dt  tensor.DType
		n   int
		ptr unsafe.Pointer
	)
	switch v := data.(type) {
	case []float32:
		dt, n = tensor.Float32, len(v)
		if n > 0 {
			ptr = unsafe.Pointer(&v[0])
		}
	case []float64:
		dt, n = tensor.Float64, len(v)
		if n > 0 {
			ptr = unsafe.Pointer(&v[0])
		}
	case []int64:
		dt, n = tensor.Int64, len(v)
		if n > 0 {
			ptr = unsafe.Pointer(&v[0])
		}
	case []backend.BF16:
		dt, n = tensor.BFloat16, len(v)
		if n > 0 {
			ptr = unsafe.Pointer(&v[0])
		}
	case []backend.F16:
		dt, n = tensor.Float16, len(v)
		if n > 0 {
			ptr = unsafe.Pointer(&v[0])
		}
	case []bool:
		dt, n = tensor.Bool, len(v)
		u := make([]byte, n)
		for i, x := range v {
			if x {
				u[i] = 1
			}
		}
		if n > 0 {
			ptr = unsafe.Pointer(&u[0])
		}
	default:
		panic(fmt.Sprintf("cuda: FromHost: unsupported host data %T", data))
	}
	var s *storage
	b.dev.do(func() {
		s = b.dev.newStorage(dt, n)
		if n > 0 {
			if err := b.dev.drv.MemcpyHtoD(s.ptr, ptr, n*elemSize(dt)); err != nil {
				b.dev.fail(err, fmt.Sprintf("copying %d bytes to the device", n*elemSize(dt)))
			}
		}
	})
	return s
}

// ToHost copies the elements of s under l to a new host slice.
func (b *deviceBackend) ToHost(s backend.Storage, l backend.Layout) any {
	src := b.store(s)
	n := l.Numel()
	var (
		out any
		ptr unsafe.Pointer
		u   []byte
	)
	switch src.dt {
	case tensor.Float32:
		v := make([]float32, n)
		out = v
		if n > 0 {
			ptr = unsafe.Pointer(&v[0])
		}
	case tensor.Float64:
		v := make([]float64, n)
		out = v
		if n > 0 {
			ptr = unsafe.Pointer(&v[0])
		}
	case tensor.Int64:
		v := make([]int64, n)
		out = v
		if n > 0 {
			ptr = unsafe.Pointer(&v[0])
		}
	case tensor.BFloat16:
		v := make([]backend.BF16, n)
		out = v
		if n > 0 {
			ptr = unsafe.Pointer(&v[0])
		}
	case tensor.Float16:
		v := make([]backend.F16, n)
		out = v
		if n > 0 {
			ptr = unsafe.Pointer(&v[0])
		}
	case tensor.Bool:
		u = make([]byte, n)
		if n > 0 {
			ptr = unsafe.Pointer(&u[0])
		}
	}
	if n > 0 {
		d := b.dev
		d.do(func() {
			c := src
			off := l.Offset
			if !l.IsContiguous() {
				c = d.contiguous(src, l)
				off = 0
				defer c.Free()
			}
			d.sync()
			if err := d.drv.MemcpyDtoH(ptr, c.at(off), n*elemSize(src.dt)); err != nil {
				d.fail(err, fmt.Sprintf("copying %d bytes from the device", n*elemSize(src.dt)))
			}
		})
	}
	if src.dt == tensor.Bool {
		v := make([]bool, n)
		for i, x := range u {
			v[i] = x != 0
		}
		return v
	}
	return out
}

// contiguous returns a new contiguous copy of s under l. Device goroutine
// only.
func (d *device) contiguous(s *storage, l backend.Layout) *storage {
	out := d.newStorage(s.dt, l.Numel())
	d.copy(s, l, out, backend.Contiguous(l.Shape))
	return out
}

// copy writes src under sl into dst under dl. Inside do only.
func (d *device) copy(src *storage, sl backend.Layout, dst *storage, dl backend.Layout) {
	n := dl.Numel()
	if n == 0 {
		return
	}
	shape, st := backend.Coalesce(dl.Shape, dl, sl)
	if len(shape) <= 1 && (len(shape) == 0 || (st[0][0] == 1 && st[1][0] == 1)) {
		if d.copyFlat(src.at(sl.Offset), dst.at(dl.Offset), n*elemSize(src.dt)) {
			return
		}
		if err := d.drv.MemcpyDtoD(dst.at(dl.Offset), src.at(sl.Offset), n*elemSize(src.dt)); err != nil {
			d.fail(err, fmt.Sprintf("copying %d bytes on the device", n*elemSize(src.dt)))
		}
		return
	}
	if d.copyFast(src, shape, st[1], sl.Offset, dst, st[0], dl.Offset) {
		return
	}
	a := d.newArgs()
	a.I64(int64(n)).Ptr(dst.ptr)
	packLayout(a, shape, st[0], dl.Offset)
	a.Ptr(src.ptr)
	packLayout(a, shape, st[1], sl.Offset)
	d.elementwise(kernelFor(kernels.Copy, src.dt), int64(n), a)
}

// Copy writes the elements of src under sl into dst under dl.
func (b *deviceBackend) Copy(src backend.Storage, sl backend.Layout, dst backend.Storage, dl backend.Layout) {
	s, t := b.store(src), b.store(dst)
	b.dev.do(func() { b.dev.copy(s, sl, t, dl) })
}

// Cast converts the elements of s under l to dt.
func (b *deviceBackend) Cast(s backend.Storage, l backend.Layout, dt tensor.DType) backend.Storage {
	src := b.store(s)
	n := l.Numel()
	var out *storage
	d := b.dev
	d.do(func() {
		if src.dt == dt {
			out = d.contiguous(src, l)
			return
		}
		out = d.newStorage(dt, n)
		shape, st := backend.Coalesce(l.Shape, l)
		a := d.newArgs()
		a.I64(int64(n)).Ptr(out.ptr).Ptr(src.ptr)
		packLayout(a, shape, st[0], l.Offset)
		d.elementwise(kernelFor(kernels.Cast, src.dt, dt), int64(n), a)
	})
	return out
}

// Fill sets every element of dst under dl to v.
func (b *deviceBackend) Fill(dst backend.Storage, dl backend.Layout, v float64) {
	t := b.store(dst)
	n := dl.Numel()
	d := b.dev
	d.do(func() {
		shape, st := backend.Coalesce(dl.Shape, dl)
		a := d.newArgs()
		a.I64(int64(n)).Ptr(t.ptr)
		packLayout(a, shape, st[0], dl.Offset)
		a.F64(v)
		d.elementwise(kernelFor(kernels.Fill, t.dt), int64(n), a)
	})
}

// Arange returns start, start+step, ... (n elements).
func (b *deviceBackend) Arange(dt tensor.DType, n int, start, step float64) backend.Storage {
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(dt, n)
		a := d.newArgs()
		a.I64(int64(n)).Ptr(out.ptr).F64(start).F64(step)
		d.elementwise(kernelFor(kernels.Arange, dt), int64(n), a)
	})
	return out
}

// Random returns n elements drawn from dist, a function of seed and each
// element's position only (Philox, kernels/random.cu): equal seeds give
// equal tensors on every CUDA device, though not the CPU's numbers.
func (b *deviceBackend) Random(dist backend.Distribution, dt tensor.DType, n int, a, bb float64, seed uint64) backend.Storage {
	var out *storage
	d := b.dev
	d.do(func() {
		var kernel kernels.Kernel
		gen := dt // the dtype the kernel makes
		switch dist {
		case backend.Uniform, backend.Normal:
			op := kernels.Uniform
			if dist == backend.Normal {
				op = kernels.Normal
			}
			if dt != tensor.Float64 {
				gen = tensor.Float64
				if dt == tensor.Float32 {
					gen = tensor.Float32
				}
			}
			kernel = kernelFor(op, gen)
		case backend.IntUniform:
			gen = tensor.Int64
			kernel = kernels.RandintI64
		default:
			panic(fmt.Sprintf("cuda: Random: unknown distribution %d", dist))
		}
		r := d.newStorage(gen, n)
		args := d.newArgs()
		args.I64(int64(n)).Ptr(r.ptr).U64(seed)
		if dist == backend.IntUniform {
			args.I64(int64(a)).I64(int64(bb))
		} else {
			args.F64(a).F64(bb)
		}
		d.elementwise(kernel, int64(n), args)
		if gen == dt {
			out = r
			return
		}
		out = d.newStorage(dt, n)
		args = d.newArgs()
		args.I64(int64(n)).Ptr(out.ptr).Ptr(r.ptr)
		packLayout(args, []int{n}, []int{1}, 0)
		d.elementwise(kernelFor(kernels.Cast, gen, dt), int64(n), args)
		r.Free()
	})
	return out
}
