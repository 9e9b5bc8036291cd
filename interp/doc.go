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
//   - imports run first, then declarations, then statements one by one;
//     importing a package again is harmless;
//   - a top-level function is kept in a variable, so redefining it reaches
//     the functions that call it; a redefined type gets a fresh name and the
//     old name becomes an alias of it;
//   - every loop and function body tests an interrupt flag, so cancelling
//     Execute's context stops the cell without corrupting closures;
//   - "go f(x)" reports a panic in the goroutine instead of killing the
//     process;
//   - "for i := range n", min, max and clear work.
//
// Output written by interpreted code streams to the Output in batches while
// the cell runs; with Options.CaptureStdio, so does what compiled code writes
// to os.Stdout and os.Stderr. A cell that ends in an expression of one value
// returns the value rendered by display.Render. Compile errors and panics
// come back as *Error, with positions in the cell's own lines.
//
// Lines starting with % are magics (%time, %timeit, %who, %reset, %env, %cd,
// %help) and lines starting with ! run shell commands.
package interp
