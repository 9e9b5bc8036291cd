//go:build !cgo

package tensor_test

import (
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// testDevices returns the CPU: without cgo there is no CUDA emulator.
func testDevices(t *testing.T) []tensor.Device { return []tensor.Device{tensor.CPU} }
