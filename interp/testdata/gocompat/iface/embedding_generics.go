// Interfaces over embedded structs, a generic Stack of a cell's
// interface and of a non-struct type, a generic Map, errors.Join, a
// method value, fmt.Sscanf into a cell's type. Split into cells, the
// methods of the generic type come in a cell after the type's, which
// the cell refuses with a message.
//
// gocompat: want-error "the methods of a generic type are declared in the cell that declares the type"
package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

type Animal interface {
	Sound() string
	Name() string
}

type Base struct{ name string }

func (b Base) Name() string { return b.name }

type Dog struct {
	Base
	breed string
}

func (d Dog) Sound() string { return "woof" }

type Cat struct{ Base }

func (c *Cat) Sound() string { return "meow" }

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }
func (s *Stack[T]) Pop() (T, bool) {
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

type Celsius float64

func main() {
	zoo := []Animal{Dog{Base{"rex"}, "lab"}, &Cat{Base{"tom"}}}
	for _, a := range zoo {
		fmt.Println(a.Name(), a.Sound())
	}
	var st Stack[Animal]
	for _, a := range zoo {
		st.Push(a)
	}
	top, _ := st.Pop()
	fmt.Println(top.Name())
	names := Map(zoo, func(a Animal) string { return strings.ToUpper(a.Name()) })
	sort.Strings(names)
	fmt.Println(names)
	temps := Map([]float64{1, 2}, func(f float64) Celsius { return Celsius(f * 10) })
	fmt.Println(temps, fmt.Sprintf("%T", temps[0]))
	var cs Stack[Celsius]
	cs.Push(3)
	c, ok := cs.Pop()
	fmt.Println(c, ok)
	err := errors.Join(errors.New("a"), fmt.Errorf("b: %w", errors.New("c")))
	fmt.Println(err)
	f := zoo[0].Sound
	fmt.Println(f())
	counts := map[string]*int{}
	for _, w := range strings.Fields("a b a c a") {
		if counts[w] == nil {
			counts[w] = new(int)
		}
		*counts[w]++
	}
	fmt.Println(*counts["a"], *counts["c"])
	var x Celsius
	n, _ := fmt.Sscanf("21.5", "%g", &x)
	fmt.Println(n, x)
}
