package plan

import "testing"

// TestCommaOkValue checks where a comma-ok value goes to variables
// declared before its statement (see commaOkStmt): map indexes and
// assertions the interpreter runs as written, defined, assigned and
// declared in a function, before an if statement in a block around it;
// where it is a function literal's results instead (the cell's top
// level, an interface's value); and which values stay as written (a
// discarded value, a map's element). interp's TestGocompat
// (assign/commaok_fails_zero) runs them against go run.
func TestCommaOkValue(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"map indexes defined, assigned and declared in a function", "var m = map[string]int{}\nfunc f(k string) { n, ok := m[k]; n, ok = m[k]; var w, _ = m[k]; _, _, _ = n, ok, w }",
			[]string{"var _gtv1 int; var _gtv2 bool; _gtv1, _gtv2 = m[k]; n, ok := _gtv1, _gtv2",
				"var _gtv3 int; var _gtv4 bool; _gtv3, _gtv4 = m[k]; n, ok = _gtv3, _gtv4",
				"var _gtv5 int; var _gtv6 bool; _gtv5, _gtv6 = m[k]; var w, _ = _gtv5, _gtv6"}, nil},
		{"an assertion in a loop, and a map index in an if's initial statement", "var vals []any\nvar m = map[string]int{}\nfunc f() { for _, v := range vals { s, _ := v.(string); if n, ok := m[s]; ok { _ = n } } }",
			[]string{"var _gtv1 string; var _gtv2 bool; _gtv1, _gtv2 = v.(string); s, _ := _gtv1, _gtv2",
				"{ var _gtv3 int; var _gtv4 bool; _gtv3, _gtv4 = m[s]; if n, ok := _gtv3, _gtv4; ok { _ = n } }"}, nil},
		{"at the cell's top level, and an interface's value: a function literal's results", "var vals []any\ns, _ := vals[0].(string)\nfunc g(v any) { e, ok := v.(any); _, _ = e, ok }",
			[]string{"s, _ = func() (string, bool) { _gtv3, _gtok4 := vals[0].(string); return _gtv3, _gtok4 }()",
				"e, ok := func() (any, bool) { _gtv1, _gtok2 := v.(any); return _gtv1, _gtok2 }()"}, nil},
		{"a discarded value, a map's element, other values", "var m = map[string]int{}\nvar vals []any\nfunc f(k string) { _, ok := m[k]; m[k], ok = vals[0].(int); a, b := 1, 2; _, _, _ = ok, a, b }",
			[]string{"_, ok := m[k]"}, []string{"func() (int, bool) { _gtv", "_gtv1, _gtv2 = m[k]"}},
	})
}
