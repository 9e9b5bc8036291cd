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

// TestLoopFieldWrites checks that a closure in a loop shares through a
// pointer a struct or array variable of its iteration that the body
// changes after it through a field, an element or a method with a
// pointer receiver, and that a literal that does so itself is left to
// the frame it was made in (see storageOf and writes).
func TestLoopFieldWrites(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"a field written after the closure", "import \"image\"\nvar fs []func() string\nfor i := 0; i < 3; i++ { x := image.Pt(i, -i); fs = append(fs, func() string { return x.String() }); x.X += 10 }",
			[]string{"fs = append(fs, func(_gtp1_x *image.Point) func() string { return ", "return (*_gtp1_x)", "}(&x)", "); x.X += 10 }"}, nil},
		{"an element of an array and a range variable's field", "type P struct{ X int }\nvar fs []func() int\nfor _, p := range []P{{1}} { a := [2]int{}; fs = append(fs, func() int { return a[0] + p.X }); a[1]++; p.X = 2 }",
			[]string{"func(_gtp1_a *[2]int, _gtp2_p *P) func() int { return func() int { return (*_gtp1_a)[0] + (*_gtp2_p).X } }(&a, &p)"}, nil},
		{"a method with a pointer receiver after the closure", "type C struct{ N int }\nfunc (c *C) Inc() { c.N++ }\nvar fs []func() int\nfor i := 0; i < 2; i++ { c := C{i}; fs = append(fs, func() int { return c.N }); c.Inc() }",
			[]string{"func(_gtp1_c *C) func() int { return func() int { return (*_gtp1_c).N } }(&c)"}, nil},
		{"a literal that calls a pointer method itself", "type C struct{ N int }\nfunc (c *C) Inc() { c.N++ }\nvar fs []func() int\nfor i := 0; i < 2; i++ { c := C{i}; fs = append(fs, func() int { c.Inc(); return c.N }) }",
			[]string{"fs = append(fs, func() int {", " c.Inc();"}, []string{"_gtp"}},
		{"a field through a pointer is no write of the pointer", "type P struct{ X int }\nvar fs []func() int\nfor i := 0; i < 2; i++ { p := &P{i}; fs = append(fs, func() int { return p.X }); p.X++ }",
			[]string{"func(p *P) func() int { return func() int { return p.X } }(p)"}, nil},
	})
}
