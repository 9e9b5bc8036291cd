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
// Get costs one atomic load while no goroutine has a value, and a look-up
// in a map that is never written (Set copies it) while some goroutine has
// one: reads take no lock, so goroutines that read at once do not slow
// each other, and Set, which runs when a scope opens or closes, pays for
// it with a copy of a map of the few goroutines that have a value.
type Local[T any] struct {
	m  atomic.Pointer[map[uint64]T] // nil or empty: no goroutine has a value
	mu sync.Mutex                   // serialises writers
}

// Get returns the calling goroutine's value and true, or T's zero value
// and false when the goroutine has none.
func (l *Local[T]) Get() (v T, ok bool) {
	m := l.m.Load()
	if m == nil {
		return v, false
	}
	v, ok = (*m)[ID()]
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
	var prev T
	var had bool
	l.update(func(m map[uint64]T) {
		prev, had = m[id]
		m[id] = v
	})
	return func() {
		l.update(func(m map[uint64]T) {
			if had {
				m[id] = prev
			} else {
				delete(m, id)
			}
		})
	}
}

// update applies change to a copy of the map and publishes the copy (nil
// when it is empty, so that Get's check stays one load).
func (l *Local[T]) update(change func(map[uint64]T)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := map[uint64]T{}
	if old := l.m.Load(); old != nil {
		for k, v := range *old {
			m[k] = v
		}
	}
	change(m)
	if len(m) == 0 {
		l.m.Store(nil)
		return
	}
	l.m.Store(&m)
}
