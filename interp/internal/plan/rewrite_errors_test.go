package plan

import "testing"

// TestRewritesErrors checks the code generated for errors.Is, errors.As and assertions on errors.
func TestRewritesErrors(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"errors.Is and errors.As on cell errors", "var err error = &E{\"x\"}\nvar target *E\nok := errors.Is(err, err) && errors.As(err, &target)",
			[]string{"_gt.ErrorsIsWith(err, err, _gtErr) && _gt.ErrorsAs(err, func(_gte any) bool { _gtv, _gtok := _gte.(*E); if _gtok { *(&target) = _gtv }; return _gtok }, _gtErr)"}, nil},
		{"errors.As into a cell's interface asserts as an assertion to it does", "type Coder interface{ Code() int }\ntype C struct{ N int; S string }\nfunc (c C) Error() string { return \"c\" }\nfunc (c C) Code() int { return c.N }\nvar err error = C{1, \"\"}\nvar c Coder\nok := errors.As(err, &c)",
			[]string{"_gt.ErrorsAs(err, func(_gte any) bool { _gtv, _gtok := func(_gtv any) (Coder, bool) { if _gtv == nil { return nil, false };", "(_gte); if _gtok { *(&c) = _gtv }; return _gtok }, _gtErr)"}, nil},
	})
}

// TestAssertedStruct checks that an assertion of an interface to error or
// to a compiled interface gives a cell's struct converted as a conversion
// gives it (see structToCompiled), and a pointer as it is.
func TestAssertedStruct(t *testing.T) {
	const types = "type SE struct{ Code int }\nfunc (e SE) Error() string { return \"se\" }\ntype V struct{ A int }\nfunc (v V) String() string { return \"v\" }\n"
	testRewrites(t, []rewriteCase{
		{"to error", types + "var x any = SE{1}\nerr := x.(error)\nerr2, ok := x.(error)\n_, _, _ = err, err2, ok",
			[]string{"if _gtx, _gtok := _gtv.(SE); _gtok { return _gt.Named(_gt.Fmt(_gtx, nil, _gtx.Error, nil, nil), \"main.SE\").(error) } }",
				"if _gtx, _gtok := _gtv.(SE); _gtok { return _gt.Named(_gt.Fmt(_gtx, nil, _gtx.Error, nil, nil), \"main.SE\").(error), true } }",
				"if _gtx, _gtok := _gtv.(*E); _gtok { return _gtx } }"}, nil},
		{"to fmt.Stringer", types + "var x any = V{1}\ns := x.(fmt.Stringer)\n_ = s",
			[]string{"if _gtx, _gtok := _gtv.(V); _gtok { return _gt.Rewrap(func() fmt.Stringer { return _gtx }(), _gtx).(fmt.Stringer) } }"}, nil},
	})
}
