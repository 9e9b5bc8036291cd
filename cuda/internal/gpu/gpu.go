//go:build cuda

// Package gpu implements driver.Driver on an NVIDIA GPU: the CUDA driver
// API through gorgonia.org/cu (memory, context, device queries) and a few
// direct calls (module loading, and kernel launches with a packed
// parameter buffer, which cu's Launch cannot pass), and cuBLAS, opened with
// dlopen (cublas.go) so that one binary runs with cuBLAS 11, 12 or 13.
//
// It is built only with -tags cuda: gorgonia.org/cu's package init calls
// cuInit and exits the process when no GPU driver is present.
//
// On Debian, nvidia-cuda-toolkit (scripts/setup-cuda.sh) puts cuda.h in
// /usr/include and libcuda.so (a stub when no driver is installed) in
// /usr/lib/x86_64-linux-gnu, where cgo finds them. With NVIDIA's own installer, set CGO_CFLAGS=-I/usr/local/cuda/include
// and CGO_LDFLAGS=-L/usr/local/cuda/lib64 (gorgonia/cu's own #cgo lines
// already search there).
package gpu

/*
#cgo LDFLAGS: -lcuda
#include <cuda.h>
#include <stdlib.h>

static CUresult gpu_load(CUmodule* mod, const char* ptx) {
	return cuModuleLoadData(mod, ptx);
}

static CUresult gpu_function(CUfunction* f, CUmodule mod, const char* name) {
	return cuModuleGetFunction(f, mod, name);
}

// gpu_launch passes the kernel's parameters as one packed buffer
// (CU_LAUNCH_PARAM_BUFFER_POINTER), laid out as the kernel's parameter
// list: that is how structs passed by value reach the kernel.
static CUresult gpu_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
		unsigned bx, unsigned by, unsigned bz, unsigned shmem, void* buf, size_t size) {
	void* config[] = {
		CU_LAUNCH_PARAM_BUFFER_POINTER, buf,
		CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
		CU_LAUNCH_PARAM_END,
	};
	return cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, NULL, NULL, config);
}

static const char* gpu_error(CUresult r) {
	const char* s = NULL;
	if (cuGetErrorString(r, &s) != CUDA_SUCCESS || s == NULL) return "unknown CUDA error";
	return s;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/gotensor/gotensor/cuda/internal/driver"
)

// Count returns the number of CUDA devices.
func Count() (int, error) { return cu.NumDevices() }

// Properties returns device i's properties without opening it.
func Properties(i int) (driver.Props, error) {
	dev, err := cu.GetDevice(i)
	if err != nil {
		return driver.Props{}, fmt.Errorf("gpu: device %d: %v", i, err)
	}
	var p driver.Props
	if p.Name, err = dev.Name(); err != nil {
		return p, err
	}
	if p.TotalMem, err = dev.TotalMem(); err != nil {
		return p, err
	}
	for _, a := range []struct {
		attr cu.DeviceAttribute
		dst  *int
	}{
		{cu.ComputeCapabilityMajor, &p.Major},
		{cu.ComputeCapabilityMinor, &p.Minor},
		{cu.MultiprocessorCount, &p.MultiProcessors},
		{cu.MaxThreadsPerBlock, &p.MaxThreadsPerBlock},
	} {
		if *a.dst, err = dev.Attribute(a.attr); err != nil {
			return p, err
		}
	}
	return p, nil
}

// Driver is an open GPU. Its methods run on an OS thread where Open or
// Bind made its context current.
type Driver struct {
	dev   cu.Device
	ctx   cu.CUContext
	props driver.Props
	blas  *cublasHandle

	params   unsafe.Pointer // C memory for launch parameters
	paramCap int
}

var _ driver.Driver = (*Driver)(nil)

// Open makes device i's primary context current on the calling OS thread
// (lock it first) and returns a driver for it.
func Open(i int) (*Driver, error) {
	props, err := Properties(i)
	if err != nil {
		return nil, err
	}
	if props.Major < 7 {
		return nil, fmt.Errorf("gpu: %s has compute capability %d.%d; gotensor's kernels need 7.0 (Volta) or newer", props.Name, props.Major, props.Minor)
	}
	dev, _ := cu.GetDevice(i)
	ctx, err := dev.RetainPrimaryCtx()
	if err != nil {
		return nil, fmt.Errorf("gpu: device %d: retaining its context: %v", i, err)
	}
	if err := cu.SetCurrentContext(ctx); err != nil {
		return nil, fmt.Errorf("gpu: device %d: making its context current: %v", i, err)
	}
	d := &Driver{dev: dev, ctx: ctx, props: props}
	if d.blas, err = newCublas(); err != nil {
		dev.ReleasePrimaryCtx()
		return nil, err
	}
	return d, nil
}

// Props returns the device's properties.
func (d *Driver) Props() driver.Props { return d.props }

// Bind makes the device's primary context current on the calling thread.
func (d *Driver) Bind() error {
	if err := cu.SetCurrentContext(d.ctx); err != nil {
		return fmt.Errorf("gpu: %s: making its context current: %v", d.props.Name, err)
	}
	return nil
}

func cuPtr(p driver.DevicePtr) cu.DevicePtr { return cu.DevicePtr(p) }

// Alloc returns n bytes of device memory.
func (d *Driver) Alloc(n int) (driver.DevicePtr, error) {
	p, err := cu.MemAlloc(int64(n))
	if err != nil {
		if errors.Is(err, cu.OutOfMemory) {
			return 0, fmt.Errorf("gpu: allocating %d bytes: %v: %w", n, err, driver.ErrOutOfMemory)
		}
		return 0, fmt.Errorf("gpu: allocating %d bytes: %v", n, err)
	}
	return driver.DevicePtr(p), nil
}

// Free releases memory from Alloc.
func (d *Driver) Free(p driver.DevicePtr) error { return cu.MemFree(cuPtr(p)) }

// MemcpyHtoD copies n bytes to the device.
func (d *Driver) MemcpyHtoD(dst driver.DevicePtr, src unsafe.Pointer, n int) error {
	return cu.MemcpyHtoD(cuPtr(dst), src, int64(n))
}

// MemcpyDtoH copies n bytes from the device.
func (d *Driver) MemcpyDtoH(dst unsafe.Pointer, src driver.DevicePtr, n int) error {
	return cu.MemcpyDtoH(dst, cuPtr(src), int64(n))
}

// MemcpyDtoD copies n bytes within the device.
func (d *Driver) MemcpyDtoD(dst, src driver.DevicePtr, n int) error {
	return cu.MemcpyDtoD(cuPtr(dst), cuPtr(src), int64(n))
}

// Memset sets n bytes to b.
func (d *Driver) Memset(dst driver.DevicePtr, b byte, n int) error {
	return cu.MemsetD8(cuPtr(dst), b, int64(n))
}

func check(r C.CUresult) error {
	if r == C.CUDA_SUCCESS {
		return nil
	}
	return fmt.Errorf("%s (CUresult %d)", C.GoString(C.gpu_error(r)), int(r))
}

type module struct {
	name string
	mod  C.CUmodule
}

type function struct {
	name string
	fn   C.CUfunction
}

func (f *function) Name() string { return f.name }

// LoadModule JIT-compiles PTX for the device and loads it.
func (d *Driver) LoadModule(name string, ptx []byte) (driver.Module, error) {
	src := C.CString(string(ptx))
	defer C.free(unsafe.Pointer(src))
	m := &module{name: name}
	if err := check(C.gpu_load(&m.mod, src)); err != nil {
		return nil, fmt.Errorf("gpu: loading PTX module %s: %v", name, err)
	}
	return m, nil
}

func (m *module) Function(name string) (driver.Function, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	f := &function{name: name}
	if err := check(C.gpu_function(&f.fn, m.mod, cname)); err != nil {
		return nil, fmt.Errorf("gpu: module %s: kernel %s: %v", m.name, name, err)
	}
	return f, nil
}

// Launch starts f on the default stream.
func (d *Driver) Launch(f driver.Function, grid, block driver.Dim3, sharedBytes int, args *driver.Args) error {
	fn, ok := f.(*function)
	if !ok {
		return fmt.Errorf("gpu: Launch of a function from another driver (%T)", f)
	}
	buf := args.Bytes()
	size := len(buf)
	// The driver copies the parameters at launch; a C buffer, reused from
	// launch to launch, keeps Go memory out of it.
	if size > d.paramCap {
		C.free(d.params)
		d.paramCap = max(size, 256)
		d.params = C.malloc(C.size_t(d.paramCap))
	}
	if size > 0 {
		copy(unsafe.Slice((*byte)(d.params), size), buf)
	}
	return check(C.gpu_launch(fn.fn, C.uint(grid[0]), C.uint(grid[1]), C.uint(grid[2]),
		C.uint(block[0]), C.uint(block[1]), C.uint(block[2]), C.uint(sharedBytes), d.params, C.size_t(size)))
}

// Synchronize waits for the device to finish its work.
func (d *Driver) Synchronize() error { return cu.Synchronize() }

// Gemm runs a strided batched sgemm or dgemm through cuBLAS.
func (d *Driver) Gemm(g driver.GemmArgs) error {
	if g.M == 0 || g.N == 0 || g.Batch == 0 {
		return nil
	}
	return d.blas.gemm(g)
}

// Close releases the cuBLAS handle and the device's primary context.
func (d *Driver) Close() error {
	if d.blas != nil {
		d.blas.close()
	}
	C.free(d.params)
	d.params, d.paramCap = nil, 0
	return d.dev.ReleasePrimaryCtx()
}
