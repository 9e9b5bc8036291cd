// text/template and html/template calling a cell type's methods and fields.
// gocompat: want-error "a template cannot call the methods of Score"
package main

import (
	htemplate "html/template"
	"os"
	"text/template"
)

type Score struct {
	Name  string
	Marks []int
}

func (s Score) Final() int {
	t := 0
	for _, m := range s.Marks {
		t += m
	}
	return t
}

func (s *Score) Tag() string { return "<" + s.Name + ">" }

func main() {
	t := template.Must(template.New("t").Parse("{{.Name}}: {{.Final}} {{range .Marks}}[{{.}}]{{end}}\n"))
	t.Execute(os.Stdout, Score{"ann", []int{1, 2, 3}})
	h := htemplate.Must(htemplate.New("h").Parse("<p>{{.Name}} {{.Tag}} {{.Final}}</p>\n"))
	h.Execute(os.Stdout, &Score{"<b>", []int{4}})
	t2 := template.Must(template.New("l").Parse("{{range .}}{{.Name}}={{.Final}} {{end}}\n"))
	t2.Execute(os.Stdout, []Score{{"a", []int{1}}, {"b", []int{2, 2}}})
}
