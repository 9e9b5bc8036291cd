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
// The session hides the traps of yaegi v0.16.1 by rewriting each cell before
// yaegi sees it:
//
//   - imports run first, then type, constant, function and method
//     declarations, then statements and var declarations in the order
//     written; functions and methods that use variables the statements
//     define are compiled once those exist; importing a package again is
//     harmless;
//   - each top-level statement runs inside a function literal, and "x := e"
//     assigns to x from there, reusing x's slot when its type is unchanged:
//     yaegi would otherwise keep every value top-level code ever made (a
//     cell making a large tensor, run 100 times, would hold 100 tensors);
//   - a top-level function is kept in a variable, so redefining it reaches
//     the functions that call it; a redefined type gets a fresh name and the
//     old name becomes an alias of it;
//   - every loop and function body tests an interrupt flag, so cancelling
//     Execute's context stops the cell without corrupting closures; the
//     tensor library's interrupt hook and time.Sleep stop too;
//   - "go f(x)" reports a panic in the goroutine instead of killing the
//     process;
//   - "for i := range n", min, max and clear work.
//
// A last value whose type a cell declares is displayed through its HTML,
// Markdown, SVG, PNG and String methods, which the interpreter calls.
//
// Output written by interpreted code streams to the Output in batches while
// the cell runs; with Options.CaptureStdio, so does what compiled code writes
// to os.Stdout and os.Stderr. A cell that ends in an expression of one value
// returns the value rendered by display.Render. Compile errors and panics
// come back as *Error, with positions in the cell's own lines.
//
// An import of a package of any Go module works too: the session fetches
// the module with the go command and loads the package compiled, as a plugin
// (see interp/internal/modules); %go get fetches modules ahead, at a version.
//
// Lines starting with % are magics (%time, %timeit, %who, %reset, %env, %cd,
// %go get/list/mod/autoget, %help) and lines starting with ! run shell
// commands.
package interp
