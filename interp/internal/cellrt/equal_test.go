package cellrt

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestEqual checks Equal against what Go's == gives for the same values
// (written out: the values inside Fmt's wrappers are what a cell's
// errors are).
func TestEqual(t *testing.T) {
	type e struct{ N int }
	str := func() string { return "e" }
	errOf := func(v any) error { return Fmt(v, nil, str, nil, nil).(error) }
	p := &e{1}
	cases := []struct {
		name string
		a, b any
		want bool
	}{
		{"errors made from equal values", errOf(e{1}), errOf(e{1}), true},
		{"errors made from different values", errOf(e{1}), errOf(e{2}), false},
		{"an error and the value", errOf(e{1}), e{1}, true},
		{"errors made from one pointer", errOf(p), errOf(p), true},
		{"errors made from two pointers", errOf(p), errOf(&e{1}), false},
		{"compiled errors", io.EOF, io.EOF, true},
		{"two errors.New", errors.New("x"), errors.New("x"), false},
		{"values of different types", 1, int64(1), false},
		{"nil and nil", nil, nil, true},
		{"nil and a value", nil, 0, false},
	}
	for _, c := range cases {
		if got := Equal(c.a, c.b); got != c.want {
			t.Errorf("%s: Equal = %v, want %v", c.name, got, c.want)
		}
	}
	defer func() {
		r := recover()
		err, ok := r.(error)
		if !ok || !strings.Contains(err.Error(), "runtime error: comparing uncomparable type []int") {
			t.Errorf("Equal of two slices: got panic %v, want runtime error: comparing uncomparable type []int", r)
		}
	}()
	Equal([]int{1}, []int{1})
}

// _wrapper has the shape of the interpreter's wrapper of a value with
// methods handed to compiled code.
type _wrapper struct {
	IValue  any
	WString func() string
}

func (w _wrapper) String() string { return w.WString() }

// TestRewrap checks that Rewrap puts the value into the interpreter's
// wrapper, keeping its methods, and leaves other values alone.
func TestRewrap(t *testing.T) {
	type pair struct {
		A int
		B string
	}
	w := _wrapper{IValue: "last field", WString: func() string { return "s" }}
	got, ok := Rewrap(w, pair{1, "x"}).(_wrapper)
	if !ok || got.IValue != (pair{1, "x"}) || got.String() != "s" || w.IValue != "last field" {
		t.Errorf("Rewrap = %#v, want the wrapper holding pair{1, \"x\"} with its String, the original unchanged", got)
	}
	if Unwrap(got) != (pair{1, "x"}) {
		t.Errorf("Unwrap of the rewrapped value = %v", Unwrap(got))
	}
	if r := Rewrap(3, pair{}); r != 3 {
		t.Errorf("Rewrap(3, ...) = %v, want 3", r)
	}
}

// TestRecoveredValue checks that a value the interpreter panicked with, as
// a reflect.Value, is recovered as the value itself.
func TestRecoveredValue(t *testing.T) {
	type parseError struct{ Input string }
	if got := Recovered(reflect.ValueOf(parseError{"w"})); got != (parseError{"w"}) {
		t.Errorf("Recovered(reflect.ValueOf(v)) = %#v, want the value", got)
	}
	if got := Recovered("boom"); got != "boom" {
		t.Errorf("Recovered(\"boom\") = %#v", got)
	}
	if got := Recovered(nil); got != nil {
		t.Errorf("Recovered(nil) = %#v", got)
	}
}
