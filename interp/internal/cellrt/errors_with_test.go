package cellrt

import (
	"errors"
	"fmt"
	"testing"
)

// opaque is an error whose Unwrap and Is methods compiled code cannot
// see, as a cell's error type's: methods gives them.
type opaque struct {
	inner error
	is    error
}

func (o opaque) Error() string { return "opaque" }

func opaqueMethods(v any) (func() error, func() []error, func(error) bool) {
	o, ok := v.(opaque)
	if !ok {
		return nil, nil, nil
	}
	return func() error { return o.inner }, nil, func(t error) bool { return t == o.is }
}

func TestErrorsWithCellMethods(t *testing.T) {
	sentinel, other := errors.New("sentinel"), errors.New("other")
	err := fmt.Errorf("outer: %w", opaque{inner: fmt.Errorf("mid: %w", sentinel), is: other})
	if ErrorsIs(err, sentinel) {
		t.Error("ErrorsIs followed a method it cannot see")
	}
	if !ErrorsIsWith(err, sentinel, opaqueMethods) {
		t.Error("ErrorsIsWith did not follow the cell's Unwrap")
	}
	if !ErrorsIsWith(err, other, opaqueMethods) {
		t.Error("ErrorsIsWith did not call the cell's Is")
	}
	if ErrorsIsWith(err, errors.New("sentinel"), opaqueMethods) {
		t.Error("ErrorsIsWith matched another error with the same text")
	}
	inner := ErrorsUnwrapWith(opaque{inner: sentinel}, opaqueMethods)
	if inner != sentinel || ErrorsUnwrapWith(err, opaqueMethods) == nil || ErrorsUnwrapWith(sentinel, opaqueMethods) != nil {
		t.Errorf("ErrorsUnwrapWith: got %v", inner)
	}
	found := ErrorsAs(err, func(v any) bool { return v == sentinel }, opaqueMethods)
	if !found {
		t.Error("ErrorsAs did not follow the cell's Unwrap")
	}
}

// tagged stands for what the interpreted dispatch gives fmt for a value
// of a cell's type: a value of another type with the type's methods.
type tagged struct{ s string }

func (t tagged) String() string { return "<" + t.s + ">" }

func TestFmtAny(t *testing.T) {
	tag := func(v any) any {
		if s, ok := v.(string); ok {
			return tagged{s}
		}
		return v
	}
	type box struct {
		V any
		N int
		l []any
	}
	b := box{"x", 1, []any{"hidden"}}
	got := fmt.Sprint(FmtAny([]any{"a", 1, []any{"b"}}, tag), " ", FmtAny("c", tag), " ", FmtAny([]int{1}, tag), " ",
		FmtAny(b, tag), " ", FmtAny(&b, tag), " ", FmtAny(map[string]any{"k": "v"}, tag), " ", FmtAny([]box{b}, tag), " ", FmtAny("d", nil))
	if want := "[<a> 1 [<b>]] <c> [1] {<x> 1 [hidden]} &{<x> 1 [hidden]} map[k:<v>] [{<x> 1 [hidden]}] d"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if b.V != "x" {
		t.Errorf("FmtAny changed its argument: %v", b.V)
	}
}
