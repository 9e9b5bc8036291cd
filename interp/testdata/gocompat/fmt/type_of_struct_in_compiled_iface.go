// %T of a cell's struct, or a pointer to one, held in a compiled interface
// with methods (fmt.Stringer, error) is its Go type's name: in a variable,
// a slice made by a literal and by append, a map, an error wrapped by %w
// and unwrapped. At the top level, in a function, a closure, a loop body,
// a goroutine and a deferred call.
package main

import (
	"errors"
	"fmt"
)

type Point struct{ X, Y int }

func (p Point) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

type E struct {
	Code int
	Msg  string
}

func (e E) Error() string { return e.Msg }

func show(tag string) {
	var s fmt.Stringer = Point{1, 2}
	fmt.Printf("%s %T %v\n", tag, s, s)
	ss := []fmt.Stringer{Point{1, 2}, &Point{3, 4}}
	ss = append(ss, Point{5, 6})
	for _, x := range ss {
		fmt.Printf("%s %T %v\n", tag, x, x)
	}
	m := map[string]fmt.Stringer{"p": Point{7, 8}}
	fmt.Printf("%s %T\n", tag, m["p"])
	var err error = E{1, "m"}
	fmt.Printf("%s %T %T\n", tag, err, fmt.Errorf("w: %w", err))
	fmt.Printf("%s %T\n", tag, errors.Unwrap(fmt.Errorf("w: %w", err)))
}

func main() {
	show("func")
	func() { show("closure") }()
	done := make(chan bool)
	go func() { show("goroutine"); done <- true }()
	<-done
	func() {
		defer show("deferred")
	}()
	for i := range 2 {
		show(fmt.Sprint("loop", i))
	}
}
