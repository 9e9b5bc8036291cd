// A template that calls a function of its data ({{call .F}}) whose result
// is a cell's type with a String method: the planner gives the result no
// view, so the template prints it without the method; the cell warns at
// the call of Execute.
//
// gocompat: want-error "a template given Page calls its functions ({{call .F}}) without a view of what they return (Temp)"
package main

import (
	"fmt"
	"os"
	"text/template"
)

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("%.1f°C", float64(t)) }

type Page struct {
	Name string
	F    func() Temp
}

func main() {
	t := template.Must(template.New("x").Parse("{{.Name}} {{call .F}}\n"))
	if err := t.Execute(os.Stdout, Page{"noon", func() Temp { return 21.5 }}); err != nil {
		fmt.Println(err)
	}
}
