//go:build cgo

package tensor_test

import (
	"sync"
	"testing"

	"github.com/gotensor/gotensor/cuda"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

var emulator sync.Once

// testDevices returns the devices every device-generic test body runs on:
// the CPU and the emulated CUDA device (which runs the CUDA backend's Go
// code and kernels on the CPU), as candle's test_device! does. On a GPU
// machine with -tags cuda, CUDA(0) is the GPU.
func testDevices(t *testing.T) []tensor.Device {
	t.Helper()
	emulator.Do(func() {
		if err := cuda.UseEmulator(cuda.EmulatorConfig{}); err != nil {
			t.Logf("UseEmulator: %v (a GPU build uses the GPU)", err)
		}
	})
	return []tensor.Device{tensor.CPU, tensor.CUDA(0)}
}
