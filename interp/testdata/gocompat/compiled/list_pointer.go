// A pointer to a value of a cell's type that is not a struct, kept by a
// compiled container, comes back as a pointer to its underlying type,
// which a type assertion cannot tell from one: the cell warns at the
// call.
//
// gocompat: want-error "container/list's (*List).PushBack keeps a *Celsius, a type declared in a cell, as the interpreter's *float64"
package main

import (
	"container/list"
	"fmt"
)

type Celsius float64

func main() {
	c := Celsius(3)
	l := list.New()
	l.PushBack(&c)
	p, ok := l.Front().Value.(*Celsius)
	fmt.Println(ok, ok && p == &c)
}
