// Package autograd is gotensor's reverse-mode differentiation engine: a
// dynamic tape in the style of PyTorch and micrograd.
//
// The engine knows nothing of tensors. A library (package tensor) gives
// each result that needs a gradient a *Node holding the nodes of its inputs
// and a backward closure written next to the op's forward code. Backward
// sorts the graph topologically, walks it in reverse calling each closure,
// sums the gradients a node receives from several uses (so a value used
// twice is right), sums gradients of broadcast inputs back to their
// shapes, and accumulates the result into the leaves' gradients.
//
// Values are seen only through the small Value interface. The engine never
// switches on op names: every rule lives in the closure.
//
// After Backward the graph is freed (closures and input links are dropped,
// so the memory they hold is reclaimed); a second Backward through it
// returns ErrFreed. The engine never panics on misuse: it reports errors,
// and the library on top decides what users see. NoGrad scopes turn
// recording off on the goroutine that opens them (the grad mode is per
// goroutine, as PyTorch's is per thread).
package autograd
