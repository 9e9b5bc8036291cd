//go:build cgo

package cuda

import (
	"fmt"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/cuda/internal/emu"
)

// EmulatorConfig configures UseEmulator.
type EmulatorConfig struct {
	Devices int   // number of emulated devices (default 1)
	Memory  int64 // bytes of memory per device (default 4 GiB)
	// CuDNN makes the devices convolve as a GPU with cuDNN (found, or
	// named by GOTENSOR_CUDNN) does: tensor.Conv2d goes to the driver's
	// convolution (plain loops here) instead of im2col and GEMM.
	CuDNN bool
}

// UseEmulator makes the CUDA devices emulated ones: tensor.CUDA(0) then
// works without a GPU, running gotensor's CUDA kernels compiled for the
// CPU and a CPU GEMM in place of cuBLAS. It is slow, and meant for tests:
// results match a GPU's up to floating-point rounding. It returns an error
// when CUDA devices are already in use.
func UseEmulator(c EmulatorConfig) error {
	if c.Devices == 0 {
		c.Devices = 1
	}
	if c.Devices < 0 {
		return fmt.Errorf("cuda: UseEmulator: %d devices", c.Devices)
	}
	return setProvider(emuProvider{c})
}

type emuProvider struct{ c EmulatorConfig }

func (p emuProvider) count() (int, error) { return p.c.Devices, nil }

func (p emuProvider) props(i int) (driver.Props, error) {
	return p.newDriver(i).Props(), nil
}

func (p emuProvider) newDriver(i int) *emu.Driver {
	return emu.New(emu.Options{Memory: p.c.Memory, Name: fmt.Sprintf("gotensor CUDA emulator %d", i)})
}

func (p emuProvider) convLibrary() string {
	if p.c.CuDNN {
		return "the emulator's stand-in for cuDNN (plain loops)"
	}
	return "not used: im2col + GEMM"
}

func (p emuProvider) open(i int) (driver.Driver, error) {
	if p.c.CuDNN {
		return emu.ConvDriver{Driver: p.newDriver(i)}, nil
	}
	return p.newDriver(i), nil
}
