package autograd

import "github.com/gotensor/gotensor/internal/goroutine"

// The grad mode is per goroutine, as PyTorch's is per thread: NoGrad
// turns recording off on the goroutine that calls it, for the time f
// runs, and leaves every other goroutine (another notebook session's
// cells, a data loader) recording as before. A goroutine started inside
// a NoGrad scope records (PyTorch's threads likewise start with grad
// on): call NoGrad in it too. The check costs ops one atomic load while
// no goroutine of the process is inside a scope.

// noGrad holds a value for each goroutine inside a NoGrad scope or a
// Backward pass.
var noGrad goroutine.Local[struct{}]

// Enabled reports whether ops on the calling goroutine record a graph
// now: true unless the goroutine runs inside a NoGrad scope (or a
// Backward pass).
func Enabled() bool {
	_, off := noGrad.Get()
	return !off
}

// NoGrad runs f with recording turned off on the calling goroutine:
// results computed inside build no graph and do not require grad. Scopes
// nest, and f's panics propagate after recording is restored. Ops on
// other goroutines while f runs, those f starts included, record as
// usual.
func NoGrad(f func()) {
	defer noGrad.Set(struct{}{})()
	f()
}
