package plan

import (
	"strings"
	"testing"
)

// TestStoredAssign checks that a struct's composite literal or a receive
// assigned to a variable is put in parentheses (see storedAssign).
func TestStoredAssign(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"struct literals and receives", "type P struct{ X int }\np := P{1}\nq := &p\np = P{2}\nch := make(chan P, 1)\np = <-ch\nvar a [2]int\na = [2]int{1, 2}\nfunc f() { var v P; _ = &v; v, _ = P{3}, 0; v.X = 4 }\n_ = q",
			[]string{"p = (P{1})", "p = (P{2})", "p = (<-ch)", "a = [2]int{1, 2}", "v, _ = (P{3}), 0"}, nil},
		{"a select's receive stays a communication", "type P struct{ X int }\nch := make(chan P, 1)\nch <- P{1}\nfunc f(c chan P) P {\n\tselect {\n\tcase v := <-c:\n\t\treturn v\n\t}\n}\n_ = f(ch)",
			[]string{"case v := <-c:"}, []string{"(<-c)"}},
		{"array, slice and map literals and receives defined in a function", "func f(ch chan int) { p := struct{ X int }{1}; a := [1]int{2}; s := []int{3}; var m = map[int]int{}; v := <-ch; var e error = nil; _, _, _, _, _, _ = p, a, s, m, v, e }",
			[]string{"p := struct{ X int }{1}", "a := ([1]int{2})", "s := ([]int{3})", "var m = (map[int]int{})", "v := (<-ch)"}, nil},
	})
}

// TestParallelAssign checks which assignments of several values become
// the assignment of one call's results (see parallelAssign), and that a
// cell type's value in them goes through a variable of the interface.
// interp's TestGocompat (iface/parallel_assign) runs them against go run.
func TestParallelAssign(t *testing.T) {
	const setup = "type Temp float64\nfunc (t Temp) String() string { return \"t\" }\nfunc pick() any { return 1 }"
	cases := []struct {
		name, src string
		has, not  []string
	}{
		{"a swap of anys in a function", "func sw(a, b any) (any, any) { a, b = b, a; return a, b }",
			[]string{"a, b = func() (any, any) { var _gtp0 any = b; var _gtp1 any = a; return _gtp0, _gtp1 }()"}, nil},
		{"a definition at the top level, with a cell type's value", "a, b := pick(), Temp(2)\n_, _ = a, b",
			[]string{"a, b = func() (any, Temp) { var _gtp0 any = pick(); var _gtp1 Temp = Temp(2); return _gtp0, _gtp1 }()"}, nil},
		{"nil for an interface, the blank identifier", "var x any\nvar n int\nx, n = nil, 2\n_, x = pick(), Temp(3)",
			[]string{"x, n = func() (any, int) { var _gtp0 any = nil; var _gtp1 int = 2; return _gtp0, _gtp1 }()",
				"_, x = func() (any, any) { var _gtp0 any = pick(); var _gtp1 any = func(_gtx Temp) any { var _gtr any = _gtx; return _gtr }(Temp(3)); return _gtp0, _gtp1 }()"}, nil},
		{"no any among the values, or a definition in a function", "var e, f error\ne, f = f, e\nm, k := 1, 2\n_, _ = m, k\nfunc g() { a, b := pick(), pick(); _ = a; _ = b }",
			nil, []string{"func() (error, error)", "func() (int, int)", "func() (any, any)"}},
		{"a cell's pointer and non-struct values made into errors", "type E struct{ N int }\nfunc (e *E) Error() string { return \"e\" }\ntype T int\nfunc (t T) Error() string { return \"t\" }\nvar a, b error = &E{1}, T(2)",
			[]string{"a, b = func() (error, error) { var _gtp0 error = &E{1}; var _gtp1 error = T(2); return _gtp0, _gtp1 }()"}, nil},
		{"receives, which yaegi cannot return several of", "ch := make(chan any, 2)\nvar c, d any\nc, d = <-ch, <-ch",
			[]string{"c, d = func() (any, any) { var _gtp0 any = (<-ch); var _gtp1 any = (<-ch); return _gtp0, _gtp1 }()"}, nil},
		{"top-level var declarations of several anys", "var p, q any\nvar r, u any = Temp(5), pick()\nvar v, w = pick(), 2",
			[]string{"p, q = func() (any, any) { return *new(any), *new(any) }()",
				"r, u = func() (any, any) { var _gtp0 any = func(_gtx Temp) any { var _gtr any = _gtx; return _gtr }(Temp(5)); var _gtp1 any = pick(); return _gtp0, _gtp1 }()",
				"v, w = func() (any, int) { var _gtp0 any = pick(); var _gtp1 int = 2; return _gtp0, _gtp1 }()"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantCode(t, setup, c.src, c.has, c.not) })
	}
}

// TestMapElemAssign checks that an assignment of several values that one
// expression gives to a map's element assigns variables first and then
// each target (see mapElemAssign), where the statement is, before an if
// statement it starts, in a select's case, and that it is refused in a
// for statement's post statement.
func TestMapElemAssign(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"a comma-ok assertion", "var v any = \"s\"\nm := map[string]string{}\nvar ok bool\nfunc() { m[\"a\"], ok = v.(string) }()",
			[]string{"{ var _gtv1 string; var _gtv2 bool; _gtv1, _gtv2 = v.(string); m[\"a\"] = _gtv1; ok = _gtv2 }"}, nil},
		{"a map index and a call, the element second", "import \"strconv\"\nfunc f(m, o map[string]int, mb map[string]bool) (n int, err error) { m[\"a\"], err = strconv.Atoi(\"1\"); n, mb[\"b\"] = o[\"c\"]; return }",
			[]string{"{ _gtv1, _gtv2 := strconv.Atoi(\"1\"); m[\"a\"] = _gtv1; err = _gtv2 }", "{ var _gtv3 int; var _gtv4 bool; _gtv3, _gtv4 = o[\"c\"]; n = _gtv3; mb[\"b\"] = _gtv4 }"}, nil},
		{"a key given by a call is evaluated first", "func key() string { return \"k\" }\nfunc two() (int, bool) { return 1, true }\nfunc f(m map[string]int) { var ok bool; m[key()], ok = two(); _ = ok }",
			[]string{"{ _gtk1 := key(); _gtv2, _gtv3 := two(); m[_gtk1] = _gtv2; ok = _gtv3 }"}, nil},
		{"an if statement's initial statement goes before it", "func f(m map[int]int, ch chan int) { var ok bool; if m[1], ok = <-ch; ok { m[2] = 2 } }",
			[]string{"{ _gtv1, _gtv2 := <-ch; m[1] = _gtv1; ok = _gtv2; ", "if ; ok {", "m[2] = 2 } }"}, nil},
		{"a select's case defines the variables", "func f(m map[int]int, ch chan int) { var ok bool; select { case m[1], ok = <-ch: _ = ok } }",
			[]string{"case _gtv1, _gtv2 := <-ch: m[1] = _gtv1; ok = _gtv2; "}, nil},
		{"a parallel assignment made one call", "func f(m map[string]any) { var ok bool; m[\"a\"], ok = any(1), true; _ = ok }",
			[]string{"{ _gtv1, _gtv2 := func() (any, bool) {", "return _gtp0, _gtp1 }(); m[\"a\"] = _gtv1; ok = _gtv2 }"}, nil},
		{"elements and fields are left as they are", "type P struct{ A int }\nfunc f(s []int, p *P, v any) { var ok bool; s[0], ok = v.(int); p.A, ok = v.(int); _ = ok }",
			[]string{"s[0], ok = func(_gtv any)", "p.A, ok = func(_gtv any)"}, []string{"_gtv1"}},
	})
	s := newSession(t)
	if _, err := s.Plan(1, "func f(m map[int]bool, v any) { for i := 0; i < 2; m[i], _ = v.(bool) { i++ } }"); err == nil ||
		!strings.Contains(err.Error(), "in a for statement's post statement: the interpreter would not store the element; at the end of the loop's body, assign the values to variables and then the element (v, ok := x; m[k] = v)") {
		t.Errorf("a for statement's post statement: got %v, want the error that says what to write", err)
	}
}
