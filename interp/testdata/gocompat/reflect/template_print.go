// How templates print a cell's values: String methods with value and
// pointer receivers, through pointers and on addressable values, in
// text/template and html/template, with printf, and a struct whose
// fields have String methods.
package main

import (
	htemplate "html/template"
	"os"
	"text/template"
)

type V struct{ N int }

func (v V) String() string { return "V<" + string(rune('0'+v.N)) + ">" }

type P struct{ N int }

func (p *P) String() string { return "P<" + string(rune('0'+p.N)) + ">" }

type W struct {
	A V
	B P
	C *P
	d int
}

type Box struct {
	Vs  []V
	Ps  []P
	PP  *P
	One P
	W   W
}

func main() {
	src := "{{.PP}} {{.One}} {{range .Vs}}{{.}} {{end}}{{range .Ps}}{{.}} {{end}}{{printf \"%v %v\" .One .PP}} {{.W}} {{printf \"%+v\" .W}} {{.W.C}}\n"
	b := Box{Vs: []V{{1}, {2}}, Ps: []P{{3}}, PP: &P{4}, One: P{5}, W: W{V{6}, P{7}, &P{8}, 9}}
	t := template.Must(template.New("t").Parse(src))
	t.Execute(os.Stdout, b)
	t.Execute(os.Stdout, &b)
	h := htemplate.Must(htemplate.New("h").Parse(src))
	h.Execute(os.Stdout, b)
	h.Execute(os.Stdout, &b)
	t.Execute(os.Stdout, []Box{b})
	d := template.Must(template.New("d").Parse(`{{define "one"}}<{{.N}} {{.}}>{{end}}{{define "all"}}{{range .}}{{template "one" .}}{{end}}{{end}}`))
	d.ExecuteTemplate(os.Stdout, "all", b.Ps)
	d.ExecuteTemplate(os.Stdout, "one", b.PP)
	hd := htemplate.Must(htemplate.New("d").Parse(`{{define "one"}}<i title="{{.}}">{{.N}}</i>{{end}}`))
	hd.ExecuteTemplate(os.Stdout, "one", &b.W.B)
	os.Stdout.WriteString("\n")
}
