package plan

import (
	"strings"
	"testing"
)

// TestTemplateView checks that a template executed with data of a cell's
// type with methods gets a view of it, and that a shape the view does not
// cover warns at the call.
func TestTemplateView(t *testing.T) {
	const setup = "import (\"text/template\"; \"os\")\ntype Score struct{ Name string; secret int; Sub *Score }\nfunc (s Score) Final() int { return 1 }\nfunc (s *Score) Tag() string { return s.Name }\ntype Key string\nfunc (k Key) String() string { return \"k\" }\nvar tm = template.Must(template.New(\"\").Parse(\"{{.}}\"))"
	cases := []struct {
		name, src string
		has, not  []string
	}{
		{"a value", "tm.Execute(os.Stdout, Score{})", []string{
			`_gt.TemplateExecute(tm, os.Stdout, "", false, true, func() any { var _gttv1 func(*Score, bool, bool) any; `,
			`case "Final": return p.Final; case "Tag": if addr { return p.Tag }; }`,
			`case "Name": return _gt.TemplateField(&p.Name, addr), true; case "Sub": return func() any { if *&p.Sub == nil { return _gt.TemplateNil("*main.Score", (*Score)(nil)) }; return _gttv1(*&p.Sub, true, true) }(), true;`,
			`[]string{"secret"}`,
			`var _gttd Score = (Score{}); return _gttv1(&_gttd, false, false) }())`}, nil},
		{"named", "tm.ExecuteTemplate(os.Stdout, \"x\", []Score{})", []string{
			`_gt.TemplateExecute(tm, os.Stdout, "x", true, true, func() any {`,
			`_gttv1 := make([]any, len(*&_gttd)); for _gttv2 := range *&_gttd { _gttv1[_gttv2] = _gttv3(&(*&_gttd)[_gttv2], true, false) }`}, nil},
		{"a map literal of interfaces", "s := Score{}\ntm.Execute(os.Stdout, map[string]any{\"S\": s, \"N\": 1})", []string{
			`_gt.TemplateExecute(tm, os.Stdout, "", false, true, func() any { var _gttv1 func(*Score, bool, bool) any; `,
			`return map[string]any{"S": func() any { var _gtte Score = (s); return _gttv1(&_gtte, false, false) }(), "N": 1} }())`}, nil},
		{"an interface", "var m map[string]any\ntm.Execute(os.Stdout, m)", []string{
			`_gt.TemplateExecute(tm, os.Stdout, "", false, true, func() any { var _gttd map[string]any = (m); return func() any { if *&_gttd == nil { return map[string]any(nil) }; `,
			`= func() any { if _gtr := _gt.TemplateAny(*&_gttv`, `); _gtr != nil { return _gt.TemplateInInterface(_gtr, "interface {}") }; return _gt.TemplateField(&_gttv`}, nil},
		{"a value of a type with String", "tm.Execute(os.Stdout, Key(\"a\"))", []string{
			`func(ptr bool) any { if ptr { return _gt.Fmt(p, p.String, nil, nil, nil) }; return _gt.Fmt(*p, (*p).String, nil, nil, nil) }, false)`}, nil},
		{"a FuncMap", "_ = template.FuncMap{\"k\": func(s string) Key { return Key(s) }, \"n\": func() int { return 1 }}", []string{
			`template.FuncMap{"k": func() any { var _gttv1 func(*Key, bool, bool) any; `,
			`_gtfn := (func(s string) Key { return Key(s) }); return func(_gta0 string) any { _gtres := _gtfn(_gta0); return _gttv1(&_gtres, false, false) } }(), "n": func() int { return 1 }}`}, nil},
		{"data without a cell's methods, as it is", "tm.Execute(os.Stdout, 1)", []string{`_gt.TemplateExecute(tm, os.Stdout, "", false, false, 1)`}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantCode(t, setup, c.src, c.has, c.not) })
	}
	s := newSession(t)
	run(t, s, 1, setup)
	p := run(t, s, 2, "tm.Execute(os.Stdout, map[Key]int{})")
	if got := lineComment.ReplaceAllString(dump(p), ""); !strings.Contains(got, `_gt.TemplateExecute(tm, os.Stdout, "", false, false, map[Key]int{})`) {
		t.Errorf("the template without a view is not executed through _gt.TemplateExecute:\n%s", got)
	}
	want := "cell line 1:1: a template cannot call the methods of Key, a type declared in a cell, in a value of type map[Key]int"
	if len(p.Warnings) != 1 || !strings.HasPrefix(p.Warnings[0], want) {
		t.Errorf("got warnings %q, want one beginning %q", p.Warnings, want)
	}
}

// TestTemplateDispatch checks that a cell that declares types registers
// the views of values in interfaces of its types: a function of an
// earlier cell that executes a template sees a type declared later.
func TestTemplateDispatch(t *testing.T) {
	s := newSession(t)
	run(t, s, 1, "import (\"text/template\"; \"os\")\nfunc show(v any) { template.Must(template.New(\"\").Parse(\"{{.}}\")).Execute(os.Stdout, v) }")
	got := lineComment.ReplaceAllString(dump(run(t, s, 2, "type A int\ntype T struct{ N int }\nfunc (t T) String() string { return \"t\" }\ntype Temp float64\nfunc (t Temp) M() int { return 1 }")), "")
	for _, want := range []string{
		`_gt.TemplateType("main.T", func() func(any) any { var _gttv1 func(*T, bool, bool) any; `,
		`return func(_gtv any) any { _gtt := _gt.CellType(_gtv); if (_gtt == "main.T" || _gtt == "") { if _gtx, _gtok := _gtv.(T); _gtok { return _gttv1(&_gtx, false, false) } }; `,
		`_gt.TemplateType("main.Temp", func() func(any) any {`,
		`if _gtt == "" { if _gtx, _gtok := _gtv.([]T); _gtok {`,
		`if _gtt == "" { if _gtx, _gtok := _gtv.(map[string]*T); _gtok {`,
		`if _gtt == "main.Temp" { if _gtx, _gtok := _gtv.(Temp); _gtok {`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	for _, not := range []string{"_gtv.([]Temp)"} {
		if strings.Contains(got, not) {
			t.Errorf("unwanted %q in\n%s", not, got)
		}
	}
}

// TestTemplateMethodsOfEarlierType checks that the cell after one that
// declares methods on a type of an earlier cell gives templates the view
// with them, and that a template executed in that cell warns.
func TestTemplateMethodsOfEarlierType(t *testing.T) {
	s := newSession(t)
	run(t, s, 1, "import (\"text/template\"; \"os\")\ntype T struct{ N int }")
	p := run(t, s, 2, "func (t T) M() int { return t.N }\ntemplate.Must(template.New(\"\").Parse(\"{{.M}}\")).Execute(os.Stdout, T{})")
	want := "cell line 2:1: a template executed in the cell that declares the methods M of T, a type of an earlier cell, cannot call them"
	if len(p.Warnings) != 1 || !strings.HasPrefix(p.Warnings[0], want) {
		t.Errorf("got warnings %q, want one beginning %q", p.Warnings, want)
	}
	got := dump(run(t, s, 3, "x := 1\n_ = x"))
	if !strings.Contains(got, `_gt.TemplateType("main.T", func() func(any) any {`) || !strings.Contains(got, `case "M": return p.M;`) {
		t.Errorf("cell 3 does not register T's view with its method M:\n%s", got)
	}
	if got := dump(run(t, s, 4, "y := 1\n_ = y")); strings.Contains(got, "TemplateType") {
		t.Errorf("cell 4 registers views again:\n%s", got)
	}
}

// TestTemplateTypesOnImport checks that no cell registers views before
// one imports a template package, which registers the session's types.
func TestTemplateTypesOnImport(t *testing.T) {
	s := newSession(t)
	if got := dump(run(t, s, 1, "type T struct{ N int }\nfunc (t T) M() int { return t.N }")); strings.Contains(got, "TemplateType") {
		t.Errorf("cell 1 registers a view without templates:\n%s", got)
	}
	if got := dump(run(t, s, 2, "import \"html/template\"\nvar _ = template.HTMLEscapeString")); !strings.Contains(got, `_gt.TemplateType("main.T", `) {
		t.Errorf("cell 2 does not register T's view:\n%s", got)
	}
}

// TestTemplateCompiledBase checks that a cell's type declared on a
// compiled named type gets a view that prints its underlying value.
func TestTemplateCompiledBase(t *testing.T) {
	wantCode(t, "import (\"html/template\"; \"os\")\nvar tm = template.Must(template.New(\"\").Parse(\"{{.}}\"))",
		"type Safe template.HTML\ntm.Execute(os.Stdout, Safe(\"<b>\"))",
		[]string{`_gt.TemplateView("main.Safe", p, addr, viaPtr, nil, nil, nil, nil, func(ptr bool) any { if ptr { return p }; return string(*p) }, false)`}, nil)
}
