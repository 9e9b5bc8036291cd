package cellrt

import (
	"fmt"
	htemplate "html/template"
	"io"
	"strings"
	"testing"
	"text/template"
)

type tplData struct {
	A int
	S []string
	M map[string]int
	P *tplData
	F func() int
	h int
}

func (d tplData) Meth(n int) int      { return d.A + n }
func (d tplData) Fail() (int, error)  { return 0, fmt.Errorf("failed %d", d.A) }
func (d tplData) Boom() int           { panic("boom") }
func (d *tplData) PMeth() string      { return fmt.Sprint("p", d.A) }
func (d tplData) Scale(f float64) any { return f * 2 }
func (d tplData) HTML(h htemplate.HTML, u uint8, b bool, c complex64, x any, p *int) string {
	return fmt.Sprint(h, u, b, c, x, p == nil)
}

// templateCases are templates that the rewritten trees must execute as
// the template package executes the originals, errors included. Known
// difference, in an error only: a range over a view of a struct given by
// a pipeline of several commands is reported at <_gtr>.
var templateCases = []string{
	"{{.A}} {{.S}} {{.M.x}} {{.M.nope}} {{.Meth 2}} {{.Scale 2}} {{.Scale 1.5}}",
	"{{.PMeth}}", "{{.P.PMeth}}", "{{.P.A}}", "{{.P.P.A}}", "{{.Nope}}", "{{.A.B}}", "{{.Meth}}", "{{.Meth 1 2}}",
	"{{.Meth 1.5}}", "{{.Meth 2.0}}", "{{.Meth 0x10}}", "{{.Meth 'a'}}", "{{.Meth \"x\"}}", "{{.Meth nil}}", "{{.Meth true}}", "{{.Scale 'a'}}",
	"{{.HTML \"<b>\" 7 true 2i 1.5 nil}}", "{{.HTML \"x\" -1 true 2i 1 nil}}", "{{.HTML \"x\" 1 2 2i 1 nil}}", "{{.HTML \"x\" 1 true 2 1e3 nil}}",
	"{{.HTML \"x\" 1 true 2 0xFFFFFFFFFFFFFFFF nil}}", "{{3 | .Scale}}", "{{.Meth .A}}", "{{.Fail}}", "{{.Boom}}", "{{.h}}", "{{.F}}", "{{call .F}}", "{{.A 1}}", "{{3 | .Meth}}",
	"{{with .P}}{{.A}}{{else}}none{{end}}", "{{range $i, $s := .S}}{{$i}}{{$s}}{{else}}empty{{end}}",
	"{{if and .A .S}}yes{{end}} {{or .P .A}} {{not .S}} {{len .S}} {{index .S 0}} {{slice .S 1}} {{eq .A 1}} {{lt .A 5}}",
	"{{$x := .}}{{$x.A}} {{$x.P}} {{(.S).x}} {{(.P).A}} {{.M | len}} {{printf \"%d-%v\" .A .S}} {{.A | printf \"%03d\"}}",
	`{{define "x"}}[{{.}}]{{end}}{{template "x" .A}}{{block "y" .S}}{{len .}}{{end}}`,
	"{{range .S}}{{if eq . \"b\"}}{{break}}{{end}}{{.}}{{end}}", "{{index .S 5}}", "{{.S.x}}", "{{nil}}", "{{.M.x 1}}",
}

func execBoth(t *testing.T, src string, opt string, data any) {
	t.Helper()
	var want, got strings.Builder
	t1 := template.Must(template.New("t").Option(opt).Parse(src))
	err1 := t1.Execute(&want, data)
	t2 := template.Must(template.New("t").Option(opt).Parse(src))
	err2 := TemplateExecute(t2, &got, "", false, true, data)
	if want.String() != got.String() || fmt.Sprint(err1) != fmt.Sprint(err2) {
		t.Errorf("%q with %v:\ngot  %q, %v\nwant %q, %v", src, data, got.String(), err2, want.String(), err1)
	}
}

// TestTemplateRewriteLikeGo checks that a rewritten template executes
// values that are not views as the template package does.
func TestTemplateRewriteLikeGo(t *testing.T) {
	inner := &tplData{A: 5}
	datas := []any{
		tplData{A: 1, S: []string{"a", "b", "c"}, M: map[string]int{"x": 3}, P: inner, F: func() int { return 9 }},
		&tplData{A: 0, P: nil},
		map[string]any{"A": 2, "S": []string{}},
		nil,
	}
	for _, src := range templateCases {
		for _, d := range datas {
			execBoth(t, src, "missingkey=default", d)
		}
	}
	execBoth(t, "{{.M.nope}}", "missingkey=error", datas[0])
	execBoth(t, "{{.M.nope}}", "missingkey=zero", datas[0])
	execBoth(t, "{{.nope}}", "missingkey=error", nil)
}

// rawScore is what the interpreter makes of a cell's Score, without
// methods; score is Score as Go sees it.
type rawScore struct {
	Name    string
	Marks   []int
	Lvl     int
	Xsecret int
}

type score struct {
	Name   string
	Marks  []int
	Lvl    level
	secret int
}

type level int

func (l level) String() string  { return fmt.Sprint("L", int(l)) }
func (s score) Final() int      { return s.Lvl.int() * 10 }
func (l level) int() int        { return int(l) }
func (s *score) Tag() string    { return "<" + s.Name + ">" }
func (s score) Add(n int8) int8 { return int8(s.Lvl) + n }

// scoreView is the view the planner writes for a Score.
func scoreView(p *rawScore, addr, viaPtr bool) any {
	methods := func(name string) any {
		switch name {
		case "Final":
			return func() int { return p.Lvl * 10 }
		case "Add":
			return func(n int8) int8 { return int8(p.Lvl) + n }
		case "Tag":
			if addr {
				return func() string { return "<" + p.Name + ">" }
			}
		}
		return nil
	}
	fields := func(name string) (any, bool) {
		switch name {
		case "Name":
			return TemplateField(&p.Name, addr), true
		case "Marks":
			return TemplateField(&p.Marks, addr), true
		case "Lvl":
			return levelView(&p.Lvl, addr, false), true
		}
		return nil, false
	}
	return TemplateView("main.score", p, addr, viaPtr, methods, fields, []string{"secret"}, nil, func(ptr bool) any {
		if ptr {
			return p
		}
		return *p
	}, false)
}

func levelView(p *int, addr, viaPtr bool) any {
	elems := func() any { // range over the integer yields levels
		r := make([]any, max(*p, 0))
		for i := range r {
			x := i
			r[i] = levelView(&x, false, false)
		}
		return r
	}
	return TemplateView("main.level", p, addr, viaPtr, nil, nil, nil, elems, func(bool) any {
		return Fmt(*p, func() string { return fmt.Sprint("L", *p) }, nil, nil, nil)
	}, false)
}

// TestTemplateViewsLikeGo checks that views of a cell's values execute
// as the values of the Go types they stand for.
func TestTemplateViewsLikeGo(t *testing.T) {
	srcs := []string{
		"{{.Name}} {{.Final}} {{.Add 2}} {{.Lvl}} {{printf \"%v %d %s\" .Lvl .Lvl .Lvl}} {{.Marks}} {{if .Lvl}}lvl{{else}}nolvl{{end}} {{eq .Lvl 2}}",
		"{{.Tag}}", "{{.secret}}", "{{printf \"%v|%+v|%d\" . . .}}", "{{.}}", "{{range .}}{{.}}{{end}}", "{{range .Lvl}}{{.}}{{end}}",
		"{{if $x := .Lvl}}t{{$x}}{{else}}f{{$x}}{{end}} {{and .Lvl .Name}} {{or .Lvl \"z\"}} {{not .Lvl}} {{with .Lvl}}w{{.}}{{else}}nw{{end}}", "{{.Nope}}", "{{.Add 300}}", "{{.Name 1}}", "{{with .Lvl}}{{.}}{{end}}",
	}
	for _, src := range srcs {
		for i, c := range []struct {
			real any
			view any
		}{
			{score{"a", []int{1}, 2, 0}, scoreView(&rawScore{"a", []int{1}, 2, 0}, false, false)},
			{&score{"b", nil, 0, 0}, scoreView(&rawScore{"b", nil, 0, 0}, true, true)},
			{[]score{{Name: "c", Lvl: 1}}, []any{scoreView(&rawScore{Name: "c", Lvl: 1}, true, false)}},
		} {
			if i == 2 {
				src = "{{range .}}" + src + "{{end}}"
			}
			for _, html := range []bool{false, true} {
				var want, got strings.Builder
				var err1, err2 error
				if html {
					err1 = htemplate.Must(htemplate.New("t").Parse(src)).Execute(&want, c.real)
					err2 = TemplateExecute(htemplate.Must(htemplate.New("t").Parse(src)), &got, "", false, true, c.view)
				} else {
					err1 = template.Must(template.New("t").Parse(src)).Execute(&want, c.real)
					err2 = TemplateExecute(template.Must(template.New("t").Parse(src)), &got, "", false, true, c.view)
				}
				// The interpreter's types have other names.
				e1 := strings.ReplaceAll(fmt.Sprint(err1), "cellrt.", "main.")
				if want.String() != got.String() || e1 != fmt.Sprint(err2) {
					t.Errorf("%q, %d, html %v:\ngot  %q, %v\nwant %q, %v", src, i, html, got.String(), err2, want.String(), e1)
				}
			}
		}
	}
}

// TestTemplateViewJS checks that html/template writes a view in a
// JavaScript context as json writes the Go value.
func TestTemplateViewJS(t *testing.T) {
	type pub struct{ Name string }
	src := "<script>var x = {{.}};</script>"
	var want, got strings.Builder
	htemplate.Must(htemplate.New("t").Parse(src)).Execute(&want, pub{"a"})
	p := &pub{"a"}
	v := TemplateView("main.pub", p, false, false, nil, nil, nil, nil, func(bool) any { return *p }, false)
	if err := TemplateExecute(htemplate.Must(htemplate.New("t").Parse(src)), &got, "", false, true, v); err != nil || got.String() != want.String() {
		t.Errorf("got %q, %v; want %q", got.String(), err, want.String())
	}
}

// TestTemplateViewAfterEscape checks an html/template that ran, and was
// escaped, before it gets a view: a template it calls in another context
// was copied for that context then.
func TestTemplateViewAfterEscape(t *testing.T) {
	src := `{{define "x"}}{{.Final}}{{end}}<a title="{{template "x" .}}">{{template "x" .}}</a>`
	real := score{Name: "a", Lvl: 2}
	raw := &rawScore{Name: "a", Lvl: 2}
	want, got := &strings.Builder{}, &strings.Builder{}
	err1 := htemplate.Must(htemplate.New("t").Parse(src)).Execute(want, real)
	h := htemplate.Must(htemplate.New("t").Parse(src))
	h.Execute(io.Discard, map[string]int{"Final": 1})
	err2 := TemplateExecute(h, got, "", false, true, scoreView(raw, false, false))
	if want.String() != got.String() || fmt.Sprint(err1) != fmt.Sprint(err2) {
		t.Errorf("got %q, %v; want %q, %v", got.String(), err2, want.String(), err1)
	}
}

// TestTemplateAny checks that values in interfaces get the views the
// session registered, in slices and maps too, and other values none.
func TestTemplateAny(t *testing.T) {
	rt := &Runtime{}
	if rt.TemplateAny(rawScore{Name: "a"}) != nil {
		t.Fatal("a view without registered types")
	}
	rt.TemplateType("main.score", func(v any) any {
		if s, ok := v.(rawScore); ok {
			return scoreView(&s, false, false)
		}
		return nil
	})
	want := "map[1:[{x [] L2 0} 5]] <nil> <nil>"
	got := fmt.Sprint(rt.TemplateAny(map[int][]any{1: {rawScore{Name: "x", Lvl: 2}, 5}}), rt.TemplateAny([]int{1}), rt.TemplateAny(map[string]any{"a": 1}))
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	v := rt.TemplateAny([]rawScore{{Name: "y", Lvl: 1}}).([]any)[0]
	var b strings.Builder
	if err := TemplateExecute(template.Must(template.New("t").Parse("{{.Final}} {{.Lvl}}")), &b, "", false, true, v); err != nil || b.String() != "10 L1" {
		t.Errorf("got %q, %v; want \"10 L1\"", b.String(), err)
	}
}

// BenchmarkTemplateRewritten compares a template's execution as the
// template package runs it (plain), through TemplateExecute without
// views (wrapped), and rewritten (see rewriteTree), on the same plain
// data.
func BenchmarkTemplateRewritten(b *testing.B) {
	const src = "{{range .}}{{.A}} {{.M.x}} {{if .S}}{{len .S}}{{end}}{{end}}"
	data := make([]tplData, 100)
	for i := range data {
		data[i] = tplData{A: i, S: []string{"s"}, M: map[string]int{"x": i}}
	}
	b.Run("plain", func(b *testing.B) {
		t := template.Must(template.New("t").Parse(src))
		for b.Loop() {
			t.Execute(io.Discard, data)
		}
	})
	b.Run("wrapped", func(b *testing.B) {
		t := template.Must(template.New("t").Parse(src))
		for b.Loop() {
			TemplateExecute(t, io.Discard, "", false, false, data)
		}
	})
	b.Run("rewritten", func(b *testing.B) {
		t := template.Must(template.New("t").Parse(src))
		for b.Loop() {
			TemplateExecute(t, io.Discard, "", false, true, data)
		}
	})
}
