package backend

import (
	"errors"
	"sync/atomic"
)

// ErrInterrupted is the value long native work panics with when the
// interrupt hook asks it to stop. The notebook session reports it as an
// interrupted cell; tensor.Try lets it pass, so that the cell does stop.
var ErrInterrupted = errors.New("backend: interrupted")

var interruptHook atomic.Pointer[func() bool]

// SetInterruptHook installs h as the cancellation hook that long native
// work consults: the CPU backend's parallel loops call Interrupted before
// each chunk, and a backend's own long loops should too. The notebook
// kernel installs a hook that reports whether the running cell was asked
// to stop. h is called from several goroutines at once and must be fast
// (an atomic load). A nil h removes the hook.
//
// The hook is process-wide: it is the one place where compiled tensor code
// learns that the user pressed stop.
func SetInterruptHook(h func() bool) {
	if h == nil {
		interruptHook.Store(nil)
		return
	}
	interruptHook.Store(&h)
}

// Interrupted reports whether the installed hook asks running work to
// stop; false when no hook is installed. Work that sees true stops
// starting new chunks and panics with ErrInterrupted.
func Interrupted() bool {
	h := interruptHook.Load()
	return h != nil && (*h)()
}
