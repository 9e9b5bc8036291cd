package interp

import (
	"reflect"
	"sync/atomic"
)

// rtPath is the import path, as yaegi sees it, of the compiled helpers that
// rewritten cells call (_gt.Stop, _gt.GoPanic, _gt.Result, _gt.Clear).
const rtPath = "gotensor.internal/cell"

// interruptSignal is the value a stopped cell panics with. It unwinds to the
// cell boundary like any panic, so no interpreter state is corrupted.
type interruptSignal struct{}

// interrupting is set while a cell is being interrupted.
var interrupting atomic.Bool

// Interrupted reports whether the running cell has been asked to stop.
// Long-running compiled code called from a cell (tensor ops, data loading)
// polls it between chunks of work and, when it is set, returns early or calls
// CheckInterrupt. The kernel installs it as the tensor library's
// cancellation hook.
func Interrupted() bool { return interrupting.Load() }

// CheckInterrupt panics when the running cell has been asked to stop, which
// ends the cell with an "Interrupted" error. It is safe to call from any
// goroutine; it costs one atomic load when there is nothing to do.
func CheckInterrupt() {
	if interrupting.Load() {
		panic(interruptSignal{})
	}
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

func _gtMin[T _gtOrdered](x T, ys ...T) T {
	for _, y := range ys {
		if y < x || y != y {
			x = y
		}
	}
	return x
}

func _gtMax[T _gtOrdered](x T, ys ...T) T {
	for _, y := range ys {
		if y > x || y != y {
			x = y
		}
	}
	return x
}
`
