package interp

import (
	"errors"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gotensor/gotensor/interp/internal/cellrt"
	"github.com/gotensor/gotensor/kernel"
	"github.com/gotensor/gotensor/tensorlib/backend"
)

// interrupter is a session's interrupt state: how a running cell is asked
// to stop, in each place it may be running.
//
//   - Interpreted loops test the prelude's _gtStop, and function bodies
//     compare their depth with _gtLimit (set to -1, every call calls
//     _gt.Enter, which stops the cell): the cell unwinds with a panic, so
//     closures defined before keep working (docs/design.md: yaegi's
//     own cancellation corrupts them). _gtStop is also set, with
//     another bit, when work is posted to the running cell (Post): the
//     loop's _gt.Stop runs it and the loop goes on (see attention).
//   - Compiled tensor code polls the hook bound to the session's
//     goroutines with backend.BindInterruptHook (the session's
//     Interrupted; see Session.bind).
//   - time.Sleep in a cell wakes up (see sleep).
type interrupter struct {
	stop  *int32 // the prelude's _gtStop
	limit *int   // the prelude's _gtLimit
	depth *int   // the prelude's _gtDepth
	line  *int   // the prelude's _gtLine: the cell line of the top-level statement running
	max   int    // the recursion limit (Options.MaxDepth)

	on atomic.Bool
	mu sync.Mutex
	c  chan struct{} // closed when the cell is interrupted; see sleep

	bitMu sync.Mutex   // one change of _gtStop at a time
	bits  atomic.Int32 // what _gtStop holds: stopInterrupt | stopAttention

	// flags sets the stop flags of compiled cells' code (see compiled.go)
	// to what _gtStop holds.
	flags func(v int32)
}

// The bits of _gtStop: interpreted loops call _gt.Stop when it is not 0.
const (
	stopInterrupt = 1 << iota // the cell is interrupted
	stopAttention             // work is posted to the running cell
)

// setBits sets and clears bits of _gtStop.
func (in *interrupter) setBits(set, clear int32) {
	in.bitMu.Lock()
	defer in.bitMu.Unlock()
	b := in.bits.Load()&^clear | set
	in.bits.Store(b)
	storeInt32(in.stop, b)
	if in.flags != nil {
		in.flags(b)
	}
}

// attend asks the running cell to run the work posted to it at its next
// safe point.
func (in *interrupter) attend() { in.setBits(stopAttention, 0) }

// settle clears the request of attend.
func (in *interrupter) settle() { in.setBits(0, stopAttention) }

// attention reports whether work was posted since the last settle.
func (in *interrupter) attention() bool { return in.bits.Load()&stopAttention != 0 }

// bind points the interrupter at a fresh interpreter's prelude variables.
func (in *interrupter) bind(stop *int32, depth, limit, line *int) {
	in.stop, in.depth, in.limit, in.line = stop, depth, limit, line
	in.reset()
}

// interrupt asks the running cell to stop.
func (in *interrupter) interrupt() {
	in.setBits(stopInterrupt, 0)
	storeInt(in.limit, -1) // read by interpreted code without synchronization, as yaegi reads any global
	in.mu.Lock()
	defer in.mu.Unlock()
	if !in.on.Swap(true) {
		close(in.c)
	}
}

// reset clears an interrupt request and readies the counters for a cell.
func (in *interrupter) reset() {
	in.setBits(0, stopInterrupt)
	storeInt(in.limit, in.max)
	storeInt(in.depth, 0)
	storeInt(in.line, 0)
	in.mu.Lock()
	defer in.mu.Unlock()
	in.on.Store(false)
	in.c = make(chan struct{})
}

// interrupted reports whether the running cell was asked to stop.
func (in *interrupter) interrupted() bool { return in.on.Load() }

// done returns the channel closed when the cell is interrupted.
func (in *interrupter) done() <-chan struct{} {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.c
}

// sleep is time.Sleep for cells: it ends the cell when the cell is
// interrupted, so that time.Sleep(time.Hour) stops at once.
func (in *interrupter) sleep(d time.Duration) {
	c := in.done()
	if in.interrupted() {
		panic(cellrt.Interrupted{})
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-c:
		panic(cellrt.Interrupted{})
	}
}

// isInterrupt reports whether a recovered panic value ends an interrupted
// cell: the runtime's signal, or the tensor library's
// backend.ErrInterrupted (yaegi may hand either over as a reflect.Value).
func isInterrupt(r any) bool {
	if v, ok := r.(reflect.Value); ok && v.IsValid() && v.CanInterface() {
		r = v.Interface()
	}
	switch r := r.(type) {
	case cellrt.Interrupted:
		return true
	case error:
		return errors.Is(r, backend.ErrInterrupted)
	}
	return false
}

// interruptedError is the error of an interrupted cell.
func interruptedError() *kernel.Error {
	return &kernel.Error{Name: "Interrupted", Value: "the cell was interrupted", Traceback: []string{"Interrupted: the cell was interrupted"}}
}
