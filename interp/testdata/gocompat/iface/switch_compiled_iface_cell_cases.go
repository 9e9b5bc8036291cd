// A type switch over a compiled interface with methods (fmt.Stringer,
// error) whose cases are a cell's types selects the case of the value's
// dynamic type: with and without a bound variable, a case of several
// types, nil and default cases, values made into the interface by a
// conversion, an argument, append, a composite literal and a map. At the
// top level, in a function, a closure, a loop body, a goroutine and a
// deferred call.
package main

import (
	"errors"
	"fmt"
)

type Point struct{ X, Y int }

func (p Point) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

type Level int

func (l Level) String() string { return fmt.Sprintf("level%d", int(l)) }

type Code struct{ N int }

func (c *Code) Error() string { return fmt.Sprint("code ", c.N) }

type other struct{}

func (other) String() string { return "other" }

func kind(s fmt.Stringer) string {
	switch v := s.(type) {
	case Point:
		return fmt.Sprint("point ", v.X+v.Y)
	case *Point:
		return fmt.Sprint("*point ", v.Y)
	case Level, nil:
		return fmt.Sprint("level or nil ", v)
	default:
		return "default " + v.String()
	}
}

func errKind(err error) string {
	switch e := err.(type) {
	case *Code:
		return fmt.Sprint("code ", e.N)
	case nil:
		return "nil"
	}
	return "other: " + err.Error()
}

func letters(ss []fmt.Stringer) string {
	b := ""
	for _, s := range ss {
		switch s.(type) {
		case Level:
			b += "L"
		case Point:
			b += "P"
		case *Point:
			b += "*"
		default:
			b += "?"
		}
	}
	return b
}

func run(tag string) {
	fmt.Println(tag, kind(Point{1, 2}), kind(&Point{3, 4}), kind(Level(3)), kind(nil), kind(other{}))
	var ss []fmt.Stringer
	for i := range 3 {
		ss = append(ss, Level(i), Point{i, i})
	}
	ss = append(ss, &Point{5, 5}, other{})
	lit := []fmt.Stringer{Point{7, 7}, Level(7), &Point{8, 8}}
	m := map[string]fmt.Stringer{"p": Point{9, 9}, "l": Level(9)}
	fmt.Println(tag, letters(ss), letters(lit), kind(m["p"]), kind(m["l"]))
	var s fmt.Stringer = Point{2, 3}
	fmt.Println(tag, kind(s), kind(ss[1]), kind(lit[2]))
	fmt.Println(tag, errKind(&Code{4}), errKind(nil), errKind(errors.New("plain")), errKind(fmt.Errorf("w: %w", &Code{5})))
}

func main() {
	run("func")
	func() { run("closure") }()
	done := make(chan bool)
	go func() { run("goroutine"); done <- true }()
	<-done
	func() {
		defer run("deferred")
	}()
	for i := range 2 {
		run(fmt.Sprint("loop", i))
	}
}
