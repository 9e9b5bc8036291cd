package autograd

import "errors"

// ErrFreed is what Backward returns for a graph that an earlier Backward
// released (its saved inputs and closures are gone). The library on top
// (package tensor) turns it into its own error, in its own terms.
var ErrFreed = errors.New("autograd: Backward through a graph that was already freed")
