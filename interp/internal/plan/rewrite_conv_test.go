package plan

import "testing"

// TestConversions checks the conversions of a cell's values to
// interfaces: an explicit one goes through a variable, and one among a
// compiled function's variadic arguments goes inside their slice.
func TestConversions(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"an explicit conversion to an interface with methods goes through a variable", "type I interface{ String() string }\nb := I(S(3))\n_ = b",
			[]string{"I(func(_gtx S) I { var _gtr I = _gtx; return _gtr }(S(3))"}, nil},
		{"a struct error among variadic arguments is converted inside their slice", "type HE struct{ Code int }\nfunc (h HE) Error() string { return \"he\" }\nerr := errors.Join(HE{1}, nil)\n_ = err",
			[]string{"errors.Join([]error{func(_gtx HE) error {", "}(HE{1}), nil}..."}, nil},
	})
}
