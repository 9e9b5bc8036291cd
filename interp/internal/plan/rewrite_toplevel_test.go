package plan

import "testing"

// TestRewritesTopLevel checks the code generated for the cell's top-level statements.
func TestRewritesTopLevel(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"top-level defer and goto stay in the cell's function", "defer fmt.Println(\"done\")\nk := 0\nagain:\nk++\nif k < 3 { goto again }",
			[]string{"defer fmt.Println(\"done\")", "again:\nk++"}, nil},
		{"a top-level var of an interface written in the cell is nil, not yaegi's *new of it", "type Shape interface{ Area() float64 }\nvar sh Shape\nvar a, b Shape\nvar e error",
			[]string{"sh = nil", "a, b = func() (Shape, Shape) { return nil, nil }()", "e = *new(error)"}, nil},
	})
}
