//go:build cuda

package cuda

import (
	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/cuda/internal/gpu"
)

// In a build with -tags cuda, the GPUs are the CUDA devices.
func init() {
	if err := setProvider(gpuProvider{}); err != nil {
		panic(err)
	}
}

type gpuProvider struct{}

func (gpuProvider) count() (int, error)               { return gpu.Count() }
func (gpuProvider) props(i int) (driver.Props, error) { return gpu.Properties(i) }

// open opens device i, with cuDNN's convolutions where cuDNN is found
// (see ConvLibrary).
func (gpuProvider) open(i int) (driver.Driver, error) {
	d, err := gpu.Open(i)
	if err != nil {
		return nil, err
	}
	return d.WithCuDNN(), nil
}

func (gpuProvider) convLibrary() string { return gpu.CuDNN() }
