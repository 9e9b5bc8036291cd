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
			`_gt.TemplateExecute(tm, os.Stdout, "", false, func() any { var _gttv1 func(*Score, bool, bool) any; `,
			`case "Final": return p.Final; case "Tag": if addr { return p.Tag }; }`,
			`case "Name": return _gt.TemplateField(&p.Name, addr), true; case "Sub": return func() any { if *&p.Sub == nil { return _gt.TemplateNil("*main.Score", (*Score)(nil)) }; return _gttv1(*&p.Sub, true, true) }(), true;`,
			`[]string{"secret"}`,
			`var _gttd Score = (Score{}); return _gttv1(&_gttd, false, false) }())`}, nil},
		{"named", "tm.ExecuteTemplate(os.Stdout, \"x\", []Score{})", []string{
			`_gt.TemplateExecute(tm, os.Stdout, "x", true, func() any {`,
			`_gttv1 := make([]any, len(*&_gttd)); for _gttv2 := range *&_gttd { _gttv1[_gttv2] = _gttv3(&(*&_gttd)[_gttv2], true, false) }`}, nil},
		{"a map literal of interfaces", "s := Score{}\ntm.Execute(os.Stdout, map[string]any{\"S\": s, \"N\": 1})", []string{
			`_gt.TemplateExecute(tm, os.Stdout, "", false, func() any { var _gttv1 func(*Score, bool, bool) any; `,
			`return map[string]any{"S": func() any { var _gtte Score = (s); return _gttv1(&_gtte, false, false) }(), "N": 1} }())`}, nil},
		{"an interface", "var m map[string]any\ntm.Execute(os.Stdout, m)", []string{
			`_gt.CellType(_gtv); if _gtt == "main.Key" { if _gtx, _gtok := _gtv.(Key); _gtok { return _gttv`,
			`if (_gtt == "main.Score" || _gtt == "") { if _gtx, _gtok := _gtv.(Score); _gtok { return _gttv`,
			`if _gtt == "" { if _gtx, _gtok := _gtv.([]Score); _gtok { return func() any {`,
			`if (_gtt == "*main.Score" || _gtt == "") { if _gtx, _gtok := _gtv.(*Score); _gtok { return func() any { if *&_gtx == nil {`,
			`{ if _gtr := _gttv`, `); _gtr != nil { return _gt.TemplateInInterface(_gtr, "interface {}") }; return _gt.TemplateField(`}, []string{`_gtv.([]Key)`}},
		{"a value of a type with String", "tm.Execute(os.Stdout, Key(\"a\"))", []string{
			`func(ptr bool) any { if ptr { return _gt.Fmt(p, p.String, nil, nil, nil) }; return _gt.Fmt(*p, (*p).String, nil, nil, nil) }, false)`}, nil},
		{"a FuncMap", "_ = template.FuncMap{\"k\": func(s string) Key { return Key(s) }, \"n\": func() int { return 1 }}", []string{
			`template.FuncMap{"k": func() any { var _gttv1 func(*Key, bool, bool) any; `,
			`_gtfn := (func(s string) Key { return Key(s) }); return func(_gta0 string) any { _gtres := _gtfn(_gta0); return _gttv1(&_gtres, false, false) } }(), "n": func() int { return 1 }}`}, nil},
		{"data without a cell's methods", "tm.Execute(os.Stdout, 1)", nil, []string{"TemplateExecute"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantCode(t, setup, c.src, c.has, c.not) })
	}
	s := newSession(t)
	run(t, s, 1, setup)
	p := run(t, s, 2, "tm.Execute(os.Stdout, map[Key]int{})")
	want := "cell line 1:1: a template cannot call the methods of Key, a type declared in a cell, in a value of type map[Key]int"
	if len(p.Warnings) != 1 || !strings.HasPrefix(p.Warnings[0], want) {
		t.Errorf("got warnings %q, want one beginning %q", p.Warnings, want)
	}
}

// TestLateTemplateType checks that a type with methods declared after a
// function that executes a template with data holding an interface
// warns, at the type.
func TestLateTemplateType(t *testing.T) {
	s := newSession(t)
	run(t, s, 1, "import (\"text/template\"; \"os\")\nfunc show(v any) { template.Must(template.New(\"\").Parse(\"{{.}}\")).Execute(os.Stdout, v) }")
	p := run(t, s, 2, "type A int\ntype T float64\nfunc (t T) String() string { return \"t\" }")
	want := "cell line 2:6: a template that a function of cell 1 executes with data holding an interface cannot call the methods of T, declared later"
	if len(p.Warnings) != 1 || !strings.HasPrefix(p.Warnings[0], want) {
		t.Errorf("got warnings %q, want one beginning %q", p.Warnings, want)
	}
	p = run(t, s, 3, "func show2(v int) { template.Must(template.New(\"\").Parse(\"{{.}}\")).Execute(os.Stdout, v) }\ntype U struct{}\nfunc (U) M() int { return 1 }")
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "methods of U") {
		t.Errorf("got warnings %q, want one about U", p.Warnings)
	}
}
