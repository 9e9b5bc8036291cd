// text/template and html/template calling a cell type's methods and fields.
package main

import (
	"errors"
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

func (s Score) Add(n int) int { return s.Final() + n }

func (s Score) Scaled(f float64, label string) string {
	return label + ":" + template.HTMLEscapeString(s.Name) + "*" + string(rune('0'+int(f*2)))
}

func (s Score) Check() (string, error) {
	if len(s.Marks) == 0 {
		return "", errors.New("no marks")
	}
	return "ok", nil
}

func (s *Score) Tag() string { return "<" + s.Name + ">" }

func main() {
	t := template.Must(template.New("t").Parse("{{.Name}}: {{.Final}} {{.Add 2}} {{.Scaled 1.5 \"x\"}} {{.Check}} {{range .Marks}}[{{.}}]{{end}}\n"))
	t.Execute(os.Stdout, Score{"ann", []int{1, 2, 3}})
	h := htemplate.Must(htemplate.New("h").Parse("<p>{{.Name}} {{.Tag}} {{.Final}}</p>\n"))
	h.Execute(os.Stdout, &Score{"<b>", []int{4}})
	t2 := template.Must(template.New("l").Parse("{{range .}}{{.Name}}={{.Final}} {{.Tag}} {{end}}\n"))
	t2.Execute(os.Stdout, []Score{{"a", []int{1}}, {"b", []int{2, 2}}})
	t3 := template.Must(template.New("e").Parse("{{.Check}}\n"))
	err := t3.Execute(os.Stdout, Score{"c", nil})
	os.Stdout.WriteString(err.Error() + "\n")
	err = t3.Execute(os.Stdout, Score{"d", []int{1}})
	os.Stdout.WriteString("no error: " + (map[bool]string{true: "yes", false: "no"})[err == nil] + "\n")
	t4 := template.Must(template.New("p").Parse("{{.Tag}}\n"))
	err = t4.Execute(os.Stdout, Score{"e", nil})
	os.Stdout.WriteString(err.Error() + "\n")
}
