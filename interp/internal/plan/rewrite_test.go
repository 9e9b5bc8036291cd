package plan

import "testing"

// rewriteCase is a cell whose generated code has the strings has and not
// those of hasNot.
type rewriteCase struct {
	name, src string
	has       []string
	hasNot    []string
}

// testRewrites checks the code generated for the Go constructs the
// interpreter lacks or gets wrong, and for the session's hooks. Each case
// is one cell after "n := 4\nvar n64 int64 = 3\nfunc gen(k int) func(func(int) bool) {...}"
// and the other declarations of setup.
func testRewrites(t *testing.T, cases []rewriteCase) {
	t.Helper()
	const setup = "n := 4\nvar n64 int64 = 3\nfunc gen(k int) func(func(int) bool) { return func(yield func(int) bool) { for i := 0; i < k; i++ { if !yield(i) { return } } } }\ntype S int\nfunc (s S) String() string { return \"S\" }\ntype E struct{ msg string }\nfunc (e *E) Error() string { return e.msg }\nimport \"errors\"\nimport \"os\"\nimport \"log\""
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSession(t)
			run(t, s, 1, setup)
			p := run(t, s, 2, c.src)
			checkSource(t, p, c.has, c.hasNot)
		})
	}
}

// TestRewrites checks the renaming of a cell's declared functions.
func TestRewrites(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"a function as a value is its declared function", "type Op func(int) int\nfunc double(x int) int { return x * 2 }\nops := []Op{double}\nf := double\ng := func() Op { return double }\n_ = double(1)",
			[]string{"ops = []Op{_gtf2_double}", "f = _gtf2_double", "return _gtf2_double", "_ = double(1)"}, nil},
	})
}
