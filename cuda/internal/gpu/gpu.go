//go:build cuda

// Package gpu implements driver.Driver on an NVIDIA GPU: the CUDA driver
// API through gorgonia.org/cu (memory, context, device queries) and a few
// direct calls (module loading, and kernel launches with a packed
// parameter buffer, which cu's Launch cannot pass), and cuBLAS through
// gorgonia.org/cu/blas.
//
// It is built only with -tags cuda: gorgonia.org/cu's package init calls
// cuInit and exits the process when no GPU driver is present.
//
// On Debian, nvidia-cuda-toolkit (scripts/setup-cuda.sh) puts cuda.h and
// cublas_v2.h in /usr/include and libcuda.so (a stub when no driver is
// installed) and libcublas.so in /usr/lib/x86_64-linux-gnu, where cgo finds
// them. With NVIDIA's own installer, set CGO_CFLAGS=-I/usr/local/cuda/include
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
	cublas "gorgonia.org/cu/blas"

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

// Driver is an open GPU. Its methods must run on the OS thread that
// called Open, where its context is current.
type Driver struct {
	dev   cu.Device
	ctx   cu.CUContext
	props driver.Props
	blas  *cublas.Standard
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
	d.blas = cublas.New()
	return d, nil
}

// Props returns the device's properties.
func (d *Driver) Props() driver.Props { return d.props }

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
	// The driver copies the parameters at launch; a C copy keeps Go
	// memory out of it.
	p := C.malloc(C.size_t(max(size, 8)))
	defer C.free(p)
	if size > 0 {
		copy(unsafe.Slice((*byte)(p), size), buf)
	}
	return check(C.gpu_launch(fn.fn, C.uint(grid[0]), C.uint(grid[1]), C.uint(grid[2]),
		C.uint(block[0]), C.uint(block[1]), C.uint(block[2]), C.uint(sharedBytes), p, C.size_t(size)))
}

// Synchronize waits for the device to finish its work.
func (d *Driver) Synchronize() error { return cu.Synchronize() }

// Gemm runs a strided batched GEMM through cuBLAS, one sgemm or dgemm per
// batch (gorgonia.org/cu/blas has no strided batched call).
func (d *Driver) Gemm(g driver.GemmArgs) error {
	if g.M == 0 || g.N == 0 || g.Batch == 0 {
		return nil
	}
	tr := func(t driver.Transpose) blasTranspose {
		if t {
			return blasTrans
		}
		return blasNoTrans
	}
	size := 4
	if g.Double {
		size = 8
	}
	ar, ac := g.M, g.K
	if g.TransA {
		ar, ac = g.K, g.M
	}
	br, bc := g.K, g.N
	if g.TransB {
		br, bc = g.N, g.K
	}
	na, nb, nc := extent(ar, ac, g.LDA), extent(br, bc, g.LDB), extent(g.M, g.N, g.LDC)
	for b := 0; b < g.Batch; b++ {
		pa := g.A.Add(int(int64(b) * g.StrideA * int64(size)))
		pb := g.B.Add(int(int64(b) * g.StrideB * int64(size)))
		pc := g.C.Add(int(int64(b) * g.StrideC * int64(size)))
		if g.Double {
			d.blas.Dgemm(tr(g.TransA), tr(g.TransB), g.M, g.N, g.K, g.Alpha,
				devSlice[float64](pa, na), g.LDA, devSlice[float64](pb, nb), g.LDB,
				g.Beta, devSlice[float64](pc, nc), g.LDC)
		} else {
			d.blas.Sgemm(tr(g.TransA), tr(g.TransB), g.M, g.N, g.K, float32(g.Alpha),
				devSlice[float32](pa, na), g.LDA, devSlice[float32](pb, nb), g.LDB,
				float32(g.Beta), devSlice[float32](pc, nc), g.LDC)
		}
		if err := d.blas.Err(); err != nil {
			return fmt.Errorf("gpu: cuBLAS gemm: %v", err)
		}
	}
	return nil
}

func extent(rows, cols, ld int) int {
	if rows == 0 || cols == 0 {
		return 1
	}
	return (cols-1)*ld + rows
}

// devSlice dresses a device address as a Go slice, which is how
// gorgonia.org/cu/blas takes its operands: cuBLAS receives &s[0]. Go never
// reads through it.
func devSlice[T any](p driver.DevicePtr, n int) []T {
	return unsafe.Slice((*T)(*(*unsafe.Pointer)(unsafe.Pointer(&p))), n)
}

// Close releases the cuBLAS handle and the device's primary context.
func (d *Driver) Close() error {
	if d.blas != nil {
		d.blas.Close()
	}
	return d.dev.ReleasePrimaryCtx()
}
