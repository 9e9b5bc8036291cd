// Package parallel runs the loops of the tensor kernels on all cores.
//
// For splits an index range into chunks and runs them on up to
// runtime.GOMAXPROCS goroutines, the caller's included; small ranges run
// inline, so small tensor ops pay nothing. A panic in any chunk is raised
// again on the calling goroutine with the same value, so a typed error from
// a kernel reaches the caller's recover.
//
// Long loops can be stopped: For reads the interrupt hook of its caller's
// goroutine (backend.InterruptHook, which a notebook session binds to the
// goroutines that run its cells), consults it before each chunk on every
// goroutine it runs chunks on and, once it reports true, runs no more
// chunks and panics with backend.ErrInterrupted. The chunks run for the
// caller: another session's interrupt does not stop them.
package parallel
