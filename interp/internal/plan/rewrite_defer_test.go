package plan

import "testing"

// TestRewritesDefer checks the code generated for deferred calls and
// method values (see deferArgs, deferDirect, methodValue).
func TestRewritesDefer(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"the variables of a deferred call's arguments assigned later are copied",
			"func f() { x, y := 1, 2; defer fmt.Println(x, y, n); x = 3; _ = y }",
			[]string{"{ x := x; defer fmt.Println(x, y, n) }"}, []string{"y := y"}},
		{"a loop's variable, not an address or a receiver",
			"func f() { for i := 0; i < 3; i++ { defer fmt.Print(i) }; var s S; for k := range 2 { defer fmt.Print(&k, s.String()) } }",
			[]string{"{ i := i; defer fmt.Print(i) }"}, []string{"k := k", "s := s"}},
		{"a receiver assigned later, but not one whose address a method takes",
			"func f() { e := &E{\"a\"}; defer e.Error(); e = &E{\"b\"}; var s S; defer s.String(); s = 2; var b strings.Builder; defer b.WriteString(\"x\"); b = strings.Builder{} }\nimport \"strings\"",
			[]string{"{ e := e; defer e.Error() }", "{ s := s; defer s.String() }"}, []string{"b := b"}},
		{"a deferred call's computed arguments are evaluated into variables at the statement",
			"type T struct{ log []string }\nfunc (t *T) note(s string) {}\nfunc f(t *T) { for i := 0; i < 3; i++ { defer t.note(fmt.Sprint(\"step\", i)); defer fmt.Println(i*2, \"c\", []int{i}, i) } }",
			[]string{"{ _gtdv1 := (fmt.Sprint(\"step\", i)); defer t.note(_gtdv1) }", "{ _gtdv2 := (i*2); _gtdv3 := ([]int{i}); defer fmt.Println(_gtdv2, \"c\", _gtdv3, i) }"}, nil},
		{"a deferred literal's arguments, after the iteration's variables",
			"func f() { for i := 0; i < 3; i++ { defer func(s string) { println(s, i) }(fmt.Sprint(i)) } }",
			[]string{"{ _gtdv2 := (fmt.Sprint(i)); defer func(i int, s string) { _gt.Println(s, i) }(i, _gtdv2) }"}, nil},
		{"a deferred function that recovers is called by its declaration",
			"func h() { if r := recover(); r != nil { println(r) } }\nfunc f() { defer h(); panic(1) }",
			[]string{"defer _gtf2_h()"}, nil},
		{"a method value of a value receiver binds a copy",
			"var s S\nfunc f() func() string { return s.String }",
			[]string{"func(_gtr S) func() string { return _gtr.String }(s)"}, nil},
	})
}
