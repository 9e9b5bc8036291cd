//go:build !cgo

package cuda

import "fmt"

// EmulatorConfig configures UseEmulator.
type EmulatorConfig struct {
	Devices int   // number of emulated devices (default 1)
	Memory  int64 // bytes of memory per device (default 4 GiB)
}

// UseEmulator would make the CUDA devices emulated ones; the emulator is
// C++ and needs cgo, so in this build it returns an error.
func UseEmulator(c EmulatorConfig) error {
	return fmt.Errorf("cuda: UseEmulator: this build has no cgo (CGO_ENABLED=0); the emulator is C++ and needs it")
}
