package backend

import (
	"errors"
	"sync/atomic"

	"github.com/gotensor/gotensor/internal/goroutine"
)

// ErrInterrupted is the value long native work panics with when the
// interrupt hook asks it to stop. The notebook session reports it as an
// interrupted cell; tensor.Try lets it pass, so that the cell does stop.
var ErrInterrupted = errors.New("backend: interrupted")

// An interrupt hook reports whether the work running now should stop. A
// goroutine's own hook (BindInterruptHook) comes first; a goroutine
// without one consults the process's hook (SetInterruptHook), if any.
var (
	processHook atomic.Pointer[func() bool]
	boundHooks  goroutine.Local[func() bool]
)

// SetInterruptHook installs h as the process's cancellation hook, which
// long native work on goroutines without a hook of their own consults:
// the CPU backend's parallel loops call Interrupted before each chunk,
// and a backend's own long loops should too. A program that lets a user
// stop its work installs one; a notebook session binds its hook to its
// own goroutines instead (BindInterruptHook), so that stopping one
// session's cell never stops another's ops. h is called from several
// goroutines at once and must be fast (an atomic load). A nil h removes
// the hook.
func SetInterruptHook(h func() bool) {
	if h == nil {
		processHook.Store(nil)
		return
	}
	processHook.Store(&h)
}

// BindInterruptHook makes h the cancellation hook of the calling
// goroutine until unbind is called, which gives the goroutine back the
// hook it had before. A notebook session binds its Interrupted to the
// goroutine that runs a cell and to the goroutines the cell starts, and
// unbinds it when each ends: the work of one session stops when that
// session is interrupted, and only then. h is called from several
// goroutines at once (the parallel chunks of an op that run for the
// goroutine, see InterruptHook) and must be fast.
//
//	defer backend.BindInterruptHook(session.Interrupted)()
func BindInterruptHook(h func() bool) (unbind func()) { return boundHooks.Set(h) }

// InterruptHook returns the hook Interrupted consults on the calling
// goroutine, or a hook that always reports false when there is none.
// Work that hands its parts to other goroutines reads it once, on the
// goroutine that asked for the work, and calls it from theirs, so that
// the parts stop when their caller is interrupted.
func InterruptHook() func() bool {
	if h, ok := boundHooks.Get(); ok && h != nil {
		return h
	}
	if h := processHook.Load(); h != nil {
		return *h
	}
	return never
}

func never() bool { return false }

// Interrupted reports whether the calling goroutine's hook (see
// InterruptHook) asks running work to stop; false when there is no hook.
// Work that sees true stops starting new chunks and panics with
// ErrInterrupted.
func Interrupted() bool { return InterruptHook()() }
