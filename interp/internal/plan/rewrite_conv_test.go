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

// TestInterfaceConversions checks the conversions between compiled
// values and a cell's interfaces: a compiled value (or a compiled
// interface, nil kept nil) goes into a cell's interface through a
// variable, a cell's interface into a compiled one through _gt.Rewrap
// (an error through the cell's struct errors first), as does a cell's
// struct asserted to a compiled interface, and conversions that yaegi
// gets right are left alone.
func TestInterfaceConversions(t *testing.T) {
	const decls = "import \"time\"\ntype Sh interface{ String() string }\n"
	testRewrites(t, []rewriteCase{
		{"a compiled value into a cell's interface goes through a variable", decls + "d := time.Second\nvar v Sh = d\nvs := []Sh{d}\nvs = append(vs, time.Duration(2))\n_, _ = v, vs",
			[]string{"v = func(_gtx time.Duration) Sh { var _gtr Sh = _gtx; return _gtr }(d)",
				"vs = []Sh{func(_gtx time.Duration) Sh { var _gtr Sh = _gtx; return _gtr }(d)}",
				"append(vs, func(_gtx time.Duration) Sh { var _gtr Sh = _gtx; return _gtr }(time.Duration(2)))"}, nil},
		{"a compiled interface into a cell's interface keeps nil", decls + "var f fmt.Stringer\nvar w Sh = f\n_ = w",
			[]string{"w = func(_gtx fmt.Stringer) Sh { if _gtx == nil { return nil }; var _gtr Sh = _gtx; return _gtr }(f)"}, nil},
		{"a cell's interface into a compiled one is rewrapped", decls + "var i Sh = S(1)\nvar s fmt.Stringer = i\nvar ss []fmt.Stringer\nss = append(ss, i)\n_, _ = s, ss",
			[]string{"s = func(_gtx Sh) fmt.Stringer { if _gtx == nil { return nil }; return _gt.Rewrap(func() fmt.Stringer { return _gtx }(), _gtx).(fmt.Stringer) }(i)",
				"append(ss, func(_gtx Sh) fmt.Stringer { if _gtx == nil"}, nil},
		{"a cell's interface into error converts the cell's struct errors as errors", "type CE interface{ error; Code() int }\ntype NF struct{ N string }\nfunc (e NF) Error() string { return e.N }\nfunc (e NF) Code() int { return 1 }\nvar c CE = NF{\"a\"}\nvar err error = c\n_ = err",
			[]string{"err = func(_gtx CE) error { if _gtx == nil { return nil }; if _gtv, _gtok := _gtx.(NF); _gtok { return _gt.Named(", "return _gt.Rewrap(func() error { return _gtx }(), _gtx).(error) }(c)"}, nil},
		{"a cell's struct asserted from an any to a compiled interface is rewrapped", "type P struct{ X int }\nfunc (p P) String() string { return \"p\" }\nvar a any = P{1}\ns := a.(fmt.Stringer)\n_ = s",
			[]string{"if _gtx, _gtok := _gtv.(P); _gtok { return _gt.Rewrap(func() fmt.Stringer { return _gtx }(), _gtx).(fmt.Stringer) } }"}, nil},
		{"conversions yaegi gets right are left alone", decls + "d := time.Second\nvar f fmt.Stringer = d\nvar i Sh = S(1)\nvar j Sh = i\nvar a any = i\n_, _, _ = f, j, a",
			[]string{"f = d", "j = i", "a = i"}, []string{"func(_gtx time.Duration)", "func(_gtx Sh)"}},
	})
}
