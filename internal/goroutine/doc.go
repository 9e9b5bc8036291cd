// Package goroutine gives state to goroutines, which Go does not: the
// number of the calling goroutine (ID) and a value per goroutine (Local),
// as PyTorch keeps its grad mode per thread.
//
// gotensor uses it for what belongs to whoever runs an op rather than to
// the process: the grad mode (package autograd), the autocast scope
// (package tensor), a notebook session's interrupt hook (package backend)
// and where a session's outputs go (package display). A Local costs one
// atomic load while no goroutine has a value, so ops pay nothing for it
// outside the scopes that use it.
//
// A new goroutine starts with no values: a value never passes to the
// goroutines its goroutine starts. Code that hands its work to other
// goroutines and wants them to behave as itself (the parallel chunks of
// one op, a notebook cell's own go statements) reads the value on its own
// goroutine and sets it on theirs.
package goroutine
