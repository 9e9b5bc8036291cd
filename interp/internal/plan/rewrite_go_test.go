package plan

import "testing"

// TestRewritesGo checks the code generated for go statements.
func TestRewritesGo(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"go statements recover and report", "func work(a int, b ...string) {}\ngo work(1, \"x\", \"y\")\ngo func(k int) {}(3)",
			[]string{"go func(_gtf func(int, ...string), _gta0 int, _gta1 []string) { defer _gt.GoStart()(); defer func() { if _gtr := recover(); _gtr != nil { _gt.GoPanic(_gtr) } }(); _gtf(_gta0, _gta1...) }(work, 1, []string{\"x\", \"y\"})",
				"go func(k int) { defer _gt.GoStart()(); defer func() { if _gtr := recover(); _gtr != nil { _gt.GoPanic(_gtr) } }();}(3)"}, nil},
	})
}
