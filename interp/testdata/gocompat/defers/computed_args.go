// A deferred call's arguments are evaluated at the defer statement, also
// when one is itself a call, an operation, a conversion, a composite
// literal, an address, a field, an element or a dereferenced pointer,
// and the statement runs in a loop: each deferred call gets its own
// iteration's values. In functions, methods, closures, goroutines and
// deferred function literals with arguments.
package main

import (
	"fmt"
	"strings"
	"sync"
)

type tracker struct{ log []string }

func (t *tracker) note(s string) { t.log = append(t.log, s) }

type Level int

func (l Level) String() string { return strings.Repeat("*", int(l)) }

type point struct{ X, Y int }

func (t *tracker) run(n int) {
	for i := 0; i < n; i++ {
		defer t.note(fmt.Sprint("step", i))
	}
}

func show(prefix string, vals ...any) { fmt.Println(append([]any{prefix}, vals...)...) }

func kinds() {
	for i := 0; i < 3; i++ {
		defer fmt.Println("arith", i*2, -i, i%2 == 0)
		defer fmt.Println("conv", float64(i)/2, Level(i), string(rune('a'+i)))
		defer fmt.Println("lit", point{i, i}, []int{i}, map[string]int{"k": i}, [1]int{i})
		defer show("variadic", i, strings.Repeat("x", i))
		p := &point{i, 0}
		defer fmt.Println("ptr", *p, p.X)
		p.X = 100
	}
}

func fields() {
	pt := point{1, 2}
	s := []int{1, 2}
	m := map[string]int{"a": 1}
	pp := &point{3, 4}
	defer fmt.Println("fields", pt.X, s[0], m["a"], pp.Y, *pp, s[1:])
	pt.X, s[0], m["a"], pp.Y = 9, 9, 9, 9
}

func literals() (out string) {
	for _, w := range []string{"a", "b", "c"} {
		defer func(s string, n int) { out += fmt.Sprint(s, n, " ") }(strings.ToUpper(w), len(w+w))
	}
	return ""
}

func main() {
	t := &tracker{}
	t.run(3)
	fmt.Println(t.log)
	kinds()
	fields()
	fmt.Println(literals())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 2 {
			defer fmt.Println("goroutine", fmt.Sprint(i), Level(i+1))
		}
	}()
	wg.Wait()
	func() {
		levels := []Level{1, 2, 3}
		for i := range levels {
			defer fmt.Printf("%v %d|", levels[i], levels[i])
			levels[i] = 0
		}
	}()
	fmt.Println()
}
