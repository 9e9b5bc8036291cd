// Helpers declared before the types they print and unwrap (in cells, a
// cell before): fmt of interface values and errors.Is follow the types
// declared later.
package main

import (
	"errors"
	"fmt"
	"strings"
)

func describe(vals ...any) string {
	var b strings.Builder
	for _, v := range vals {
		fmt.Fprintf(&b, "[%v]", v)
	}
	return b.String()
}

var ErrNotFound = errors.New("not found")

func isNotFound(err error) bool { return errors.Is(err, ErrNotFound) }

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("%.1f°", float64(t)) }

type LookupError struct {
	Key string
	Err error
}

func (e *LookupError) Error() string { return e.Key + ": " + e.Err.Error() }
func (e *LookupError) Unwrap() error { return e.Err }

func main() {
	fmt.Println(describe(Temp(20), "x", 3))
	var err error = &LookupError{"k", ErrNotFound}
	fmt.Println(isNotFound(err), isNotFound(errors.New("other")), errors.Unwrap(err) == ErrNotFound)
}
