// Template functions and methods that return a cell's values: a
// FuncMap function returning a value with a String method, the dict
// idiom (a map[string]any built by a function), a method returning a
// pointer and one returning (T, error).
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"text/template"
)

type Money int

func (m Money) String() string { return fmt.Sprintf("$%d.%02d", int(m)/100, int(m)%100) }

type Line struct {
	What  string
	Price Money
}

func (l Line) Twice() Money { return l.Price * 2 }

func (l *Line) Self() *Line { return l }

func (l Line) Next() (Line, error) {
	if l.Price == 0 {
		return Line{}, errors.New("free")
	}
	return Line{l.What + "+", l.Price + 1}, nil
}

func main() {
	funcs := template.FuncMap{
		"money": func(c int) Money { return Money(c) },
		"dict": func(kv ...any) map[string]any {
			m := map[string]any{}
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		},
		"line":  func(w string, c int) Line { return Line{w, Money(c)} },
		"upper": strings.ToUpper,
	}
	funcs["cents"] = func(c int) Money { return Money(c) }
	t := template.Must(template.New("f").Funcs(funcs).Parse(`{{money 1234}} {{cents 5}} {{(line "tea" 250).Twice}} {{with dict "L" (line "pie" 99) "N" 2}}{{.L.What}} {{.L.Price}} {{.N}}{{end}}
{{range .}}{{.Self.What | upper}} {{.Self.Price}} {{.Next.What}} {{.Next.Price}} {{end}}
{{define "sub"}}[{{.What}} {{.Twice}}]{{end}}{{template "sub" (line "jam" 5)}} {{if money 0}}yes{{else}}no{{end}} {{if $m := money 0}}{{else}}{{$m}}{{end}} {{or (money 0) (money 7)}} {{and (money 3) (money 0)}}
`))
	lines := []Line{{"a", 100}, {"b", 5}}
	if err := t.Execute(os.Stdout, lines); err != nil {
		fmt.Println(err)
	}
	err := t.Execute(os.Stdout, []Line{{"z", 0}})
	fmt.Println()
	fmt.Println(err)
}
