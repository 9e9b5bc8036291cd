// A comma-ok map index or type assertion that fails gives the zero value,
// also where the variable held another value before: in a loop, defined
// (n, ok := m[k]) or assigned (n, ok = m[k]), in a var declaration, with
// the flag discarded (w, _ := m[k]), and in an if's initial statement.
// At the top level, in a function, a closure, a loop body, a goroutine
// and a deferred call.
package main

import "fmt"

type Point struct{ X, Y int }

type Name string

func (n Name) String() string { return "name " + string(n) }

var m = map[string]int{"a": 1, "c": 3}
var pts = map[string]Point{"a": {1, 2}}
var vals = []any{"x", Name("n"), 2, "y", 3.5}

func lookups(tag string) {
	for _, k := range []string{"a", "b", "c", "d"} {
		n, ok := m[k]
		var p, pok = pts[k]
		w, _ := m[k]
		fmt.Println(tag, k, n, ok, p, pok, w)
	}
	var n int
	var ok bool
	for _, k := range []string{"c", "b"} {
		n, ok = m[k]
		fmt.Println(tag, "assigned", k, n, ok)
	}
	for _, v := range vals {
		s, ok := v.(string)
		f, _ := v.(float64)
		if i, ok := v.(int); ok || i == 0 {
			fmt.Println(tag, "if", i, ok)
		}
		fmt.Println(tag, "assert", s, ok, f)
		st, sok := v.(fmt.Stringer)
		e, _ := v.(error)
		fmt.Println(tag, "iface", st == nil, sok, e == nil)
	}
}

func main() {
	lookups("func")
	func() { lookups("closure") }()
	done := make(chan bool)
	go func() { lookups("goroutine"); done <- true }()
	<-done
	func() {
		defer lookups("deferred")
	}()
	for _, k := range []string{"a", "b", "c", "d"} {
		n, ok := m[k]
		p, pok := pts[k]
		fmt.Println("loop", k, n, ok, p, pok)
	}
	for _, v := range vals {
		s, ok := v.(string)
		fmt.Println("loop assert", s, ok)
	}
}
