// %T of functions whose signatures have a cell's types, and %#v and %+v
// of a cell's structs nested in fields, elements, map values, pointers
// and interfaces, at the top and inside functions (issue 30, family 7):
// Go's names of the types and fields, not the interpreter's unnamed
// struct types.
package main

import (
	"fmt"
	"strings"
)

type Metric struct {
	Name  string
	Value float64
}

type Inner struct {
	A int
	b string
}

type ID int

type Outer struct {
	In  Inner
	Ins []Inner
	P   *Inner
	M   map[ID]Inner
	Arr [1]Inner
	Any any
	IDs []ID
}

type Level int

func (l Level) String() string { return [...]string{"lo", "hi"}[l] }

type Tagged struct {
	L  Level
	In Inner
}

type Pair[K comparable, V any] struct {
	Key K
	Val V
}

func score(m Metric) float64 { return m.Value }

func describe(v any) string { return fmt.Sprintf("%#v|%+v|%v", v, v, v) }

func main() {
	fmt.Printf("%T\n", score)
	fmt.Printf("%T\n", func(ms []Metric, id ID) (*Metric, error) { return nil, nil })
	f := func(i Inner, more ...Inner) Outer { return Outer{} }
	fmt.Printf("%T|%T\n", f, describe)
	var g func(map[ID]Metric) []ID
	fmt.Printf("%T %v\n", g, g == nil)
	fmt.Printf("%T %T\n", struct{ X Inner }{}, []struct{ M *Metric }{})
	o := Outer{In: Inner{1, "x"}, Ins: []Inner{{2, "y"}}, M: map[ID]Inner{3: {3, "z"}},
		Arr: [1]Inner{{4, "w"}}, Any: Inner{5, "v"}, IDs: []ID{6}}
	fmt.Printf("%#v\n", o)
	fmt.Printf("%+v\n", o)
	fmt.Printf("%v\n", o)
	fmt.Printf("%#v %#v\n", []Inner{{1, "a"}}, map[ID]Inner{1: {1, "a"}})
	fmt.Printf("%#v\n", &o.In)
	fmt.Println(fmt.Sprintf("%#v", [2]Metric{{"a", 1}}))
	var a any = o
	fmt.Printf("%#v\n", a)
	fmt.Println(describe(Inner{7, "q"}), describe(&Inner{8, "r"}))
	fmt.Println(describe([]any{Inner{9, "s"}, Metric{"m", 2}, ID(3)}))
	fmt.Printf("%#v\n", struct{ X Inner }{Inner{7, "q"}})
	fmt.Printf("%#v %+v\n", Tagged{1, Inner{2, "t"}}, Tagged{0, Inner{3, "u"}})
	fmt.Printf("%#v\n", Pair[string, int]{"k", 5})
	var sb strings.Builder
	func() {
		fmt.Fprintf(&sb, "%#v;%T", []Metric{{"x", 1}}, func(Metric) {})
	}()
	fmt.Println(sb.String())
	for _, m := range []Metric{{"l", 1}} {
		fmt.Printf("%#v %T\n", m, m)
	}
}
