package native

import "runtime"

// callers fills pcs with the stack of the goroutine that panicked, from
// the function that panicked on (the deferred Recover's caller is the
// runtime's panic machinery).
func callers(pcs []uintptr) int { return runtime.Callers(3, pcs) }
