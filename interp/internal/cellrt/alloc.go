package cellrt

import (
	"fmt"
	"math"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// AllocError is the panic of a make whose allocation cannot fit in the
// memory the host has left: the Go runtime would end the process with
// "fatal error: runtime: out of memory" instead.
type AllocError struct {
	Type      string // the type made: "[]float64"
	N         int64  // the length, capacity or size hint asked for
	Requested int64  // bytes, at least
	Available int64  // bytes of host memory available
}

// RuntimeError marks an AllocError as a run-time error, like the Go
// runtime's own "makeslice: len out of range".
func (*AllocError) RuntimeError() {}

func (e *AllocError) Error() string {
	asked := backend.ByteSize(e.Requested)
	if e.Requested == math.MaxInt64 {
		asked = "more than 8 EiB"
	}
	return fmt.Sprintf("runtime error: out of memory: make(%s, %d) needs %s and the host has %s available", e.Type, e.N, asked, backend.ByteSize(e.Available))
}

// makeCheckMin is the smallest allocation Make checks: below it, reading
// the memory available costs more than it could save.
const makeCheckMin = 64 << 20

// Make stands for the size argument n of make(typ, ..., n), whose
// elements take size bytes each: it returns n, or panics with an
// *AllocError when n elements cannot fit in the memory available.
func Make(n, size int64, typ string) int64 {
	if n <= 0 || size <= 0 {
		return n
	}
	bytes := int64(math.MaxInt64)
	if n <= math.MaxInt64/size {
		bytes = n * size
	}
	if bytes < makeCheckMin {
		return n
	}
	if avail, ok := backend.HostMemoryAvailable(); ok && bytes > avail {
		panic(&AllocError{Type: typ, N: n, Requested: bytes, Available: avail})
	}
	return n
}
