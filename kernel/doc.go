// Package kernel runs a Jupyter kernel: it binds the five ZeroMQ sockets a
// connection file names, answers heartbeats, routes shell, control and stdin
// requests, and publishes outputs on iopub. It knows nothing about Go the
// language: everything a cell means is left to an Interpreter.
//
// The layers follow xeus: package protocol is the wire format, this package
// is the kernel core (a table from msg_type to handler, with busy and idle
// published around every request), and Interpreter is the language.
//
//	info, err := protocol.ReadConnectionFile(path)
//	restart, err := kernel.Run(ctx, kernel.Config{Conn: info, Interp: session})
//
// Cells run one at a time, in arrival order, on one execution goroutine;
// control requests (interrupt_request, shutdown_request) are served
// concurrently, so an interrupt reaches a running cell by cancelling its
// context. SIGINT does the same.
//
// An Interpreter may also be a Comms (comm messages, on which widgets are
// built) and a Debugger (JupyterLab's visual debugger): the kernel's
// DebugAdapter answers the debug protocol's plumbing, as xeus's
// xdebugger_base does, and hands each request to the handler the
// Debugger gives for its command.
package kernel
