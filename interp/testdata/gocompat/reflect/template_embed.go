// Templates with embedded structs: promoted fields and methods, of a
// cell's types and of a compiled one.
package main

import (
	"fmt"
	"os"
	"text/template"
	"time"
)

type Base struct{ ID int }

func (b Base) Ident() string { return fmt.Sprintf("#%d", b.ID) }

func (b *Base) Bump() int { b.ID++; return b.ID }

type User struct {
	Base
	Name string
}

type Event struct {
	time.Time
	*Base
	What string
}

func main() {
	t := template.Must(template.New("e").Parse("{{.Ident}} {{.ID}} {{.Base.ID}} {{.Name}} {{.Bump}} {{.Bump}} {{.ID}}\n"))
	u := &User{Base{7}, "ann"}
	if err := t.Execute(os.Stdout, u); err != nil {
		fmt.Println(err)
	}
	e := Event{time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC), &Base{1}, "x"}
	t2 := template.Must(template.New("v").Parse("{{.Year}} {{.Month}} {{.What}} {{.Ident}} {{.ID}} {{.Format \"2006-01-02\"}}\n"))
	if err := t2.Execute(os.Stdout, e); err != nil {
		fmt.Println(err)
	}
	e.Base = nil
	t3 := template.Must(template.New("n").Parse("{{.What}} {{.ID}}\n"))
	fmt.Println(t3.Execute(os.Stdout, e))
	t4 := template.Must(template.New("m").Parse("{{.What}} {{.Ident}}\n"))
	fmt.Println(t4.Execute(os.Stdout, e))
}
