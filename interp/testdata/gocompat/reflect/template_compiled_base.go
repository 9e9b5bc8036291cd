// Templates with a cell's types declared on compiled named types: a
// type on template.HTML is escaped (it is not template.HTML), a type on
// time.Duration prints as its number (it has no String method).
package main

import (
	htemplate "html/template"
	"os"
	"text/template"
	"time"
)

type MyHTML htemplate.HTML

type Ticks time.Duration

type Post struct {
	Title MyHTML
	Body  htemplate.HTML
	Took  Ticks
}

func main() {
	h := htemplate.Must(htemplate.New("h").Parse("<p>{{.Title}}</p>{{.Body}} {{.Took}}\n"))
	h.Execute(os.Stdout, Post{"<b>t</b>", "<i>b</i>", Ticks(1500 * time.Millisecond)})
	h.Execute(os.Stdout, map[string]any{"Title": MyHTML("<u>x</u>"), "Body": htemplate.HTML("<s>y</s>"), "Took": Ticks(2)})
	t := template.Must(template.New("t").Parse("{{.Took}} {{printf \"%v %d\" .Took .Took}} {{.Title}}\n"))
	t.Execute(os.Stdout, Post{"<b>", "", Ticks(time.Second)})
}
