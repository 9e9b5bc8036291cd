package plan

import "testing"

// TestRewritesRange checks the code generated for range loops: over integers, strings and functions.
func TestRewritesRange(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"range over an int constant", "sum := 0\nfor i := range 5 { sum += i }",
			[]string{"for _gti1, _gtn2 := int(0), int(5); _gti1 < _gtn2; _gti1++ { i := _gti1; if _gtStop != 0 { _gt.Stop() }; sum += i }"}, nil},
		{"range over an int64 variable, no key", "for range n64 { }",
			[]string{"for _gti1, _gtn2 := int64(0), int64(n64); _gti1 < _gtn2; _gti1++ { if _gtStop"}, nil},
		{"range over an int, assigning", "var i int\nfor i = range n { }",
			[]string{"_gti1++ { i = _gti1;"}, nil},
		{"range over a string gives byte offsets", "for i, r := range \"héllo\" { fmt.Print(i, r) }",
			[]string{"for _gts1, _gtk2 := \"héllo\", 0; _gtk2 < len(_gts1); { _gtr4, _gtw3 := _gt.DecodeRune(string(_gts1[_gtk2:])); i := _gtk2; r := _gtr4; _ = _gtr4; _gtk2 += _gtw3;"}, nil},
		{"range over a string without its index is left alone", "for _, r := range \"abc\" { fmt.Print(r) }",
			[]string{"for _, r := range \"abc\" {"}, nil},
		{"range over a function: break, continue", "sum := 0\nfor v := range gen(10) { if v == 5 { break }; if v%2 == 0 { continue }; sum += v }",
			[]string{"for _gtctl1 := 0; _gtctl1 == 0; _gtctl1 = -1 { gen(10)(func(v int) bool { if _gtStop != 0 { _gt.Stop() }; if v == 5 { return false }; if v%2 == 0 { return true }; sum += v ; return true }) }"}, nil},
		{"range over a function: return from the function", "func first(k int) int { for v := range gen(k) { if v > 2 { return v * 10 } }; return -1 }",
			[]string{"var _gtctl1_r0 int;", "{ _gtctl1_r0 = v * 10; _gtctl1 = 1; return false }", "if _gtctl1 == 1 { _gtDepth--; return _gtctl1_r0 }; }; _gtDepth--; return -1 }"}, nil},
		{"range over a function: labels, nested", "outer:\nfor i := 0; i < 3; i++ {\n\tfor v := range gen(3) {\n\t\tfor w := range gen(3) {\n\t\t\tif w == 1 { continue outer }\n\t\t\t_ = v\n\t\t}\n\t}\n}",
			[]string{"{ _gtctl2 = 2; return false }", "if _gtctl2 == 2 { { _gtctl1 = 2; return false } };", "if _gtctl1 == 2 { continue outer };"}, nil},
	})
}

// TestRefused checks the Go constructs the planner cannot run yet: each is
// a compile error that names the feature and the way around it.
func TestRefused(t *testing.T) {
	s := newSession(t)
	run(t, s, 1, "func gen(yield func(int) bool) { yield(1) }")
	cases := []struct{ src, want string }{
		{"for v := range gen { defer fmt.Println(v) }", "cell line 1:22: defer in the body of a range over a function is not supported yet: move the body into a function"},
		{"for v := range gen { if v > 0 { goto end } }\nend:", "cell line 1:33: goto in the body of a range over a function is not supported yet"},
	}
	for i, c := range cases {
		_, err := s.Plan(i+2, c.src)
		if err == nil || err.Error() != c.want {
			t.Errorf("case %d %q: got %v, want %q", i, c.src, err, c.want)
		}
	}
}
