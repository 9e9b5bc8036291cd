// Templates with plain data beside a cell's types with methods: a base
// template cloned for pages, one executed with a cell's value and one
// with a map; trimming, else branches, variables, comparisons, blocks.
package main

import (
	"fmt"
	"os"
	"strings"
	"text/template"
)

type Page struct {
	Title string
	Tags  []string
}

func (p Page) Slug() string { return strings.ToLower(strings.ReplaceAll(p.Title, " ", "-")) }

const layout = `{{define "base"}}<{{block "title" .}}untitled{{end}}>{{template "body" .}}{{end}}`

func main() {
	base := template.Must(template.New("layout").Parse(layout))
	p1 := template.Must(template.Must(base.Clone()).Parse(`{{define "title"}}{{.Title}}{{end}}{{define "body"}}[{{.Slug}}{{range $i, $t := .Tags}}{{if $i}},{{end}}{{$t}}{{else}} none{{end}}]{{end}}`))
	p2 := template.Must(template.Must(base.Clone()).Parse(`{{define "body"}}{{- range $k, $v := . -}} {{$k}}={{$v}} {{- end}}{{end}}`))
	if err := p1.ExecuteTemplate(os.Stdout, "base", Page{"Hello World", []string{"a", "b"}}); err != nil {
		fmt.Println(err)
	}
	fmt.Println()
	if err := p2.ExecuteTemplate(os.Stdout, "base", map[string]int{"x": 1, "y": 2}); err != nil {
		fmt.Println(err)
	}
	fmt.Println()
	if err := base.ExecuteTemplate(os.Stdout, "base", nil); err != nil {
		fmt.Println(err)
	}
	fmt.Println()
	t := template.Must(template.New("x").Parse(`{{$n := len .}}{{if and (gt $n 1) (lt $n 5)}}few{{else if eq $n 0}}none{{else}}many{{end}} {{index . 0 | printf "%q"}} {{with $x := "w"}}{{$x}}{{end}} {{slice . 1}} {{not true}} {{or "" "d"}} {{html "<a>"}} {{js "'"}} {{urlquery "a b"}} {{print 1 2}} {{println 3}}`))
	if err := t.Execute(os.Stdout, []string{"a", "b", "c"}); err != nil {
		fmt.Println(err)
	}
}
