// errors.Is and errors.As following a cell error type's Unwrap and Is.
package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

var ErrNotFound = errors.New("not found")

type QueryError struct {
	Query string
	Err   error
}

func (e *QueryError) Error() string { return e.Query + ": " + e.Err.Error() }
func (e *QueryError) Unwrap() error { return e.Err }

type Timeout struct{ Op string }

func (t Timeout) Error() string        { return t.Op + " timed out" }
func (t Timeout) Is(target error) bool { return target == os.ErrDeadlineExceeded }

type Multi struct{ errs []error }

func (m Multi) Error() string   { return "multi" }
func (m Multi) Unwrap() []error { return m.errs }

func main() {
	err := &QueryError{"q", ErrNotFound}
	fmt.Println(errors.Is(err, ErrNotFound))
	wrapped := fmt.Errorf("outer: %w", err)
	fmt.Println(errors.Is(wrapped, ErrNotFound), errors.Unwrap(err) == ErrNotFound)
	var qe *QueryError
	fmt.Println(errors.As(wrapped, &qe), qe.Query)
	fmt.Println(errors.Is(Timeout{"read"}, os.ErrDeadlineExceeded))
	fmt.Println(errors.Is(fmt.Errorf("x: %w", Timeout{"w"}), os.ErrDeadlineExceeded))
	m := Multi{[]error{errors.New("a"), err}}
	fmt.Println(errors.Is(m, ErrNotFound), errors.Is(m, fs.ErrClosed))
}
