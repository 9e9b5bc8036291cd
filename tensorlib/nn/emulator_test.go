package nn

import (
	"os"
	"sync"

	"github.com/gotensor/gotensor/cuda"
)

// The internal and the external tests of nn run in one binary, and the
// emulator can be chosen only before the first CUDA device opens: every
// test that wants the emulated device goes through UseTestEmulator.
var (
	emulatorOnce sync.Once
	emulatorErr  error
)

// UseTestEmulator makes tensor.CUDA(0) an emulated device for this test
// binary, the first time it is called, unless GOTENSOR_TEST_GPU asks for
// the real GPU; it returns the emulator's error, the same on every call.
func UseTestEmulator() error {
	emulatorOnce.Do(func() {
		if os.Getenv("GOTENSOR_TEST_GPU") == "" {
			emulatorErr = cuda.UseEmulator(cuda.EmulatorConfig{})
		}
	})
	return emulatorErr
}
