//go:build cgo

package cuda

import (
	"errors"
	"strings"
	"testing"
	"unsafe"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/cuda/internal/emu"
	"github.com/gotensor/gotensor/kernels"
	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// faultyDriver is the emulator with a device that has faulted: copies
// back to the host and waits fail, as a real GPU's do after a kernel's
// illegal memory access.
type faultyDriver struct{ *emu.Driver }

var errFault = errors.New("CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered")

func (faultyDriver) MemcpyDtoH(dst unsafe.Pointer, src driver.DevicePtr, n int) error {
	return errFault
}
func (faultyDriver) Synchronize() error { return errFault }

// TestDriverErrorIsTyped checks that a failing driver call reaches the
// user as a *DriverError that tensor.Try returns (not a plain panic it
// would pass on), naming the device, the call and what to do.
func TestDriverErrorIsTyped(t *testing.T) {
	d, err := openDevice(91, func() (driver.Driver, error) { return faultyDriver{emu.New(emu.Options{})}, nil })
	if err != nil {
		t.Fatal(err)
	}
	b := &deviceBackend{dev: d}
	s := b.FromHost([]float32{1, 2, 3})
	err = tensor.Try(func() { b.ToHost(s, backend.Contiguous([]int{3})) })
	var de *DriverError
	if !errors.As(err, &de) || de.Device != 91 || !errors.Is(err, errFault) {
		t.Fatalf("Try returned %v (%T), want a *DriverError wrapping the driver's error", err, err)
	}
	for _, want := range []string{"cuda: cuda:91: waiting for the device: CUDA_ERROR_ILLEGAL_ADDRESS", "restart the notebook kernel"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	var te tensor.Error
	if !errors.As(err, &te) {
		t.Error("a *DriverError is not a tensor.Error")
	}
}

// TestKernelForMissing checks that a dtype without a kernel is one lookup
// that panics with the kernel's name, as launching it by name did.
func TestKernelForMissing(t *testing.T) {
	if k := kernelFor(kernels.Cast, tensor.Int64, tensor.Bool); k != kernels.CastI64Bool {
		t.Errorf("kernelFor(Cast, Int64, Bool) = %q", k)
	}
	defer func() {
		const want = "cuda: no kernel relu_backward_bool in package kernels"
		if r := recover(); r != want {
			t.Errorf("kernelFor(ReluBackward, Bool) panicked with %v, want %q", r, want)
		}
	}()
	kernelFor(kernels.ReluBackward, tensor.Bool)
}
