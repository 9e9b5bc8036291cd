// Package driver is the interface between the CUDA backend's Go code and a
// CUDA device: memory, modules and launches, cuBLAS GEMM. Two
// implementations satisfy it: package gpu (the CUDA driver API through
// gorgonia.org/cu, built only with -tags cuda) and package emu (the same
// kernels compiled for the host CPU). Everything above this interface —
// allocation, caching, launch configuration, argument packing, the cuBLAS
// argument mapping — runs unchanged on either.
//
// A Driver is bound to one device and is not safe for concurrent use: the
// cuda package calls it from the single goroutine, locked to an OS thread,
// that owns the device.
package driver

import (
	"fmt"
	"unsafe"
)

// A DevicePtr is an address in device memory. The zero DevicePtr is null.
type DevicePtr uintptr

// Add returns p advanced by n bytes.
func (p DevicePtr) Add(n int) DevicePtr { return p + DevicePtr(n) }

// Props describes a device.
type Props struct {
	Name               string
	TotalMem           int64 // bytes
	Major, Minor       int   // compute capability
	MultiProcessors    int
	MaxThreadsPerBlock int
	Emulated           bool // the CPU emulator, not a GPU
}

// String formats the properties as a one-line summary.
func (p Props) String() string {
	return fmt.Sprintf("%s (compute %d.%d, %d MiB, %d SMs)", p.Name, p.Major, p.Minor, p.TotalMem>>20, p.MultiProcessors)
}

// A Module is a loaded PTX module.
type Module interface {
	// Function returns the kernel entry point called name.
	Function(name string) (Function, error)
}

// A Function is a kernel entry point of a loaded module.
type Function interface {
	// Name returns the kernel's name.
	Name() string
}

// Dim3 is a grid or block size.
type Dim3 [3]int

// Count returns x*y*z.
func (d Dim3) Count() int { return d[0] * d[1] * d[2] }

// Transpose says whether a GEMM operand is used as stored or transposed.
type Transpose bool

// The GEMM operand modes.
const (
	NoTrans Transpose = false
	Trans   Transpose = true
)

// A Half names the 16-bit float type of a GEMM's or a convolution's
// operands, which the device multiplies on its tensor cores and sums in
// float32.
type Half int

// The operand types of Half.
const (
	NotHalf Half = iota // float32 or float64, as Double says
	BF16                // bfloat16 (CUDA_R_16BF, CUDNN_DATA_BFLOAT16)
	F16                 // float16, IEEE binary16 (CUDA_R_16F, CUDNN_DATA_HALF)
)

// GemmArgs are the arguments of a strided batched GEMM with cuBLAS's
// column-major conventions: for each batch b in [0, Batch),
//
//	C_b = Alpha * op(A_b) * op(B_b) + Beta * C_b
//
// where A_b starts StrideA elements after A_(b-1) (StrideA may be 0), op(A)
// is M×K, op(B) is K×N and C is M×N, all column-major with leading
// dimensions LDA, LDB and LDC. Double selects float64 (dgemm) over float32
// (sgemm). Half selects 16-bit A, B and C, multiplied exactly and summed in
// float32, C rounded once (cublasGemmStridedBatchedEx with
// CUBLAS_COMPUTE_32F, as PyTorch's bfloat16 and float16 matmuls). TF32
// lets a float32 GEMM round A and B to TF32 (10 mantissa bits) and use the
// tensor cores (CUBLAS_COMPUTE_32F_FAST_TF32), as
// torch.set_float32_matmul_precision("high") does.
type GemmArgs struct {
	Double         bool
	Half           Half
	TF32           bool
	TransA, TransB Transpose
	M, N, K        int
	Alpha, Beta    float64
	A              DevicePtr
	LDA            int
	StrideA        int64
	B              DevicePtr
	LDB            int
	StrideB        int64
	C              DevicePtr
	LDC            int
	StrideC        int64
	Batch          int
}

// A Driver gives access to one device.
type Driver interface {
	// Props returns the device's properties.
	Props() Props

	// Bind makes the device current on the calling OS thread (for a GPU,
	// its primary context); the caller has locked the goroutine to the
	// thread. Every other method runs after a Bind on the same thread.
	Bind() error

	// Alloc returns n bytes of device memory, or an error wrapping
	// ErrOutOfMemory when the device has not that much free.
	Alloc(n int) (DevicePtr, error)
	// Free releases memory returned by Alloc.
	Free(p DevicePtr) error
	// MemcpyHtoD copies n bytes from host memory to the device.
	MemcpyHtoD(dst DevicePtr, src unsafe.Pointer, n int) error
	// MemcpyDtoH copies n bytes from the device to host memory.
	MemcpyDtoH(dst unsafe.Pointer, src DevicePtr, n int) error
	// MemcpyDtoD copies n bytes within the device.
	MemcpyDtoD(dst, src DevicePtr, n int) error
	// Memset sets n bytes of device memory to b.
	Memset(dst DevicePtr, b byte, n int) error

	// LoadModule loads a PTX module; name is for messages.
	LoadModule(name string, ptx []byte) (Module, error)
	// Launch runs f on a grid of blocks with the arguments in args
	// (packed by Args) and sharedBytes of dynamic shared memory. Launches
	// are asynchronous on a GPU: errors may surface at Synchronize.
	Launch(f Function, grid, block Dim3, sharedBytes int, args *Args) error
	// Synchronize waits for all work on the device.
	Synchronize() error

	// Gemm runs a strided batched sgemm, dgemm or 16-bit GemmEx (cuBLAS).
	Gemm(g GemmArgs) error

	// Close releases the device.
	Close() error
}

// ErrOutOfMemory is wrapped by Alloc's error when the device is out of
// memory; the cuda package frees cached blocks, runs the Go GC and
// retries before giving up.
var ErrOutOfMemory = fmt.Errorf("out of memory")

// ConvKind selects what a Convolver computes.
type ConvKind int

// The computations of a 2-D convolution.
const (
	ConvForward        ConvKind = iota // Y = X ⋆ Wt
	ConvBackwardData                   // X = the gradient of the input for the output gradient in Y
	ConvBackwardFilter                 // Wt = the gradient of the filters for X and the output gradient in Y
)

// ConvArgs are the arguments of a 2-D cross-correlation (cuDNN's
// CUDNN_CROSS_CORRELATION, as torch.nn.functional.conv2d) of dense,
// row-major tensors: the input X [N, C, H, W], the filters Wt [F, C, KH,
// KW] and the output Y [N, F, OH, OW]. Kind says which of the three is
// written (with beta 0: overwritten); the other two are read.
//
// Double selects float64; Half 16-bit X, Wt and Y with float32
// accumulation (CUDNN_TENSOR_OP_MATH); TF32 lets float32 run on TF32
// tensor cores (CUDNN_DEFAULT_MATH rather than CUDNN_FMA_MATH).
type ConvArgs struct {
	Kind             ConvKind
	Double           bool
	Half             Half
	TF32             bool
	N, C, H, W       int
	F, KH, KW        int
	OH, OW           int
	PadH, PadW       int
	StrideH, StrideW int
	DilH, DilW       int
	X, Wt, Y         DevicePtr
}

// A Convolver is a Driver that also convolves with a vendor library
// (cuDNN). It is optional: without it the cuda package convolves with
// its own kernels and GEMM.
type Convolver interface {
	// ConvWorkspace returns the bytes of scratch device memory that Conv
	// needs for c (the algorithm is chosen once per shape and kind).
	ConvWorkspace(c ConvArgs) (int, error)
	// Conv runs c with the given scratch memory (at least what
	// ConvWorkspace returned).
	Conv(c ConvArgs, workspace DevicePtr, bytes int) error
}
