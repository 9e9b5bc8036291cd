package plan

import "testing"

// TestRewritesTopLevel checks the code generated for the cell's top-level statements.
func TestRewritesTopLevel(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"top-level defer and goto stay in the cell's function", "defer fmt.Println(\"done\")\nk := 0\nagain:\nk++\nif k < 3 { goto again }",
			[]string{"defer fmt.Println(\"done\")", "again:\nk++"}, nil},
	})
}
