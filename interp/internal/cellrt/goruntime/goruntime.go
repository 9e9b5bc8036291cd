// Package runtime holds the run-time errors of interpreted cells, under
// the names of the Go runtime's: a cell that recovers an index out of
// range, a nil pointer dereference or a failed type assertion gets a
// runtime.Error whose type prints as Go's does (%T gives
// runtime.boundsError, runtime.errorString, *runtime.TypeAssertionError).
// The interpreter raises these panics itself, as reflect's (a string, a
// *reflect.ValueError), and package cellrt turns them into these (see
// cellrt.Recovered).
//
// Its import path is not the standard library's: a cell's assertion to
// the standard library's *runtime.TypeAssertionError does not match these
// values; runtime.Error, error and errors.As do.
package runtime

// A boundsError is an index or a slice expression out of range.
type boundsError struct{ msg string }

func (e boundsError) Error() string { return "runtime error: " + e.msg }

// RuntimeError marks the error as a run-time panic (runtime.Error).
func (boundsError) RuntimeError() {}

// Bounds returns the error of an index or slice expression out of
// range; msg follows "runtime error: " ("index out of range").
func Bounds(msg string) error { return boundsError{msg} }

// An errorString is another run-time error: a nil pointer dereference, a
// size out of range.
type errorString string

func (e errorString) Error() string { return "runtime error: " + string(e) }

// RuntimeError marks the error as a run-time panic (runtime.Error).
func (errorString) RuntimeError() {}

// Error returns a run-time error of text msg, which follows "runtime
// error: " ("invalid memory address or nil pointer dereference").
func Error(msg string) error { return errorString(msg) }

// A TypeAssertionError is a failed type assertion.
type TypeAssertionError struct{ msg string }

func (e *TypeAssertionError) Error() string { return e.msg }

// RuntimeError marks the error as a run-time panic (runtime.Error).
func (*TypeAssertionError) RuntimeError() {}

// Assertion returns the error of a failed type assertion, whose text is
// msg ("interface conversion: interface {} is string, not int").
func Assertion(msg string) error { return &TypeAssertionError{msg} }
