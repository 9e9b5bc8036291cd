package cellrt

import (
	"reflect"
	"regexp"
)

// RuntimeError is a run-time error that the interpreter raised (a failed
// type assertion), as Go reports it: the interpreter's own error value
// starts with its source position, which Go's do not.
type RuntimeError struct{ Msg string }

func (e *RuntimeError) Error() string { return e.Msg }

// RuntimeError marks a RuntimeError as a run-time error (runtime.Error).
func (*RuntimeError) RuntimeError() {}

// interpErrorType is the type of the interpreter's run-time errors.
const interpErrorType = "*interp.cfgError"

// position matches the source position that starts the text of the
// interpreter's run-time errors: "22:10: " or "_.go:100010022:10: ".
var position = regexp.MustCompile(`^(?:\S+:)?\d+:\d+: `)

// Recovered stands for recover() in cells: the interpreter's run-time
// errors become *RuntimeError with Go's text; a value the cell panicked
// with, which the interpreter panics with as a reflect.Value (so fmt
// printed a cell type's struct without its methods), is that value; any
// other value is r.
func Recovered(r any) any {
	if v, ok := r.(reflect.Value); ok {
		if !v.IsValid() || !v.CanInterface() {
			return r
		}
		return v.Interface()
	}
	if r == nil || reflect.TypeOf(r).String() != interpErrorType {
		return r
	}
	err, ok := r.(error)
	if !ok {
		return r
	}
	return &RuntimeError{Msg: position.ReplaceAllString(err.Error(), "")}
}
