package plan

import "testing"

// TestEqualRewrites checks that == and != with an operand of interface
// type go through _gt.Equal (see rewrite_equal.go), and that comparisons
// with nil, of concrete values and of type parameters stay as written.
func TestEqualRewrites(t *testing.T) {
	const setup = "type E struct{ N int }\nfunc (e E) Error() string { return \"e\" }"
	cases := []struct {
		name, src string
		has, not  []string
	}{
		{"two errors", "var a, b error = E{1}, E{1}\nfmt.Println(a == b, a != b)",
			[]string{"fmt.Println(_gt.Equal(a , b), !_gt.Equal(a , b))"}, nil},
		{"an error and a concrete value", "var a error = E{1}\n_ = a == E{1}",
			[]string{"_ = _gt.Equal(a , E{1})"}, nil},
		{"values of an interface declared in a cell", "type Shape interface{ Area() float64 }\nvar s, u Shape\n_ = s == u",
			[]string{"_ = _gt.Equal(s , u)"}, nil},
		{"any values inside a function", "func same(x, y any) bool { return x == y }",
			[]string{"return _gt.Equal(x , y)"}, nil},
		{"nil, concrete values and type parameters stay", "var err error\nn := 1\nfmt.Println(err == nil, nil != err, n == 2)\nfunc eq[T comparable](a, b T) bool { return a == b }\n_ = eq(1, 2)",
			[]string{"err == nil, nil != err, n == 2", "return a == b"}, []string{"_gt.Equal"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantCode(t, setup, c.src, c.has, c.not) })
	}
}
