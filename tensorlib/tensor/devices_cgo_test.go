//go:build cgo

package tensor_test

import (
	"os"
	"sync"
	"testing"

	"github.com/gotensor/gotensor/cuda"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

var emulator sync.Once

// testDevices returns the devices every device-generic test body runs on:
// the CPU and the emulated CUDA device (which runs the CUDA backend's Go
// code and kernels on the CPU), as candle's test_device! does. With
// GOTENSOR_TEST_GPU set, in a -tags cuda build on a GPU machine, CUDA(0)
// is the GPU, as in package cuda's tests.
func testDevices(t *testing.T) []tensor.Device {
	t.Helper()
	emulator.Do(func() {
		if os.Getenv("GOTENSOR_TEST_GPU") == "" {
			if err := cuda.UseEmulator(cuda.EmulatorConfig{}); err != nil {
				t.Fatalf("UseEmulator: %v", err)
			}
		}
	})
	return []tensor.Device{tensor.CPU, tensor.CUDA(0)}
}
