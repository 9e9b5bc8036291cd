package goroutine

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/petermattis/goid"
)

// ID returns the calling goroutine's number: the one its stack trace
// shows ("goroutine 18 [running]:"), unique while the goroutine runs.
// It takes nanoseconds: it reads the runtime's record of the goroutine,
// where module github.com/petermattis/goid knows the runtime's layout,
// checked against the stack trace when the process starts; where the two
// differ (a Go release that moved the field), ID reads the stack trace,
// which takes microseconds or more on a deep stack.
func ID() uint64 {
	if fast {
		return uint64(goid.Get())
	}
	return stackID()
}

// fast reports whether goid.Get gives what the stack trace says, checked
// on the goroutine that initialises the package and on a new one.
var fast = func() bool {
	if uint64(goid.Get()) != stackID() {
		return false
	}
	same := make(chan bool)
	go func() { same <- uint64(goid.Get()) == stackID() }()
	return <-same
}()

// stackID reads the calling goroutine's number from the first line of its
// stack trace.
func stackID() uint64 {
	var buf [40]byte
	n := runtime.Stack(buf[:], false)
	const prefix = "goroutine "
	var id uint64
	for _, c := range buf[len(prefix):n] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
	}
	return id
}

// A Local holds a value of type T per goroutine. Its zero value is ready
// to use and holds no values. A Local must not be copied after first use.
//
// Get costs one atomic load while no goroutine has a value, and a map
// look-up under a read lock while some goroutine has one.
type Local[T any] struct {
	n  atomic.Int64 // how many goroutines have a value
	mu sync.RWMutex
	m  map[uint64]T
}

// Get returns the calling goroutine's value and true, or T's zero value
// and false when the goroutine has none.
func (l *Local[T]) Get() (v T, ok bool) {
	if l.n.Load() == 0 {
		return v, false
	}
	id := ID()
	l.mu.RLock()
	v, ok = l.m[id]
	l.mu.RUnlock()
	return v, ok
}

// Set gives the calling goroutine the value v until restore is called,
// which gives it back the value it had before (or none). Calls nest:
// restore them in the reverse order, as a defer does:
//
//	defer l.Set(v)()
//
// restore may be called from any goroutine, once.
func (l *Local[T]) Set(v T) (restore func()) {
	id := ID()
	l.mu.Lock()
	if l.m == nil {
		l.m = map[uint64]T{}
	}
	prev, had := l.m[id]
	l.m[id] = v
	if !had {
		l.n.Add(1)
	}
	l.mu.Unlock()
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if had {
			l.m[id] = prev
			return
		}
		delete(l.m, id)
		l.n.Add(-1)
	}
}
