package plan

import "testing"

// TestRewritesFunc checks the code generated for function bodies: the depth count and the interrupt check.
func TestRewritesFunc(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"loops and functions check the interrupt flag and count their depth", "func f(k int) int { if k == 0 { return 0 }; return f(k-1) + 1 }\nfor { break }",
			[]string{"_f(k int) int { _gtDepth++; if _gtDepth > _gtLimit { _gt.Enter(\"f\") }; if k == 0 { _gtDepth--; return 0 }; { var _gtr0 int; _gtr0 = f(k-1) + 1; _gtDepth--; return _gtr0 } }",
				"for { if _gtStop != 0 { _gt.Stop() }; break }"}, nil},
		{"a function that calls only compiled code cannot recurse", "func g(x float64) float64 { return math.Sqrt(x) * 2 }",
			[]string{"_g(x float64) float64 { return math.Sqrt(x) * 2 }"}, []string{"_gtDepth"}},
		{"a function with defer restores the depth in a deferred call", "func h() (err error) { defer func() { recover() }(); h(); return nil }",
			[]string{"_h() (err error) { _gtd := _gtDepth; _gtDepth++; if _gtDepth > _gtLimit { _gt.Enter(\"h\") }; defer func() { _gtDepth = _gtd }();"}, nil},
		{"a method counts its depth under its type's name", "func (s S) Twice() string { return s.String() + s.String() }",
			[]string{"_gt.Enter(\"S.Twice\")"}, nil},
	})
}
