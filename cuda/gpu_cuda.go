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
func (gpuProvider) open(i int) (driver.Driver, error) { return gpu.Open(i) }
