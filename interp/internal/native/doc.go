// Package native is the runtime of compiled cells: the Go code that the
// planner generates for a cell (see the plan package's compiled cells),
// built into a Go plugin and opened by the session, calls it for the
// session's hooks (output, os.Exit, goroutine panics, interrupts,
// runaway recursion) and hands the session its symbols through it when
// the plugin is opened.
//
// It is small on purpose: every cell's plugin links it, and the link time
// of a cell grows with what its packages import.
package native
