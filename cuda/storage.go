package cuda

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/kernels"
	"github.com/gotensor/gotensor/tensorlib/tensor"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// storage is the CUDA backend's backend.Storage: n elements of dtype dt in
// one allocator block on dev. A finalizer returns the block to the
// allocator when the storage becomes unreachable; Free does it at once.
type storage struct {
	dev   *device
	ptr   driver.DevicePtr
	size  int // bucket size in bytes, 0 for no elements
	dt    tensor.DType
	n     int
	freed atomic.Bool
}

var _ backend.Freer = (*storage)(nil)

// DType returns the element type.
func (s *storage) DType() tensor.DType { return s.dt }

// Len returns the number of elements.
func (s *storage) Len() int { return s.n }

// Device returns the device that holds the storage.
func (s *storage) Device() tensor.Device { return tensor.CUDA(s.dev.index) }

// Free returns the storage's device memory to the allocator's cache now,
// instead of when the garbage collector finds it unreachable. Using the
// storage afterwards panics. Free is idempotent.
func (s *storage) Free() {
	if s.freed.CompareAndSwap(false, true) && s.size > 0 {
		runtime.SetFinalizer(s, nil)
		s.dev.alloc.release(s.ptr, s.size)
	}
}

// at returns the device address of element i.
func (s *storage) at(i int) driver.DevicePtr { return s.ptr.Add(i * elemSize(s.dt)) }

func finalizeStorage(s *storage) {
	if s.freed.CompareAndSwap(false, true) {
		s.dev.alloc.release(s.ptr, s.size)
	}
}

// newStorage allocates n elements of dt, uninitialized. Device goroutine
// only.
func (d *device) newStorage(dt tensor.DType, n int) *storage {
	s := &storage{dev: d, dt: dt, n: n}
	if n == 0 {
		return s
	}
	s.ptr, s.size = d.alloc.malloc(n * elemSize(dt))
	d.alloc.track(s.ptr, dt, n)
	runtime.SetFinalizer(s, finalizeStorage)
	return s
}

// zeroStorage allocates n zero elements of dt. Inside do only.
func (d *device) zeroStorage(dt tensor.DType, n int) *storage {
	s := d.newStorage(dt, n)
	if n > 0 {
		if err := d.drv.Memset(s.ptr, 0, n*elemSize(dt)); err != nil {
			d.fail(err, fmt.Sprintf("zeroing %d bytes", n*elemSize(dt)))
		}
	}
	return s
}

func elemSize(dt tensor.DType) int {
	if dt == tensor.Bool {
		return 1
	}
	return dt.Size()
}

// suffix returns the kernel name suffix of dt.
func suffix(dt tensor.DType) string {
	switch dt {
	case tensor.Float32:
		return "f32"
	case tensor.Float64:
		return "f64"
	case tensor.Int64:
		return "i64"
	case tensor.Bool:
		return "bool"
	case tensor.BFloat16:
		return "bf16"
	case tensor.Float16:
		return "f16"
	}
	panic(fmt.Sprintf("cuda: unsupported dtype %v", dt))
}

// kernelFor returns op's kernel for the dtypes dts (one; two for the
// cast pairs, from and to), and panics, as launching a kernel that does
// not exist did, when op has none for them.
func kernelFor(op kernels.Op, dts ...tensor.DType) kernels.Kernel {
	key := ""
	for i, dt := range dts {
		if i > 0 {
			key += "_"
		}
		key += suffix(dt)
	}
	return kernelKey(op, key)
}

// kernelKey returns op's kernel for the dtype key (f32, f32_i64, ...), and
// panics when op has none.
func kernelKey(op kernels.Op, key string) kernels.Kernel {
	k, ok := op.For(key)
	if !ok {
		panic(fmt.Sprintf("cuda: no kernel %s_%s in package kernels", op.Name, key))
	}
	return k
}
