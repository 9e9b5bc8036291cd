// A value of an interface declared here, assigned to a compiled interface
// (fmt.Stringer, error), keeps its dynamic type: type assertions to the
// type find it (a struct, a named int, a pointer, a compiled type), and
// to another type do not; a nil one is nil; errors.As finds a cell's
// error through one. In a function, a closure, a loop, a goroutine and a
// deferred call, as an argument, a result and a container's element. A
// cell's struct asserted from an any to a compiled interface keeps its
// type too.
package main

import (
	"errors"
	"fmt"
)

type Shower interface {
	String() string
	Show() string
}

type Point struct{ X, Y int }

func (p Point) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }
func (p Point) Show() string   { return "point " + p.String() }

type Level int

func (l Level) String() string { return fmt.Sprintf("L%d", int(l)) }
func (l Level) Show() string   { return "level " + l.String() }

type Box struct{ W int }

func (b *Box) String() string { return fmt.Sprintf("box%d", b.W) }
func (b *Box) Show() string   { return "box" }

type Pt [2]int

func (p Pt) String() string { return fmt.Sprintf("pt%d", p[0]) }
func (p Pt) Show() string   { return "pt" }

type CodeError interface {
	error
	Code() int
}

type NotFound struct{ Name string }

func (e NotFound) Error() string { return e.Name + " not found" }
func (e NotFound) Code() int     { return 404 }

func kind(s fmt.Stringer) string {
	if p, ok := s.(Point); ok {
		return fmt.Sprint("Point ", p.X)
	}
	if l, ok := s.(Level); ok {
		return fmt.Sprint("Level ", int(l))
	}
	if b, ok := s.(*Box); ok {
		return fmt.Sprint("*Box ", b.W)
	}
	if p, ok := s.(Pt); ok {
		return fmt.Sprint("Pt ", p[0])
	}
	if s == nil {
		return "nil"
	}
	return "other"
}

func asStringer(i Shower) fmt.Stringer { return i }

func main() {
	var i Shower = Point{1, 2}
	var s fmt.Stringer = i
	_, isPoint := s.(Point)
	_, isLevel := s.(Level)
	var a any = i
	_, viaAny := a.(Point)
	fmt.Println(isPoint, isLevel, viaAny, s, kind(s))

	shown := []Shower{Point{3, 4}, Level(5), &Box{6}, Pt{7, 8}, nil}
	for _, v := range shown {
		fmt.Print(kind(v), "; ")
	}
	fmt.Println()

	var ss []fmt.Stringer
	for _, v := range shown {
		ss = append(ss, v)
	}
	m := map[string]fmt.Stringer{"p": shown[0], "l": shown[1]}
	ch := make(chan fmt.Stringer, 1)
	ch <- shown[2]
	st := struct{ f fmt.Stringer }{shown[3]}
	fmt.Println(kind(ss[0]), kind(ss[1]), kind(ss[4]), kind(m["p"]), kind(m["l"]), kind(<-ch), kind(st.f), ss[4] == nil)

	var none Shower
	var n fmt.Stringer = none
	fmt.Println(n == nil, kind(asStringer(none)), kind(asStringer(Level(9))))

	var ce CodeError = NotFound{"page"}
	var err error = ce
	var nf NotFound
	_, direct := err.(NotFound)
	fmt.Println(err, direct, errors.As(err, &nf), nf.Name, errors.As(fmt.Errorf("wrapped: %w", err), &nf))

	var anyP any = Point{20, 21}
	var anyE any = NotFound{"file"}
	asserted, _ := anyP.(fmt.Stringer)
	var nf2 NotFound
	fmt.Println("asserted", kind(anyP.(fmt.Stringer)), kind(asserted), errors.As(fmt.Errorf("w: %w", anyE.(error)), &nf2), nf2.Name)

	func() {
		j := Shower(Level(10))
		var t fmt.Stringer = j
		j = Point{0, 0}
		fmt.Println("function", kind(t), t)
	}()

	done := make(chan string)
	go func() {
		j := Shower(Point{11, 12})
		t := fmt.Stringer(j)
		done <- kind(t)
	}()
	fmt.Println("goroutine", <-done)

	func() {
		defer func() {
			j := Shower(&Box{13})
			var t fmt.Stringer = j
			fmt.Println("deferred", kind(t), t)
		}()
	}()
}
