package interp

import (
	"errors"
	"reflect"
	"sync/atomic"
	"time"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// rtPath is the import path, as yaegi sees it, of the compiled helpers that
// rewritten cells call (_gt.Stop, _gt.GoPanic, _gt.Result, _gt.Clear).
const rtPath = "gotensor.internal/cell"

// interruptSignal is the value a stopped cell panics with. It unwinds to the
// cell boundary like any panic, so no interpreter state is corrupted.
type interruptSignal struct{}

// interrupting is set while a cell is being interrupted.
var interrupting atomic.Bool

// interruptC is closed when a cell is interrupted, to wake up what waits in
// sleep; a fresh one replaces it for the next cell.
var interruptC atomic.Pointer[chan struct{}]

func init() { resetInterrupt() }

// interrupt asks the running cell to stop: interpreted loops and functions
// see flag, compiled code polling Interrupted sees interrupting, and sleep
// wakes up.
func interrupt(flag *int32) {
	atomic.StoreInt32(flag, 1)
	if !interrupting.Swap(true) {
		close(*interruptC.Load())
	}
}

// resetInterrupt clears an interrupt request.
func resetInterrupt() {
	interrupting.Store(false)
	c := make(chan struct{})
	interruptC.Store(&c)
}

// sleep is time.Sleep for cells: it wakes up and ends the cell when the
// cell is interrupted, so that "time.Sleep(time.Hour)" stops at once.
func sleep(d time.Duration) {
	c := *interruptC.Load()
	if interrupting.Load() {
		panic(interruptSignal{})
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-c:
		panic(interruptSignal{})
	}
}

// Interrupted reports whether the running cell has been asked to stop. New
// installs it as the tensor library's cancellation hook
// (backend.SetInterruptHook): the CPU backend's parallel loops poll it
// between chunks and stop the op with backend.ErrInterrupted, which ends
// the cell as interrupted.
func Interrupted() bool { return interrupting.Load() }

// isInterrupt reports whether a recovered panic value is the end of an
// interrupted cell: the session's own signal, or the tensor library's
// backend.ErrInterrupted (yaegi may hand either over as a reflect.Value).
func isInterrupt(r any) bool {
	if v, ok := r.(reflect.Value); ok && v.IsValid() && v.CanInterface() {
		r = v.Interface()
	}
	switch r := r.(type) {
	case interruptSignal:
		return true
	case error:
		return errors.Is(r, backend.ErrInterrupted)
	}
	return false
}

// interruptedError is the error of an interrupted cell.
func interruptedError() *Error {
	return &Error{Name: "Interrupted", Value: "the cell was interrupted", Traceback: []string{"Interrupted: the cell was interrupted"}}
}

// stop is what the interrupt check in rewritten loops calls once the
// interpreted flag is set.
func stop() { panic(interruptSignal{}) }

// clearValue implements the clear builtin for maps and slices.
func clearValue(x any) {
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Map, reflect.Slice:
		v.Clear()
	default:
		panic("interp: clear: argument must be a map or a slice, not " + v.Type().String())
	}
}

// preludeSrc declares what rewritten cells use besides the compiled helpers.
// min and max are generic functions: yaegi lacks the builtins.
const preludeSrc = `import _gt "` + rtPath + `"

var _gtStop int32

type _gtOrdered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

func _gtMin[_gtT _gtOrdered](x _gtT, ys ..._gtT) _gtT {
	for _, y := range ys {
		if y < x || y != y {
			x = y
		}
	}
	return x
}

func _gtMax[_gtT _gtOrdered](x _gtT, ys ..._gtT) _gtT {
	for _, y := range ys {
		if y > x || y != y {
			x = y
		}
	}
	return x
}
`
