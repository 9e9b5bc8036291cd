package plan

import "testing"

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
			[]string{"a, b = func() (any, any) { return b, a }()"}, nil},
		{"a definition at the top level, with a cell type's value", "a, b := pick(), Temp(2)\n_, _ = a, b",
			[]string{"a, b = func() (any, Temp) { return pick(), Temp(2) }()"}, nil},
		{"nil for an interface, the blank identifier", "var x any\nvar n int\nx, n = nil, 2\n_, x = pick(), Temp(3)",
			[]string{"x, n = func() (any, int) { return nil, 2 }()",
				"_, x = func() (any, any) { return pick(), func(_gtx Temp) any { var _gtr any = _gtx; return _gtr }(Temp(3)) }()"}, nil},
		{"no any among the values, or a definition in a function", "var e, f error\ne, f = f, e\nm, k := 1, 2\n_, _ = m, k\nfunc g() { a, b := pick(), pick(); _ = a; _ = b }",
			nil, []string{"func() (error, error)", "func() (int, int)", "func() (any, any)"}},
		{"a cell's pointer and non-struct values made into errors", "type E struct{ N int }\nfunc (e *E) Error() string { return \"e\" }\ntype T int\nfunc (t T) Error() string { return \"t\" }\nvar a, b error = &E{1}, T(2)",
			[]string{"a, b = func() (error, error) { return &E{1}, T(2) }()"}, nil},
		{"top-level var declarations of several anys", "var p, q any\nvar r, u any = Temp(5), pick()\nvar v, w = pick(), 2",
			[]string{"p, q = func() (any, any) { return *new(any), *new(any) }()",
				"r, u = func() (any, any) { return func(_gtx Temp) any { var _gtr any = _gtx; return _gtr }(Temp(5)), pick() }()",
				"v, w = func() (any, int) { return pick(), 2 }()"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantCode(t, setup, c.src, c.has, c.not) })
	}
}
