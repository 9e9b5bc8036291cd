package plan

import (
	"errors"
	"strings"
	"testing"
)

// TestIfaceRewrites checks the code generated for assertions and type
// switches to interfaces that types of cells implement, for conversions
// of a cell's values to interfaces, for fmt of values inside interfaces
// and for errors.Is with a cell's Unwrap and Is methods (see
// rewrite_iface.go, rewrite_conv.go, rewrite_fmtany.go).
func TestIfaceRewrites(t *testing.T) {
	const setup = "type Shape interface{ Area() float64 }\ntype Sq struct{ S float64 }\nfunc (s Sq) Area() float64 { return s.S * s.S }\ntype C struct{ R float64 }\nfunc (c *C) Area() float64 { return c.R }\ntype Temp float64\nfunc (t Temp) String() string { return \"t\" }\ntype PE struct{ Line int; Err error }\nfunc (e PE) Error() string { return \"pe\" }\nfunc (e PE) Unwrap() error { return e.Err }\nimport \"errors\""
	cases := []struct {
		name, src string
		has       []string
	}{
		{"comma-ok assertion to a cell's interface tests the cell's types first", "var a any = Sq{3}\nsh, ok := a.(Shape)\n_, _ = sh, ok",
			[]string{`sh, ok = func(_gtv any) (Shape, bool) { _gtt := _gt.CellType(_gtv); if (_gtt == "*main.C" || _gtt == "") { if _gtx, _gtok := _gtv.(*C); _gtok { return _gtx, true } }; if (_gtt == "main.Sq" || _gtt == "") { if _gtx, _gtok := _gtv.(Sq); _gtok { return _gtx, true } }; if (_gtt == "*main.Sq" || _gtt == "") { if _gtx, _gtok := _gtv.(*Sq); _gtok { return _gtx, true } }; if _gtt != "" { return nil, false }; _gtr, _gtok := _gtv.(Shape); return _gtr, _gtok }(a)`}},
		{"single-value assertion to a compiled interface; a type that is not a struct is known by its name only", "var a any = Temp(1)\n_ = a.(fmt.Stringer)",
			[]string{`_ = func(_gtv any) fmt.Stringer { _gtt := _gt.CellType(_gtv); if _gtt == "main.Temp" { if _gtx, _gtok := _gtv.(Temp); _gtok { return _gtx } }; if _gtt == "*main.Temp" { if _gtx, _gtok := _gtv.(*Temp); _gtok { return _gtx } }; if _gtt != "" { panic(_gt.NotInterface(_gtt, "fmt.Stringer")) }; return _gtv.(fmt.Stringer) }(a)`}},
		{"a type switch with a case of a cell's interface is an expression switch", "func kind(v any) string { switch x := v.(type) { case Shape: return fmt.Sprint(x.Area()); case nil: return \"nil\"; default: return \"other\" } }",
			[]string{"switch _gtsx := v; {",
				`case func(_gtv any) bool { if _gtv == nil { return false }; _gtt := _gt.CellType(_gtv); if (_gtt == "*main.C" || _gtt == "") { if _, _gtok := _gtv.(*C); _gtok { return true } }; if (_gtt == "main.Sq" || _gtt == "") { if _, _gtok := _gtv.(Sq); _gtok { return true } }; if (_gtt == "*main.Sq" || _gtt == "") { if _, _gtok := _gtv.(*Sq); _gtok { return true } }; if _gtt != "" { return false }; return false }(_gtsx): x := func(_gtv any) Shape {`,
				`case func(_gtv any) bool { if _gtv == nil { return true }; _gtt := _gt.CellType(_gtv); if _gtt != "" { return false }; return false }(_gtsx): x := _gtsx; _ = x;`, "default: x := _gtsx; _ = x;"}},
		{"a cell's struct value made into an error goes through _gt.Fmt", "var e error = PE{1, nil}\nerrs := []error{PE{2, nil}}\n_ = errs",
			[]string{"e = func(_gtx PE) error { return _gt.Named(_gt.Fmt(_gtx, nil, _gtx.Error, nil, nil), \"main.PE\").(error) }(PE{1, nil})", "[]error{func(_gtx PE) error { return _gt.Named(_gt.Fmt(_gtx, nil, _gtx.Error, nil, nil), \"main.PE\").(error) }(PE{2, nil})}"}},
		{"a cell's struct value made into a compiled interface other than error: the wrapper holds the struct; a return converts as an assignment does", "type N struct{ V int }\nfunc (n N) String() string { return \"n\" }\nvar s fmt.Stringer = N{1}\nvar l interface{ String() string } = N{2}\nfunc get() error { return PE{2, nil} }",
			[]string{"s = func(_gtx N) fmt.Stringer { return _gt.Rewrap(func() fmt.Stringer { return _gtx }(), _gtx).(fmt.Stringer) }(N{1})",
				"l = func(_gtx N) interface{String() string} { return _gtx }(N{2})",
				"return func(_gtx PE) error { return _gt.Named(_gt.Fmt(_gtx, nil, _gtx.Error, nil, nil), \"main.PE\").(error) }(PE{2, nil})"}},
		{"a cell's value with methods returned as any goes through a variable", "func pick() any { return Temp(2) }",
			[]string{"return func(_gtx Temp) any { var _gtr any = _gtx; return _gtr }(Temp(2))"}},
		{"fmt of an interface value goes through the session's dispatch", "func show(v any) string { return fmt.Sprint(v) }",
			[]string{"fmt.Sprint(_gt.FmtAny(v, _gtFmt))"}},
		{"fmt of a struct with an any field, a map of any; %+v keeps the field names", "type Box struct{ V any }\nb := Box{Temp(1)}\nm := map[string]any{}\nfmt.Println(b, m, 3)\nfmt.Printf(\"%+v\", b)",
			[]string{"fmt.Println(_gt.FmtAny(b, _gtFmt), _gt.FmtAny(m, _gtFmt), 3)", `_gt.Describe(_gt.FmtAny(_gtx, _gtFmt), "main.Box", "V")`}},
		{"fmt of args... too", "func logf(f string, args ...any) string { return fmt.Sprintf(f, args...) }",
			[]string{"fmt.Sprintf(f, _gt.FmtAny(args, _gtFmt).([]any)...)"}},
		{"errors.Is and errors.Unwrap get the cell's Unwrap and Is methods", "var err error\n_ = errors.Is(err, nil)\n_ = errors.Unwrap(err)",
			[]string{"_gt.ErrorsIsWith(err, nil, _gtErr)", "_gt.ErrorsUnwrapWith(err, _gtErr)"}},
		{"a cell that declares types assigns the dispatch of fmt and errors, with the session's types", "type Other struct{ N int }\nfunc (o *Other) String() string { return \"o\" }",
			[]string{`_gtFmt = func(_gtv any) any { _gtt := _gt.CellType(_gtv); if (_gtt == "*main.Other" || _gtt == "") { if _gtx, _gtok := _gtv.(*Other); _gtok { return _gt.Fmt(_gtx, _gtx.String, nil, nil, nil) } }; if (_gtt == "main.PE" || _gtt == "") { if _gtx, _gtok := _gtv.(PE); _gtok { return _gt.Fmt(_gtx, nil, _gtx.Error, nil, nil) } };`,
				`if _gtt == "main.Temp" { if _gtx, _gtok := _gtv.(Temp); _gtok { return _gt.Fmt(_gtx, _gtx.String, nil, nil, nil) } };`,
				"_gtErr = func(_gtv any) (func() error, func() []error, func(error) bool) { if _gtv == nil { return nil, nil, nil }; if _gtx, _gtok := _gtv.(PE); _gtok { return _gtx.Unwrap, nil, nil }; if _gtx, _gtok := _gtv.(*PE); _gtok { return _gtx.Unwrap, nil, nil }; return nil, nil, nil }"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantCode(t, setup, c.src, c.has, nil) })
	}
}

// TestReflectRefusals checks that json and xml calls that compiled
// reflection would do otherwise than Go, on types declared in cells, and
// that jsonView does not cover, are compile errors that say why, and that templates with data of a cell
// type with methods warn.
func TestReflectRefusals(t *testing.T) {
	const setup = "import (\"encoding/json\"; \"encoding/xml\"; \"text/template\"; \"os\")\ntype Base struct{ ID int }\ntype Item struct{ Base; Name string }\ntype Priv struct{ A int; b int }\ntype Ok struct{ A int `json:\"a\"` }\ntype C float64\nfunc (c C) MarshalJSON() ([]byte, error) { return nil, nil }\ntype R struct{ T C }\nfunc (o Ok) Final() int { return 1 }\ntype PB struct{ *Base; N int }\ntype PC int\nfunc (c *PC) MarshalJSON() ([]byte, error) { return nil, nil }\ntype R2 struct{ T PC }"
	errs := []struct{ src, want string }{
		{"json.Marshal(PB{})", "cell line 1:1: json.Marshal of PB cannot be done as Go does it: PB is a type declared in a cell, and its embedded field Base would not be flattened"},
		{"var p []Item\njson.Unmarshal(nil, &p)", "cell line 2:1: json.Unmarshal of *[]Item cannot be done as Go does it: Item is a type declared in a cell, and its embedded field Base would not be flattened"},
		{"var p [1]Priv\njson.Unmarshal(nil, &p)", "cell line 2:1: json.Unmarshal of *[1]Priv cannot be done as Go does it: Priv is a type declared in a cell, and its unexported field b would be filled"},
		{"json.NewEncoder(os.Stdout).Encode(map[string]R2{})", "cell line 1:1: (*json.Encoder).Encode of map[string]R2 cannot be done as Go does it: PC is a type declared in a cell, and its MarshalJSON method would not be called"},
		{"xml.Marshal(Priv{})", "cell line 1:1: xml.Marshal of Priv cannot be done as Go does it: Priv is a type declared in a cell, and its unexported field b would be written as Xb"},
	}
	for i, c := range errs {
		s := newSession(t)
		run(t, s, 1, setup)
		_, err := s.Plan(2, c.src)
		var list ErrorList
		if !errors.As(err, &list) || !strings.HasPrefix(list.Error(), c.want) {
			t.Errorf("case %d %q: got %v, want an error beginning %q", i, c.src, err, c.want)
		}
	}
	s := newSession(t)
	run(t, s, 1, setup)
	p := run(t, s, 2, "json.Marshal(Ok{1})\nvar back Ok\njson.Unmarshal(nil, &back)\ntemplate.Must(template.New(\"\").Parse(\"\")).Execute(os.Stdout, []Ok{})")
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "cell line 4:1: a template cannot call the methods of Ok") {
		t.Errorf("got warnings %q, want one about the template at line 4", p.Warnings)
	}
}

// TestLateTypeWarning checks that a type declared after a function that
// asserts to an interface it implements warns, at the type.
func TestLateTypeWarning(t *testing.T) {
	s := newSession(t)
	run(t, s, 1, "func isS(v any) bool { _, ok := v.(fmt.Stringer); return ok }\n_, _ = any(1).(fmt.Stringer)")
	p := run(t, s, 2, "type A int\ntype T float64\nfunc (t T) String() string { return \"t\" }")
	want := "cell line 2:6: type T implements fmt.Stringer, which a type assertion or type switch in a function of cell 1 tests values for"
	if len(p.Warnings) != 1 || !strings.HasPrefix(p.Warnings[0], want) {
		t.Errorf("got warnings %q, want one beginning %q", p.Warnings, want)
	}
}
