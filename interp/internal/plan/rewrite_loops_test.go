package plan

import "testing"

// TestRewritesLoops checks the code generated for loop variables, one per iteration when a closure captures them.
func TestRewritesLoops(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"per-iteration loop variables when a closure captures them", "var fs []func() int\nfor i := 0; i < 3; i++ { fs = append(fs, func() int { return i }) }",
			[]string{"for _gtloop1_i := 0; _gtloop1_i < 3; _gtloop1_i++ { if _gtStop != 0 { _gt.Stop() }; i := _gtloop1_i;", "; _gtloop1_i = i; }",
				"fs = append(fs, func(i int) func() int { return func() int { return i } }(i))"}, nil},
		{"closures handed to compiled code get their iteration's variables", "import \"sync\"\nvar wg sync.WaitGroup\nfor _, w := range []string{\"a\", \"b\"} { k := len(w); wg.Go(func() { fmt.Println(w, k) }) }",
			[]string{"wg.Go(func(w string, k int) func() { return func() { fmt.Println(w, k) } }(w, k))"}, nil},
		{"no copies when nothing captures", "t := 0\nfor i := 0; i < 3; i++ { t += i }",
			[]string{"for i := 0; i < 3; i++ {"}, []string{"_gtloop"}},
		{"range variables copied when captured", "var fs []func() int\nfor _, v := range []int{1, 2} { fs = append(fs, func() int { return v }) }",
			[]string{"{ if _gtStop != 0 { _gt.Stop() }; v := v;"}, nil},
		{"goroutines started in a loop take its variables as arguments", "ch := make(chan int, 3)\nfor i := 0; i < 3; i++ { go func() { ch <- i }() }\nfor _, v := range []int{1} { k := v; go func(d int) { ch <- k + v + d }(1) }",
			[]string{"go func(i int) { defer _gt.GoStart()(); defer func() { if _gtr := recover(); _gtr != nil { _gt.GoPanic(_gtr) } }(); ch <- i }(i)",
				"go func(k int, v int, d int) { defer _gt.GoStart()(); defer func() { if _gtr := recover(); _gtr != nil { _gt.GoPanic(_gtr) } }(); ch <- k + v + d }(k, v, 1)"}, []string{"return func"}},
		{"deferred calls in a loop take its variables as arguments", "s := \"\"\nfunc() { for i := 0; i < 3; i++ { defer func() { s += fmt.Sprint(i) }() } }()",
			[]string{"defer func(i int) { s += fmt.Sprint(i) }(i)"}, nil},
		{"a parameter the literal declares again is renamed", "for i := 0; i < 3; i++ { defer func() { i := i * 2; _ = i }() }",
			[]string{"defer func(_gtv2_i int) { i := _gtv2_i * 2; _ = i }(i)"}, nil},
		{"a variable the body writes after the literal is shared through a pointer", "var fs []func() int\nfor i := 0; i < 6; i++ { fs = append(fs, func() int { return i }); i++ }\nfor k := range 2 { v := k; defer func() { println(v) }(); v *= 2 }",
			[]string{"fs = append(fs, func(_gtp2_i *int) func() int { return func() int { return (*_gtp2_i) } }(&i))", "{ _gtp5_v := &v; defer func(_gtp5_v *int) { _gt.Println((*_gtp5_v)) }(_gtp5_v) }"}, nil},
		{"continue copies back", "var ps []*int\nfor i := 0; i < 3; i++ { if i == 1 { continue }; ps = append(ps, &i) }",
			[]string{"{ _gtloop1_i = i; continue }"}, nil},
	})
}

// TestLoopVarsOfEarlierCells checks that a closure in a loop uses the
// variables of earlier cells themselves, whatever the place of their
// text: the planner once compared positions of different cells as
// positions of one file, and gave such a closure a copy.
func TestLoopVarsOfEarlierCells(t *testing.T) {
	s := newSession(t)
	run(t, s, 1, "type Tally struct{ N int }\nvar tally Tally\nimport \"sync\"\nvar wg sync.WaitGroup\nvar out = make([]int, 3)")
	p := run(t, s, 2, "for i := 0; i < 3; i++ {\n\t// a comment that makes the loop longer than the first cell's text\n\tfunc() { tally.N++ }()\n\twg.Add(1)\n\tgo func() { defer wg.Done(); out[i] = i }()\n}")
	checkSource(t, p, []string{"func() {", "tally.N++ }()", "go func(i int) {"}, []string{"tally Tally", "wg sync.WaitGroup", "out []int"})
}
