package autograd

import "sync/atomic"

// noGrad counts the NoGrad scopes entered and not yet left, process wide.
var noGrad atomic.Int64

// Enabled reports whether ops record a graph now: true unless a NoGrad
// scope (or a Backward pass) is running.
func Enabled() bool { return noGrad.Load() == 0 }

// NoGrad runs f with recording turned off: results computed inside build
// no graph and do not require grad. Scopes nest, and f's panics propagate
// after recording is restored. The scope is process wide: ops on other
// goroutines while f runs are not recorded either.
func NoGrad(f func()) {
	noGrad.Add(1)
	defer noGrad.Add(-1)
	f()
}
