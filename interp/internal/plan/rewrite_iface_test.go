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
			[]string{`sh, ok = func(_gtv any) (Shape, bool) { if _gtv == nil { return nil, false }; _gtt := _gt.CellType(_gtv); if (_gtt == "*main.C" || _gtt == "") { if _gtx, _gtok := _gtv.(*C); _gtok { return _gtx, true } }; if (_gtt == "main.Sq" || _gtt == "") { if _gtx, _gtok := _gtv.(Sq); _gtok { return _gtx, true } }; if (_gtt == "*main.Sq" || _gtt == "") { if _gtx, _gtok := _gtv.(*Sq); _gtok { return _gtx, true } }; if _gtt == "" && _gt.CompiledImplements(_gtv, "Area", (func() float64)(nil)) { panic(_gt.NotCellInterface(_gtv, "main.Shape")) }; if _gt.InPackage(_gtt, "main") { return nil, false }; _gtr, _gtok := a.(Shape); return _gtr, _gtok }(a)`}},
		{"single-value assertion to a compiled interface; a type that is not a struct is known by its name only", "var a any = Temp(1)\n_ = a.(fmt.Stringer)",
			[]string{`_ = func(_gtv any) fmt.Stringer { if _gtv == nil { panic(_gt.NotType(nil, "", "interface", "fmt.Stringer")) }; _gtt := _gt.CellType(_gtv); if _gtt == "main.Temp" { if _gtx, _gtok := _gtv.(Temp); _gtok { return _gtx } }; if _gtt == "*main.Temp" { if _gtx, _gtok := _gtv.(*Temp); _gtok { return _gtx } }; if _gt.InPackage(_gtt, "main") { panic(_gt.NotInterface(_gtt, "fmt.Stringer")) }; return a.(fmt.Stringer) }(a)`}},
		{"an assertion to a cell's interface that no cell type implements still tests compiled values for its methods", "type Named interface{ Name() string }\nvar a any = 1\n_, _ = a.(Named)\n_ = a.(interface{ Name() string })",
			[]string{`_, _ = func(_gtv any) (Named, bool) { if _gtv == nil { return nil, false }; _gtt := _gt.CellType(_gtv); if _gtt == "" && _gt.CompiledImplements(_gtv, "Name", (func() string)(nil)) { panic(_gt.NotCellInterface(_gtv, "main.Named")) }; if _gt.InPackage(_gtt, "main") { return nil, false }; _gtr, _gtok := a.(Named); return _gtr, _gtok }(a)`,
				`_ = func(_gtv any) interface{Name() string} { if _gtv == nil { panic(_gt.NotType(nil, "", "interface", "interface { Name() string }")) }; _gtt := _gt.CellType(_gtv); if _gtt == "" && _gt.CompiledImplements(_gtv, "Name", (func() string)(nil)) { panic(_gt.NotCellInterface(_gtv, "interface { Name() string }")) }; if _gt.InPackage(_gtt, "main") { panic(_gt.NotInterface(_gtt, "interface { Name() string }")) }; return a.(interface{Name() string}) }(a)`}},
		{"the assertion that ends the test names a local variable again, not a call", "func pick() any { return 1 }\n_, _ = pick().(Shape)",
			[]string{`_gtr, _gtok := _gtv.(Shape); return _gtr, _gtok }((*func() *any { _gtr := pick(); return &_gtr }()))`}},
		{"a type switch with a case of a cell's interface is an expression switch", "func kind(v any) string { switch x := v.(type) { case Shape: return fmt.Sprint(x.Area()); case nil: return \"nil\"; default: return \"other\" } }",
			[]string{"switch _gtsx := v; {",
				`case func(_gtv any) bool { if _gtv == nil { return false }; _gtt := _gt.CellType(_gtv); if (_gtt == "*main.C" || _gtt == "") { if _, _gtok := _gtv.(*C); _gtok { return true } }; if (_gtt == "main.Sq" || _gtt == "") { if _, _gtok := _gtv.(Sq); _gtok { return true } }; if (_gtt == "*main.Sq" || _gtt == "") { if _, _gtok := _gtv.(*Sq); _gtok { return true } }; if _gtt == "" && _gt.CompiledImplements(_gtv, "Area", (func() float64)(nil)) { panic(_gt.NotCellInterface(_gtv, "main.Shape")) }; if _gt.InPackage(_gtt, "main") { return false }; return false }(_gtsx): x := func(_gtv any) Shape { if _gtv == nil {`,
				`case func(_gtv any) bool { if _gtv == nil { return true }; _gtt := _gt.CellType(_gtv); if _gt.InPackage(_gtt, "main") { return false }; return false }(_gtsx): x := _gtsx; _ = x;`, "default: x := _gtsx; _ = x;"}},
		{"a cell's struct value made into an error goes through _gt.Fmt", "var e error = PE{1, nil}\nerrs := []error{PE{2, nil}}\n_ = errs",
			[]string{"e = func(_gtx PE) error { return _gt.Named(_gt.Fmt(_gtx, nil, _gtx.Error, nil, nil), \"main.PE\").(error) }(PE{1, nil})", "[]error{func(_gtx PE) error { return _gt.Named(_gt.Fmt(_gtx, nil, _gtx.Error, nil, nil), \"main.PE\").(error) }(PE{2, nil})}"}},
		{"a cell's struct value made into a compiled interface other than error: the wrapper holds the struct; a return converts as an assignment does", "type N struct{ V int }\nfunc (n N) String() string { return \"n\" }\nvar s fmt.Stringer = N{1}\nvar l interface{ String() string } = N{2}\nfunc get() error { return PE{2, nil} }",
			[]string{"s = func(_gtx N) fmt.Stringer { return _gt.Rewrap(func() fmt.Stringer { return _gtx }(), _gtx).(fmt.Stringer) }(N{1})",
				"l = func(_gtx N) interface{String() string} { return _gtx }(N{2})",
				"return func(_gtx PE) error { return _gt.Named(_gt.Fmt(_gtx, nil, _gtx.Error, nil, nil), \"main.PE\").(error) }(PE{2, nil})"}},
		{"a cell's value with methods assigned to an any goes through a variable", "var a any = Temp(1)\nvar b any\nb = Temp(2)\n_ = b",
			[]string{"a = func(_gtx Temp) any { var _gtr any = _gtx; return _gtr }(Temp(1))", "b = func(_gtx Temp) any { var _gtr any = _gtx; return _gtr }(Temp(2))"}},
		{"an interpreted call's interface result handed to fmt or asserted is a variable's, not handed to other compiled code", "func id(v any) any { return v }\nfmt.Println(id(Temp(2)), fmt.Sprint(3))\n_, _ = id(1).(int)\n_ = id(id(4))\nfmt.Sscan(\"1\", id(5))",
			[]string{"fmt.Println(_gt.FmtAny((*func() *any { _gtr := id(func(_gtx Temp) any { var _gtr any = _gtx; return _gtr }(Temp(2))); return &_gtr }()), _gtFmt), fmt.Sprint(3))", "_, _ = (*func() *any { _gtr := id(1); return &_gtr }()).(int)", "_ = id(id(4))", `fmt.Sscan("1", id(5))`}},
		{"an assertion to a type the interpreter takes a cell's type for, or to a cell's type, tests the value's type name", "var f any = 2.5\n_, ok := f.(float64)\n_ = f.(Temp)\n_ = f.(int)\nvar sh Shape\n_ = sh.(Sq)\nvar err error\n_ = err.(PE)\n_ = ok",
			[]string{`_, ok = func(_gtv any) (float64, bool) { var _gtz float64; if _gtv == nil { return _gtz, false }; if _gtt := _gt.CellType(_gtv); !_gt.InPackage(_gtt, "main") { _gtx, _gtok := _gtv.(float64); return _gtx, _gtok }; return _gtz, false }(f)`,
				`_ = func(_gtv any) Temp { if _gtv == nil { panic(_gt.NotType(nil, "", "interface {}", "main.Temp")) }; if _gtt := _gt.CellType(_gtv); !(_gtt == "main.Temp") { panic(_gt.NotType(_gtv, _gt.TypeName(_gtv, _gtType), "interface {}", "main.Temp")) }; if _gtx, _gtok := _gtv.(Temp); _gtok { return _gtx }; panic(_gt.NotType(_gtv, _gt.TypeName(_gtv, _gtType), "interface {}", "main.Temp")) }(f)`,
				"_ = f.(int)", "_ = _gt.Identity(err).(PE)",
				`_ = func(_gtv any) Sq { if _gtv == nil { panic(_gt.NotType(nil, "", "main.Shape", "main.Sq")) }; if _gtt := _gt.CellType(_gtv); !((_gtt == "main.Sq" || _gtt == "")) { panic(_gt.NotType(_gtv, _gt.TypeName(_gtv, _gtType), "main.Shape", "main.Sq")) }; if _gtx, _gtok := _gtv.(Sq); _gtok { return _gtx }; panic(_gt.NotType(_gtv, _gt.TypeName(_gtv, _gtType), "main.Shape", "main.Sq")) }(sh)`}},
		{"a type switch with a case the interpreter confuses tests the value's type name", "func kind(v any) string { switch v.(type) { case float64: return \"f\"; case Temp: return \"t\"; case int: return \"i\" }; return \"\" }",
			[]string{`case func(_gtv any) bool { if _gtv == nil { return false }; _gtt := _gt.CellType(_gtv); if _gt.InPackage(_gtt, "main") { return false }; if _, _gtok := _gtsx.(float64); _gtok { return true }; return false }(_gtsx):`,
				`case func(_gtv any) bool { if _gtv == nil { return false }; _gtt := _gt.CellType(_gtv); if _gtt == "main.Temp" { if _, _gtok := _gtv.(Temp); _gtok { return true } }; if _gt.InPackage(_gtt, "main") { return false }; return false }(_gtsx):`}},
		{"a type switch over a compiled interface with a cell's type as a case tests it by an assertion; append converts a cell's struct as an assignment does", "type N struct{ V int }\nfunc (n N) String() string { return \"n\" }\nfunc kind(s fmt.Stringer) string { switch s.(type) { case N: return \"n\"; case Temp: return \"t\" }; return \"\" }\nvar ss []fmt.Stringer\nss = append(ss, N{1})",
			[]string{"switch _gtsx := s; {",
				`case func(_gtv any) bool { if _gtv == nil { return false }; _gtt := _gt.CellType(_gtv); if _gt.InPackage(_gtt, "main") { return false }; if _, _gtok := _gtsx.(N); _gtok { return true }; return false }(_gtsx):`,
				"ss = append(ss, func(_gtx N) fmt.Stringer { return _gt.Rewrap(func() fmt.Stringer { return _gtx }(), _gtx).(fmt.Stringer) }(N{1}))"}},
		{"a cell's value with methods returned as any goes through a variable", "func pick() any { return Temp(2) }",
			[]string{"return func(_gtx Temp) any { var _gtr any = _gtx; return _gtr }(Temp(2))"}},
		{"fmt of an interface value goes through the session's dispatch", "func show(v any) string { return fmt.Sprint(v) }",
			[]string{"fmt.Sprint(_gt.FmtAny(v, _gtFmt))"}},
		{"fmt of a struct with an any field, a map of any; %+v keeps the field names", "type Box struct{ V any }\nb := Box{Temp(1)}\nm := map[string]any{}\nfmt.Println(b, m, 3)\nfmt.Printf(\"%+v\", b)",
			[]string{"fmt.Println(_gt.FmtAny(b, _gtFmt), _gt.FmtAny(m, _gtFmt), 3)", `_gt.Describe(_gt.FmtFields(_gtx, _gtFmt), "main.Box", "V")`}},
		{"%T of an interface value is its Go type name, found by the session's _gtType", "func name(v any) string { return fmt.Sprintf(\"%T|%v\", v, v) }",
			[]string{`fmt.Sprintf("%s|%v", _gt.TypeName(v, _gtType), _gt.FmtAny(v, _gtFmt))`}},
		{"a cell that declares types assigns _gtType: struct types by cellType.cond, others with methods by name", "type Other struct{ N int }",
			[]string{`_gtType = func() func(any) string { return func(_gtv any) string { _gtt := _gt.CellType(_gtv); if (_gtt == "main.C" || _gtt == "") { if _, _gtok := _gtv.(C); _gtok { return "main.C" } };`,
				`if _gtt == "main.Temp" { if _, _gtok := _gtv.(Temp); _gtok { return "main.Temp" } };`}},
		{"fmt of args... too", "func logf(f string, args ...any) string { return fmt.Sprintf(f, args...) }",
			[]string{"fmt.Sprintf(f, _gt.FmtAny(args, _gtFmt).([]any)...)"}},
		{"errors.Is and errors.Unwrap get the cell's Unwrap and Is methods", "var err error\n_ = errors.Is(err, nil)\n_ = errors.Unwrap(err)",
			[]string{"_gt.ErrorsIsWith(err, nil, _gtErr)", "_gt.ErrorsUnwrapWith(err, _gtErr)"}},
		{"a cell that declares types assigns the dispatch of fmt and errors, with the session's types (a struct without fmt methods gets its names for %+v and %#v)", "type Other struct{ N int }\nfunc (o *Other) String() string { return \"o\" }",
			[]string{`_gtFmt = func() func(any) any { return func(_gtv any) any { _gtt := _gt.CellType(_gtv); if (_gtt == "main.C" || _gtt == "") { if _gtx, _gtok := _gtv.(C); _gtok { return _gt.NestNames(_gtx, _gt.ShapeStruct("main.C", []string{"R"}, nil)) } };`,
				`if (_gtt == "main.Other" || _gtt == "") { if _gtx, _gtok := _gtv.(Other); _gtok { return _gt.NestNames(_gtx, _gt.ShapeStruct("main.Other", []string{"N"}, nil)) } }; if (_gtt == "*main.Other" || _gtt == "") { if _gtx, _gtok := _gtv.(*Other); _gtok { return _gt.Fmt(_gtx, _gtx.String, nil, nil, nil) } }; if (_gtt == "main.PE" || _gtt == "") { if _gtx, _gtok := _gtv.(PE); _gtok { return _gt.Fmt(_gtx, nil, _gtx.Error, nil, nil) } };`,
				`if _gtt == "main.Temp" { if _gtx, _gtok := _gtv.(Temp); _gtok { return _gt.Fmt(_gtx, _gtx.String, nil, nil, nil) } };`,
				"_gtErr = func() func(any) (func() error, func() []error, func(error) bool) { return func(_gtv any) (func() error, func() []error, func(error) bool) { if _gtv == nil { return nil, nil, nil }; if _gtx, _gtok := _gtv.(PE); _gtok { return _gtx.Unwrap, nil, nil }; if _gtx, _gtok := _gtv.(*PE); _gtok { return _gtx.Unwrap, nil, nil }; return nil, nil, nil } }()"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantCode(t, setup, c.src, c.has, nil) })
	}
}

// TestReflectRefusals checks that json and xml calls that compiled
// reflection would do otherwise than Go, on types declared in cells, and
// that jsonView does not cover, are compile errors that say why, and that a
// template with data of a cell type with methods does not warn (see
// TestTemplateView).
func TestReflectRefusals(t *testing.T) {
	const setup = "import (\"encoding/json\"; \"encoding/xml\"; \"text/template\"; \"os\")\ntype Base struct{ ID int }\ntype Item struct{ Base; Name string }\ntype Priv struct{ A int; b int }\ntype Ok struct{ A int `json:\"a\"` }\ntype C float64\nfunc (c C) MarshalJSON() ([]byte, error) { return nil, nil }\ntype R struct{ T C }\nfunc (o Ok) Final() int { return 1 }\ntype PB struct{ *Base; N int }\ntype PC int\nfunc (c *PC) MarshalJSON() ([]byte, error) { return nil, nil }\ntype R2 struct{ T PC }\ntype K string\nfunc (k *K) UnmarshalText(b []byte) error { return nil }\ntype XU struct{ n int }\nfunc (x *XU) UnmarshalXML(d *xml.Decoder, s xml.StartElement) error { return nil }"
	errs := []struct{ src, want string }{
		{"func f(b []byte, p *Item) error { type al Item; aux := struct{ *al; X int }{al: (*al)(p)}; return json.Unmarshal(b, &aux) }", "cell line 1:99: json.Unmarshal of *struct{*al; X int} cannot be done as Go does it: al is a type declared in a cell, and its embedded field Base would not be flattened (compiled code sees the interpreter's struct, without the type's methods); declare al at the top level of a cell, not in a function"},
		{"var x []*XU\nxml.Unmarshal(nil, &x)", "cell line 2:1: xml.Unmarshal of *[]*XU cannot be done as Go does it: XU is a type declared in a cell, and its UnmarshalXML method would not be called"},
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
	if len(p.Warnings) != 0 {
		t.Errorf("got warnings %q, want none", p.Warnings)
	}
}

// TestLateTypeWarning checks that a type declared after a function that
// asserts to an interface it implements has the function declared again
// with the cell, which then knows the type, without a warning; that a
// method, which cannot be declared again, warns at the type; and that a
// function declared again since, without the assertion, does neither.
func TestLateTypeWarning(t *testing.T) {
	s := newSession(t)
	run(t, s, 1, "func safe(f func()) (err error) {\n\tdefer func() {\n\t\tif e, ok := recover().(error); ok {\n\t\t\terr = e\n\t\t}\n\t}()\n\tf()\n\treturn nil\n}\n"+
		"type M struct{}\nfunc (M) Is(v any) bool { _, ok := v.(fmt.Stringer); return ok }\n_, _ = any(1).(fmt.Stringer)")
	p := run(t, s, 2, "type ParseError struct{ Line int }\nfunc (e ParseError) Error() string { return \"parse\" }")
	if len(p.Warnings) != 0 {
		t.Errorf("got warnings %q, want none", p.Warnings)
	}
	redeclared := false
	for _, d := range p.Decls {
		redeclared = redeclared || d.Kind == DeclFunc && d.Name == "safe"
	}
	if !redeclared {
		t.Errorf("the cell does not declare safe again: %v", p.Decls)
	}
	p = run(t, s, 3, "type A int\ntype T float64\nfunc (t T) String() string { return \"t\" }")
	want := "cell line 2:6: type T implements fmt.Stringer, which a type assertion or type switch in M.Is (cell 1) tests values for: that code knows the types declared up to cell 1, and given a T it would not take it for a fmt.Stringer; run cell 1 again"
	if len(p.Warnings) != 1 || p.Warnings[0] != want {
		t.Errorf("got warnings %q, want %q", p.Warnings, want)
	}
	run(t, s, 4, "func safe(f func()) error { f(); return nil }")
	p = run(t, s, 5, "type E2 struct{}\nfunc (E2) Error() string { return \"e2\" }")
	if len(p.Warnings) != 0 || len(p.Decls) != 2 {
		t.Errorf("got warnings %q and declarations %v, want none and the cell's own", p.Warnings, p.Decls)
	}
}

// TestAmbiguousValueWarning checks that a struct value without methods
// made into an interface warns when a cell's struct type with methods has
// its fields, once per conversion, and not for the cell's type itself or
// for other fields; and that an assertion or type switch case to a struct
// type without methods warns when another cell type without methods has
// its fields (not to a type with methods: its values carry its name).
func TestAmbiguousValueWarning(t *testing.T) {
	s := newSession(t)
	run(t, s, 1, "type Sq struct{ S float64 }\nfunc (s Sq) Area() float64 { return s.S * s.S }\ntype Plain struct{ S float64 }")
	p := run(t, s, 2, "var a any = Sq{1}\nvar b any = Plain{2}\nfmt.Println(struct{ S float64 }{3}, &Plain{4}, struct{ T float64 }{5})")
	want := []string{
		"cell line 2:13: a Plain in an interface cannot be told from a Sq, a type declared in a cell with the same fields and methods",
		"cell line 3:13: a struct{S float64} in an interface cannot be told from a Sq",
		"cell line 3:37: a *Plain in an interface cannot be told from a *Sq",
		"cell line 2:13: a Other in an interface cannot be told from a Sq",
		"cell line 3:11: a type assertion to Plain cannot tell a Plain from a Other in an interface, types with the same fields",
		"cell line 4:24: a type assertion to *Plain cannot tell a *Plain from a *Other",
	}
	p2 := run(t, s, 3, "type Other struct{ S float64 }\nvar o any = Other{1}\n_, _ = o.(Plain)\nswitch o.(type) { case *Plain: }\n_, _ = o.(Sq)")
	got := append(p.Warnings, p2.Warnings...)
	if len(p.Warnings) != 3 || len(p2.Warnings) != 3 {
		t.Fatalf("got warnings %q and %q, want 3 and 3", p.Warnings, p2.Warnings)
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("warning %d: got %q, want one beginning %q", i, got[i], w)
		}
	}
}
