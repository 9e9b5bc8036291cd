// Templates with nested cell values: slices and maps of them in range,
// with, if, comparisons, pipelines, printf, a non-struct type with a
// String method, pointer receivers on addressable values, a method that
// returns a cell value, and html/template escaping of a method's result.
package main

import (
	"fmt"
	htemplate "html/template"
	"os"
	"strings"
	"text/template"
)

type Level int

func (l Level) String() string { return [...]string{"low", "mid", "high", "top"}[l] }

func (l Level) Up() Level { return l + 1 }

type Item struct {
	Name  string
	Price float64
	Lvl   Level
	Tags  []string
	note  string
}

func (i Item) Label() string { return strings.ToUpper(i.Name) }

func (i *Item) Ref() string { return "#" + i.Name }

func (i Item) Cost(n int) float64 { return i.Price * float64(n) }

type Order struct {
	ID    int
	Items []Item
	ByKey map[string]Item
	Main  *Item
	None  *Item
	Best  Item
}

func (o Order) Total() float64 {
	t := 0.0
	for _, i := range o.Items {
		t += i.Price
	}
	return t
}

func (o Order) First() Item { return o.Items[0] }

func (o *Order) Count() int { return len(o.Items) }

func main() {
	funcs := template.FuncMap{"shout": func(s string) string { return s + "!" }}
	src := `order {{.ID}} total {{printf "%.2f" .Total}} count {{.Count}}
{{range $i, $it := .Items}}{{$i}}:{{$it.Label}} {{.Ref}} {{.Cost 3}} {{.Lvl}} {{.Lvl.Up}} {{if eq .Name "pen"}}PEN{{else}}other{{end}} {{len .Tags}}{{range .Tags}}[{{.}}]{{end}}
{{end}}{{range $k, $v := .ByKey}}{{$k}}={{$v.Label}} {{$v.Lvl}}
{{end}}{{with .Main}}main {{.Label}} {{.Ref}}{{end}} {{if .None}}none{{else}}no none{{end}}
{{.First.Label}} {{(.First).Lvl}} {{.Best.Ref}} {{.Best.Lvl | printf "%v/%d" .Main.Lvl}} {{.Main.Name | shout}} {{(index .Items 1).Label | printf "%v"}}
{{range .Main.Lvl}}{{.}},{{end}} {{with $x := .Best}}{{$x.Label}}{{end}} {{if and .Main .Items}}both{{end}} {{if not .None}}not none{{end}} {{.Best.Lvl}}
`
	t := template.Must(template.New("o").Funcs(funcs).Parse(src))
	items := []Item{{"pen", 1.5, 0, []string{"a", "b"}, "x"}, {"ink", 2.25, 2, nil, ""}}
	o := Order{ID: 7, Items: items, ByKey: map[string]Item{"z": items[1], "a": items[0]}, Main: &items[1], Best: items[0]}
	if err := t.Execute(os.Stdout, o); err != nil {
		fmt.Println("error:", err)
	}
	if err := t.Execute(os.Stdout, &o); err != nil {
		fmt.Println("error:", err)
	}
	h := htemplate.Must(htemplate.New("h").Parse(`<a href="/{{.Label}}?q={{.Name}}" title="{{.Ref}}">{{.Name}} {{.Lvl}}</a>` + "\n"))
	it := Item{Name: "<x&y>", Lvl: 1}
	h.Execute(os.Stdout, &it)
	h.Execute(os.Stdout, map[string]any{"Name": "m", "Label": "L", "Ref": "r", "Lvl": Level(2)})
	e := template.Must(template.New("e").Parse("{{.note}}\n"))
	fmt.Println(e.Execute(os.Stdout, it))
}
