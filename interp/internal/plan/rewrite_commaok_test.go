package plan

import "testing"

// TestCommaOkValue checks which comma-ok values become a function
// literal's results (see commaOkValue): map indexes and assertions the
// interpreter runs as written, defined, assigned and declared, not those
// whose first value is discarded, stored in a map's element, or that
// assertIface or assertConcrete rewrite. interp's TestGocompat
// (assign/commaok_fails_zero) runs them against go run.
func TestCommaOkValue(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"map indexes defined, assigned and declared in a function", "var m = map[string]int{}\nfunc f(k string) { n, ok := m[k]; n, ok = m[k]; var w, _ = m[k]; _, _, _ = n, ok, w }",
			[]string{"n, ok := func() (int, bool) { _gtv1, _gtok2 := m[k]; return _gtv1, _gtok2 }()",
				"n, ok = func() (int, bool) { _gtv3, _gtok4 := m[k]; return _gtv3, _gtok4 }()",
				"var w, _ = func() (int, bool) { _gtv5, _gtok6 := m[k]; return _gtv5, _gtok6 }()"}, nil},
		{"an assertion to a compiled type in a loop", "var vals []any\nfor _, v := range vals {\n\ts, _ := v.(string)\n\t_ = s\n}",
			[]string{"s, _ := func() (string, bool) { _gtv1, _gtok2 := v.(string); return _gtv1, _gtok2 }()"}, nil},
		{"a discarded value, a map's element, other values", "var m = map[string]int{}\nvar vals []any\nfunc f(k string) { _, ok := m[k]; m[k], ok = vals[0].(int); a, b := 1, 2; _, _, _ = ok, a, b }",
			[]string{"_, ok := m[k]"}, []string{"func() (int, bool) { _gtv"}},
	})
}
