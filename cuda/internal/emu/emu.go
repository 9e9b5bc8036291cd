// Package emu is a CUDA device emulated on the CPU: it implements
// driver.Driver by running the kernels of kernels/*.cu, compiled by the
// host C++ compiler against cuda_emu.h, and by mapping cuBLAS
// GEMMs onto a CPU GEMM with the same column-major arguments.
//
// Device memory is host memory allocated apart from the Go heap (C
// malloc), so device pointers are plain addresses that the Go GC never
// sees, as on a GPU. A memory limit makes out-of-memory testable.
//
// The emulator exists for tests: it checks the CUDA backend's Go code and
// the kernels' logic without a GPU. It is slow (one host thread, threads of
// a block run in turn, as coroutines in kernels that synchronize) and does
// not model timing or memory coherence beyond __syncthreads and the warp
// primitives. Warps are groups of 32 threads by linear index: __syncwarp
// and the shuffles (__shfl_sync, __shfl_up_sync, __shfl_down_sync,
// __shfl_xor_sync) wait for every lane of the warp and exchange values
// as a GPU does, and so do the tensor-core instructions of
// kernels/mma.cuh (mma.sync m16n8k16 and ldmatrix), which gather the
// warp's fragments and give each lane what the PTX ISA assigns it; a
// launch whose lanes do not all take part, or that reads
// a 16-byte vector at a misaligned address, fails with an error where a
// GPU's result would be undefined or an illegal address.
package emu

/*
#cgo CXXFLAGS: -std=c++20 -O2 -Wno-unused-function
// The C++ library is linked into the binary, not loaded beside it: loading
// libstdc++.so and binding its symbols took a quarter of the kernel's
// start-up.
#cgo LDFLAGS: -static-libstdc++
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "emu.h"

static uintptr_t emu_alloc(size_t n) {
	void* p = NULL;
	if (posix_memalign(&p, 256, n ? n : 1) != 0) return 0;
	return (uintptr_t)p;
}
static void emu_free(uintptr_t p) { free((void*)p); }
static void emu_htod(uintptr_t dst, const void* src, size_t n) { memcpy((void*)dst, src, n); }
static void emu_dtoh(void* dst, uintptr_t src, size_t n) { memcpy(dst, (const void*)src, n); }
static void emu_dtod(uintptr_t dst, uintptr_t src, size_t n) { memmove((void*)dst, (const void*)src, n); }
static void emu_memset(uintptr_t dst, int b, size_t n) { memset((void*)dst, b, n); }
*/
import "C"

import (
	"fmt"
	"sort"
	"sync"
	"unsafe"

	"github.com/gotensor/gotensor/cuda/internal/driver"
)

// DefaultMemory is the emulated device's memory when Options.Memory is 0.
const DefaultMemory = 4 << 30

// Options configure an emulated device.
type Options struct {
	// Memory is the device memory in bytes; Alloc fails with
	// driver.ErrOutOfMemory beyond it. 0 means DefaultMemory.
	Memory int64
	// Name is the device name (default "gotensor CUDA emulator").
	Name string
}

// Driver is an emulated device. It implements driver.Driver.
type Driver struct {
	mu     sync.Mutex
	props  driver.Props
	used   int64
	allocs map[driver.DevicePtr]int
}

var _ driver.Driver = (*Driver)(nil)

// New returns an emulated device.
func New(o Options) *Driver {
	if o.Memory == 0 {
		o.Memory = DefaultMemory
	}
	if o.Name == "" {
		o.Name = "gotensor CUDA emulator"
	}
	return &Driver{
		props: driver.Props{Name: o.Name, TotalMem: o.Memory, Major: 7, Minor: 0,
			MultiProcessors: 2, MaxThreadsPerBlock: 1024, Emulated: true},
		allocs: map[driver.DevicePtr]int{},
	}
}

// Props returns the emulated device's properties: compute capability 7.0,
// two multiprocessors.
func (d *Driver) Props() driver.Props { return d.props }

// Bind does nothing: the emulator runs on any thread.
func (d *Driver) Bind() error { return nil }

// Used returns the bytes allocated and not freed.
func (d *Driver) Used() int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.used
}

// Alloc returns n bytes aligned to 256, as cuMemAlloc does.
func (d *Driver) Alloc(n int) (driver.DevicePtr, error) {
	if n < 0 {
		return 0, fmt.Errorf("emu: Alloc of %d bytes", n)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.used+int64(n) > d.props.TotalMem {
		return 0, fmt.Errorf("emu: allocating %d bytes with %d of %d in use: %w", n, d.used, d.props.TotalMem, driver.ErrOutOfMemory)
	}
	p := driver.DevicePtr(C.emu_alloc(C.size_t(n)))
	if p == 0 {
		return 0, fmt.Errorf("emu: host allocation of %d bytes failed: %w", n, driver.ErrOutOfMemory)
	}
	d.allocs[p] = n
	d.used += int64(n)
	return p, nil
}

// Free releases memory returned by Alloc.
func (d *Driver) Free(p driver.DevicePtr) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	n, ok := d.allocs[p]
	if !ok {
		return fmt.Errorf("emu: Free of %#x, which Alloc did not return or was freed", uintptr(p))
	}
	delete(d.allocs, p)
	d.used -= int64(n)
	C.emu_free(C.uintptr_t(p))
	return nil
}

// check panics unless [p, p+n) lies in one allocation; the emulator has
// no memory protection, so this catches what a GPU reports as an illegal
// address.
func (d *Driver) check(op string, p driver.DevicePtr, n int) error {
	if n == 0 {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for base, size := range d.allocs {
		if p >= base && p+driver.DevicePtr(n) <= base+driver.DevicePtr(size) {
			return nil
		}
	}
	return fmt.Errorf("emu: %s: %d bytes at %#x are not inside one allocation", op, n, uintptr(p))
}

// MemcpyHtoD copies n bytes from host memory to the device.
func (d *Driver) MemcpyHtoD(dst driver.DevicePtr, src unsafe.Pointer, n int) error {
	if err := d.check("MemcpyHtoD", dst, n); err != nil {
		return err
	}
	if n > 0 {
		C.emu_htod(C.uintptr_t(dst), src, C.size_t(n))
	}
	return nil
}

// MemcpyDtoH copies n bytes from the device to host memory.
func (d *Driver) MemcpyDtoH(dst unsafe.Pointer, src driver.DevicePtr, n int) error {
	if err := d.check("MemcpyDtoH", src, n); err != nil {
		return err
	}
	if n > 0 {
		C.emu_dtoh(dst, C.uintptr_t(src), C.size_t(n))
	}
	return nil
}

// MemcpyDtoD copies n bytes within the device.
func (d *Driver) MemcpyDtoD(dst, src driver.DevicePtr, n int) error {
	if err := d.check("MemcpyDtoD", src, n); err != nil {
		return err
	}
	if err := d.check("MemcpyDtoD", dst, n); err != nil {
		return err
	}
	C.emu_dtod(C.uintptr_t(dst), C.uintptr_t(src), C.size_t(n))
	return nil
}

// Memset sets n bytes to b.
func (d *Driver) Memset(dst driver.DevicePtr, b byte, n int) error {
	if err := d.check("Memset", dst, n); err != nil {
		return err
	}
	C.emu_memset(C.uintptr_t(dst), C.int(b), C.size_t(n))
	return nil
}

// module is every kernel compiled into the emulator; the PTX is ignored.
type module struct{ name string }

type function struct{ name string }

func (f function) Name() string { return f.name }

// LoadModule returns a module whose functions are the kernels compiled
// into the emulator.
func (d *Driver) LoadModule(name string, ptx []byte) (driver.Module, error) {
	return module{name}, nil
}

func (m module) Function(name string) (driver.Function, error) {
	if !hasKernel(name) {
		return nil, fmt.Errorf("emu: module %s has no kernel %s", m.name, name)
	}
	return function{name}, nil
}

// Launch runs f to completion.
func (d *Driver) Launch(f driver.Function, grid, block driver.Dim3, sharedBytes int, args *driver.Args) error {
	name := f.Name()
	if sharedBytes != 0 {
		return fmt.Errorf("emu: %s: dynamic shared memory is not emulated; use fixed-size __shared__ arrays", name)
	}
	return Launch(name, grid, block, args)
}

// Launch runs the named kernel to completion on the calling thread.
func Launch(name string, grid, block driver.Dim3, args *driver.Args) error {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	buf := args.Bytes()
	offs := make([]C.longlong, args.Len()+1)
	sizes := make([]C.longlong, args.Len()+1)
	for i, o := range args.Offsets() {
		offs[i] = C.longlong(o)
		sizes[i] = C.longlong(args.Sizes()[i])
	}
	var bufp unsafe.Pointer
	if len(buf) > 0 {
		bufp = unsafe.Pointer(&buf[0])
	}
	var msg [512]C.char
	rc := C.emu_launch(cname, C.int(grid[0]), C.int(grid[1]), C.int(grid[2]),
		C.int(block[0]), C.int(block[1]), C.int(block[2]),
		bufp, C.int(len(buf)), &offs[0], &sizes[0], C.int(args.Len()), &msg[0], C.int(len(msg)))
	if rc != 0 {
		return fmt.Errorf("emu: %s", C.GoString(&msg[0]))
	}
	return nil
}

// Synchronize returns at once: launches run to completion.
func (d *Driver) Synchronize() error { return nil }

// Close frees everything still allocated.
func (d *Driver) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for p := range d.allocs {
		C.emu_free(C.uintptr_t(p))
	}
	d.allocs = map[driver.DevicePtr]int{}
	d.used = 0
	return nil
}

var kernelSet = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for i := range int(C.emu_kernel_count()) {
		m[C.GoString(C.emu_kernel_name(C.int(i)))] = true
	}
	return m
})

func hasKernel(name string) bool { return kernelSet()[name] }

// Kernels returns the names of the kernels compiled into the emulator,
// sorted.
func Kernels() []string {
	var names []string
	for n := range kernelSet() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
