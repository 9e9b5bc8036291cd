// A conversion of a cell's value to an interface with methods, I(v),
// holds the value with its type: a type assertion to the type finds it,
// for a struct and a named basic type, of a cell's interface and of a
// compiled one, wherever the conversion is.
package main

import "fmt"

type Shower interface{ String() string }

type Point struct{ X, Y int }

func (p Point) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

type Level int

func (l Level) String() string { return fmt.Sprintf("L%d", int(l)) }

func check(s Shower) string {
	p, okP := s.(Point)
	l, okL := s.(Level)
	return fmt.Sprint(okP, p, okL, l)
}

func main() {
	a := Shower(Point{1, 2})
	b := Shower(Level(3))
	c := fmt.Stringer(Level(4))
	_, okA := a.(Point)
	_, okB := b.(Level)
	_, okC := c.(Level)
	fmt.Println(okA, okB, okC, a, b, c)
	fmt.Println(check(Shower(Point{5, 6})), check(Shower(Level(7))))
	var shown []Shower
	for i := 0; i < 3; i++ {
		shown = append(shown, Shower(Level(i)))
	}
	for _, s := range shown {
		fmt.Print(check(s), "; ")
	}
	fmt.Println()
	func() {
		defer func() { fmt.Println("deferred", check(Shower(Point{8, 9}))) }()
	}()
}
