// Templates given a cell's values inside interfaces: a map[string]any
// built before the call, an any field, a []any.
package main

import (
	"fmt"
	"os"
	"text/template"
)

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("%.1fC", float64(t)) }

type City struct {
	Name string
	T    Temp
}

func (c City) Hot() bool { return c.T > 25 }

func (c *City) Label() string { return "[" + c.Name + "]" }

type Page struct {
	Title string
	Extra any
}

func main() {
	cities := []City{{"Oslo", 12}, {"Cairo", 35.5}}
	vals := map[string]any{"Title": "weather", "Cities": cities, "First": cities[0], "Ptr": &cities[1], "N": 3}
	t := template.Must(template.New("w").Parse(`{{.Title}} {{.N}}
{{range .Cities}}{{.Name}} {{.T}} {{if .Hot}}hot{{else}}cold{{end}} {{.Label}}
{{end}}{{.First.Name}} {{.First.Hot}} {{.Ptr.Label}} {{.Ptr.T}}
`))
	if err := t.Execute(os.Stdout, vals); err != nil {
		fmt.Println(err)
	}
	p := Page{"p", City{"Rome", 30}}
	t2 := template.Must(template.New("p").Parse("{{.Title}} {{.Extra.Name}} {{.Extra.Hot}} {{.Extra.T}}\n"))
	if err := t2.Execute(os.Stdout, p); err != nil {
		fmt.Println(err)
	}
	list := []any{City{"A", 1}, "s", 2, &City{"B", 40}}
	t3 := template.Must(template.New("l").Parse("{{range .}}{{printf \"%v\" .}};{{end}}\n"))
	if err := t3.Execute(os.Stdout, list); err != nil {
		fmt.Println(err)
	}
	nested := map[string]any{
		"ByZone": map[int][]City{1: {{"Lima", 19}}, 2: {{"Doha", 41}, {"Nuuk", -5}}},
		"Groups": []any{[]City{{"Rome", 30}}, map[string]*City{"x": {"Kyiv", 8}}},
		"Grid":   [][]float64{{1, 2}},
	}
	t5 := template.Must(template.New("n").Parse("{{range $z, $cs := .ByZone}}{{$z}}:{{range $cs}}{{.Name}} {{.T}} {{.Hot}} {{.Label}};{{end}}{{end}} {{range .Groups}}{{range .}}{{.Label}}{{.Hot}}{{end}}{{end}} {{.Grid}}\n"))
	if err := t5.Execute(os.Stdout, nested); err != nil {
		fmt.Println(err)
	}
	t4 := template.Must(template.New("e").Parse("{{.First.Label}}\n"))
	fmt.Println(t4.Execute(os.Stdout, vals))
}
