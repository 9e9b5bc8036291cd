// Templates executed in a generic function, with a cell's values and a
// generic struct holding them.
package main

import (
	"os"
	"strings"
	"text/template"
)

type Item struct{ N string }

func (i Item) Up() string { return strings.ToUpper(i.N) }

func (i *Item) Ref() string { return "&" + i.N }

type Box[T any] struct {
	V    T
	List []T
}

func render[T any](src string, v T) {
	t := template.Must(template.New("g").Parse(src))
	if err := t.Execute(os.Stdout, v); err != nil {
		os.Stdout.WriteString(err.Error())
	}
	os.Stdout.WriteString("\n")
}

func main() {
	render("{{.Up}}", Item{"a"})
	render("{{range .}}{{.Up}}{{.Ref}}{{end}}", []Item{{"b"}, {"c"}})
	render("{{.V.Up}} {{range .List}}{{.Ref}}{{end}}", &Box[Item]{Item{"d"}, []Item{{"e"}}})
	render("{{.}}", 3)
	render("{{.Ref}}", Item{"f"})
}
