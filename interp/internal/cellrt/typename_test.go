package cellrt

import (
	"fmt"
	"testing"
)

// _fake_Stringer has the shape of the interpreter's wrapper of a value
// handed to compiled code as a fmt.Stringer (see isWrapper).
type _fake_Stringer struct {
	IValue  any
	WString func() string
}

func (w _fake_Stringer) String() string { return w.WString() }

type cellPoint struct{ X, Y int }

// TestTypeNameOfWrapped checks that TypeName asks the cell's type test
// about the value inside the interpreter's wrapper when the wrapper
// itself is not one of the cell's types (%T of a cell's struct held in a
// fmt.Stringer printed the struct's representation).
func TestTypeNameOfWrapped(t *testing.T) {
	cellTypes := func(v any) string {
		if _, ok := v.(cellPoint); ok {
			return "main.Point"
		}
		return ""
	}
	var s fmt.Stringer = _fake_Stringer{IValue: cellPoint{1, 2}, WString: func() string { return "p" }}
	for _, c := range []struct {
		v    any
		want string
	}{
		{s, "main.Point"},
		{cellPoint{3, 4}, "main.Point"},
		{_fake_Stringer{IValue: 7}, "int"}, // no cell type: the value inside (see dynamic)
		{2.5, "float64"},
		{nil, "<nil>"},
	} {
		if got := TypeName(c.v, cellTypes); got != c.want {
			t.Errorf("TypeName(%#v) = %q, want %q", c.v, got, c.want)
		}
	}
}
