package cpu

import (
	"fmt"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// Errors builds the errors the CPU backend panics with when an index is
// out of range or host memory runs out. Users see them as package
// tensor's *tensor.IndexError and *tensor.OutOfMemoryError, types this
// package cannot name (tensor imports it), so package tensor sets Errors
// when it is initialized, before any tensor exists; it is the same for
// the whole process and nothing else should set it. Until then (this
// package used alone) the errors are plain ones with the same messages.
var Errors = struct {
	// Index reports index i of dimension dim, of size size, out of
	// range in op; msg and fix say so in words.
	Index func(op string, i, size int, msg, fix string) error
	// OutOfMemory reports requested bytes of host memory when only
	// available bytes can be had.
	OutOfMemory func(requested, available int64) error
}{
	Index: func(op string, i, size int, msg, fix string) error {
		return fmt.Errorf("cpu: %s: %s (%s)", op, msg, fix)
	},
	OutOfMemory: func(requested, available int64) error {
		return fmt.Errorf("cpu: out of memory: tried to allocate %s with %s available",
			backend.ByteSize(requested), backend.ByteSize(available))
	},
}

func indexErr(op string, i, size, dim int) error {
	return Errors.Index(op, i, size,
		fmt.Sprintf("index %d is out of bounds for dim %d with size %d", i, dim, size),
		fmt.Sprintf("indices must be in [0, %d)", size))
}

// hostCheckMin is the smallest allocation checked against the memory
// available: below it, reading /proc costs more than it could save.
const hostCheckMin = 64 << 20

// checkHostAlloc panics with Errors.OutOfMemory's error when n bytes of
// host memory cannot be had; the Go runtime would end the process
// instead.
func checkHostAlloc(n int64) {
	if n < hostCheckMin {
		return
	}
	if avail, ok := backend.HostMemoryAvailable(); ok && n > avail {
		panic(Errors.OutOfMemory(n, avail))
	}
}
