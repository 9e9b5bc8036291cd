package cellrt

import (
	"reflect"
	"regexp"
	"strings"

	goruntime "github.com/gotensor/gotensor/interp/internal/cellrt/goruntime"
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
// errors become Go's (runtime.Error values whose types print as Go's,
// see package goruntime); a value the cell panicked with, which the
// interpreter panics with as a reflect.Value (so fmt printed a cell
// type's struct without its methods), is that value; any other value is
// r.
func Recovered(r any) any {
	if v, ok := r.(reflect.Value); ok {
		if !v.IsValid() || !v.CanInterface() {
			return r
		}
		return v.Interface()
	}
	switch x := r.(type) {
	case string:
		// reflect's panics, where the interpreter indexes, slices,
		// calls or makes: a cell's own panic("...") comes as a
		// reflect.Value.
		if e, ok := reflectPanics[x]; ok {
			return e
		}
		return r
	case *reflect.ValueError:
		// A field, an element or the value of a nil pointer.
		if strings.HasSuffix(x.Error(), "on zero Value") {
			return nilDeref
		}
		return r
	}
	if r == nil || reflect.TypeOf(r).String() != interpErrorType {
		return r
	}
	err, ok := r.(error)
	if !ok {
		return r
	}
	msg := position.ReplaceAllString(err.Error(), "")
	if strings.HasPrefix(msg, "interface conversion: ") {
		return goruntime.Assertion(msg)
	}
	return &RuntimeError{Msg: msg}
}

// nilDeref is Go's error of a nil pointer dereference.
var nilDeref = goruntime.Error("invalid memory address or nil pointer dereference")

// reflectPanics are the run-time errors that reflect's panics in the
// interpreter stand for. Go's texts say which index and length; reflect's
// do not, and neither do these.
var reflectPanics = map[string]error{
	"reflect: slice index out of range":                     goruntime.Bounds("index out of range"),
	"reflect: array index out of range":                     goruntime.Bounds("index out of range"),
	"reflect: string index out of range":                    goruntime.Bounds("index out of range"),
	"reflect.Value.Slice: slice index out of bounds":        goruntime.Bounds("slice bounds out of range"),
	"reflect.Value.Slice: string slice index out of bounds": goruntime.Bounds("slice bounds out of range"),
	"reflect.Value.Slice3: slice index out of bounds":       goruntime.Bounds("slice bounds out of range"),
	"reflect.Value.Call: call of nil function":              nilDeref,
	"reflect.MakeSlice: negative len":                       goruntime.Error("makeslice: len out of range"),
	"reflect.MakeSlice: len > cap":                          goruntime.Error("makeslice: cap out of range"),
	"reflect.MakeSlice: negative cap":                       goruntime.Error("makeslice: cap out of range"),
}
