//go:build cgo

package cuda

import (
	"fmt"
	"os"
	"testing"
)

// TestMain runs every test on the emulated device (there is no GPU in CI),
// unless GOTENSOR_TEST_GPU is set, in a build with -tags cuda on a GPU
// host: then they run on the GPU. GOTENSOR_TEST_CUDNN=1 makes the
// emulated device convolve as a GPU with cuDNN does (EmulatorConfig.CuDNN).
func TestMain(m *testing.M) {
	if os.Getenv("GOTENSOR_TEST_GPU") != "" {
		os.Exit(m.Run())
	}
	if err := UseEmulator(EmulatorConfig{CuDNN: os.Getenv("GOTENSOR_TEST_CUDNN") == "1"}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}
