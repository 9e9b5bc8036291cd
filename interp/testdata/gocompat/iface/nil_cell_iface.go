// A variable of an interface declared in a cell, declared without a value
// (issue 20): nil, as in Go, also when its cell's statements declare it
// (yaegi's zero value of such an interface was not nil), until assigned;
// compared with an any and with another of its values as Go compares.
package main

import "fmt"

type Shape interface{ Area() float64 }

type Sq struct{ S float64 }

func (s Sq) Area() float64 { return s.S * s.S }

func main() {
	var sh Shape
	fmt.Println(sh == nil, sh != nil)
	var a, b Shape
	fmt.Println(a == nil, b == nil)
	if sh == nil {
		sh = Sq{3}
	}
	fmt.Println(sh == nil, sh.Area())
	var lit interface{ Area() float64 }
	fmt.Println(lit == nil)
	var none Shape
	var e any
	fmt.Println(e == none, none == nil)
	var s2 Shape = Sq{3}
	var a3 any = Sq{3}
	fmt.Println(sh == s2, s2 == a3, s2 == Sq{4}, none == s2)
	switch none.(type) {
	case nil:
		fmt.Println("nil")
	case Shape:
		fmt.Println("a shape")
	}
}
