// Package interp is a notebook session for Go on the yaegi interpreter.
//
// A Session runs cells: Go source in which imports, declarations (types,
// constants, variables, functions, methods) and statements mix in any order.
// Variables, functions, types and imports persist from cell to cell:
//
//	s, err := interp.New(interp.Options{})
//	b, err := s.Execute(ctx, "x := 20", out)
//	b, err = s.Execute(ctx, "x + 22", out) // b holds "42"
//
// A Session is the kernel's language (package kernel): it implements
// kernel.Interpreter, kernel.Comms and kernel.Debugger and speaks the
// kernel's types, as a xeus interpreter implements xeus's interface. Its
// cells write to a kernel.Output, their values come back as a
// kernel.Bundle and their failures as a *kernel.Error; anything else that
// runs cells (a headless run of a notebook, a test) gives an Output of its
// own.
//
// # A cell, from Execute to its reply
//
// A session has two parts. The planner (package internal/plan) type-checks
// the whole cell with go/types against the session's live declarations and
// returns a plan: steps of Go source that yaegi runs as Go would, with the
// interpreter's traps routed around (see the planner's doc). A cell that
// does not compile runs nothing; its errors are Go's, at the cell's
// line:column. The executor (this package) then
//
//   - fetches the module of an import no table holds (autoget, as GoNB's
//     %autoget: see interp/internal/modules);
//   - compiles each step once with yaegi and runs it, in a goroutine of the
//     cell's own (see cellRun): the declarations, then one function holding
//     the statements, which yaegi runs as a file's func init, so a cell adds
//     to yaegi's global frame only what it declares and its fixed cost does
//     not grow with the session;
//   - hands the planner back how many steps ran (plan.Session.Commit), so
//     the session's model is what the interpreter holds;
//   - renders the last value: a type a cell declared is displayed through
//     its HTML, Markdown, SVG, PNG, String, Error, Format and GoString
//     methods, which the generated code passes along (compiled code cannot
//     see them).
//
// Output written by interpreted code streams to the Output in batches while
// the cell runs; with Options.CaptureStdio, so does what compiled code writes
// to os.Stdout and os.Stderr, in the order it was written. print and println
// write to the cell's standard error, as in Go. Compile errors and panics
// come back as *kernel.Error, with positions in the cell's own lines.
//
// # Compiled cells
//
// With Options.Compile (the kernel sets it), a cell that declares
// functions, methods or types, or loops at its top level, runs as Go
// compiled by the toolchain that built the kernel: the planner writes it as
// a Go package (plan.Compiled), package cells builds that into a plugin
// with the go build cache's packages (cached by a hash of its source, so
// the same cell in a re-run notebook or a restarted kernel opens in
// milliseconds), and the session opens it and runs it (compiled.go). Its
// functions, methods and loops run at compiled speed, and the session's
// state stays one: later cells, compiled or interpreted, use what it
// declared, and it uses what interpreted cells declared (through pointers
// the executor sets). Glue cells (1+1, calls of the library, prints) stay
// interpreted, since the interpreter starts at once where a build takes
// about a second; so do cells that use what only the interpreter has, and
// every cell while a debugger is attached. Which cells compile depends on
// their text alone, never on timing. Without a toolchain every cell is
// interpreted, and the session says so once.
//
// # What a cell cannot do to the session
//
// A panic, in the cell or in a goroutine it started, ends the cell (or is
// reported) and the session lives. So do the things that end a Go program:
// os.Exit and log.Fatal end the cell with "exit status N" (the calling
// goroutine blocks for good, so no deferred call runs, as in Go);
// runtime.Goexit ends the cell; a call deeper than Options.MaxDepth
// (%maxdepth) is a RecursionError naming the function; a make larger than
// the memory left is a run-time error naming the sizes. Variables, functions,
// types and tensors defined before are as they were. Cancelling Execute's
// context interrupts the cell: interpreted loops and calls stop, so do the
// tensor library's long ops (backend.BindInterruptHook) and time.Sleep.
//
// What a session owns stays its own when several run in one process: the
// goroutines that run its cells, those the cells start and those that run
// widgets' callbacks are bound to it (Session.bind), so display functions
// publish to its running cell (display.Outlet), its live outputs are drawn
// in its cells, and its interrupt stops its own ops only. The grad mode
// and autocast scopes belong to each goroutine. What is truly the
// process's is shared: the devices and their memory, the tensor backends'
// registry, the modules loaded into the process.
//
// # Widgets and the safe point
//
// A session holds the widgets its cells make (package widgets: the
// constructors in its symbol table are bound to the session's
// widgets.Manager) and answers the front end's comm messages (CommOpen,
// CommMsg, CommClose, CommInfo) while a cell runs. A widget's new value
// is readable at once; the callbacks it triggers are posted (Post) and
// run at the session's safe point: on the running cell's goroutine when
// one of its loops next checks the interrupt flag (_gtStop, which Post
// sets with a bit of its own; the runtime's Stop and Check run the posted
// work and return, and end the cell only when it is interrupted), or at
// once between cells. Compiled loops reach the same point by calling the
// runtime's Stop or Check.
//
// Lines starting with % are magics (%time, %timeit, %who, %gpu, %reset,
// %maxdepth, %env, %cd, %go get/list/mod/autoget, %help) and lines starting
// with ! run shell commands.
package interp
