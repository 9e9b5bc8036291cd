// Templates with a cell's map and slice types that have methods: keys
// of a map type, methods of both, range, len and index over them.
package main

import (
	"os"
	"sort"
	"strings"
	"text/template"
)

type Tag string

func (t Tag) Up() string { return strings.ToUpper(string(t)) }

type Counts map[string]int

func (c Counts) Keys() []string {
	var k []string
	for key := range c {
		k = append(k, key)
	}
	sort.Strings(k)
	return k
}

type Tags []Tag

func (t Tags) Joined() string {
	var s []string
	for _, x := range t {
		s = append(s, string(x))
	}
	return strings.Join(s, "+")
}

type Doc struct {
	C    Counts
	T    Tags
	ByID map[string]Tags
}

func main() {
	d := Doc{Counts{"b": 2, "a": 1}, Tags{"x", "yz"}, map[string]Tags{"k": {"p"}}}
	t := template.Must(template.New("m").Parse(`{{.C.a}} {{.C.b}} {{.C.zz}} {{.C.Keys}} {{range $k, $v := .C}}{{$k}}{{$v}} {{end}}{{len .C}}
{{.T.Joined}} {{range .T}}{{.Up}} {{end}}{{len .T}} {{(index .T 1).Up}} {{index .T 0}} {{.ByID.k.Joined}} {{range .ByID}}{{.Joined}}{{end}}
`))
	if err := t.Execute(os.Stdout, d); err != nil {
		os.Stdout.WriteString(err.Error() + "\n")
	}
}
