package plan

import "testing"

// TestRewritesLoops checks the code generated for loop variables, one per iteration when a closure captures them.
func TestRewritesLoops(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"per-iteration loop variables when a closure captures them", "var fs []func() int\nfor i := 0; i < 3; i++ { fs = append(fs, func() int { return i }) }",
			[]string{"for _gtloop1_i := 0; _gtloop1_i < 3; _gtloop1_i++ { if _gtStop != 0 { _gt.Stop() }; i := _gtloop1_i;", "; _gtloop1_i = i; }",
				"fs = append(fs, func(i int) func() int { return func() int { return i } }(i))"}, nil},
		{"closures handed to compiled code get their iteration's variables", "import \"sync\"\nvar wg sync.WaitGroup\nfor _, w := range []string{\"a\", \"b\"} { k := len(w); wg.Go(func() { fmt.Println(w, k) }) }\nfor i := 0; i < 2; i++ { defer func() { i++ }() }",
			[]string{"wg.Go(func(w string, k int) func() { return func() { fmt.Println(w, k) } }(w, k))", "defer func() { i++ }()"}, nil},
		{"no copies when nothing captures", "t := 0\nfor i := 0; i < 3; i++ { t += i }",
			[]string{"for i := 0; i < 3; i++ {"}, []string{"_gtloop"}},
		{"range variables copied when captured", "var fs []func() int\nfor _, v := range []int{1, 2} { fs = append(fs, func() int { return v }) }",
			[]string{"{ if _gtStop != 0 { _gt.Stop() }; v := v;"}, nil},
		{"continue copies back", "var ps []*int\nfor i := 0; i < 3; i++ { if i == 1 { continue }; ps = append(ps, &i) }",
			[]string{"{ _gtloop1_i = i; continue }"}, nil},
	})
}
