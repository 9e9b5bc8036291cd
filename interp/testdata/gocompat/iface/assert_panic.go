// A failed assertion to a cell interface panics with Go's message.
package main

import "fmt"

type Shape interface{ Area() float64 }

type Sq struct{ S float64 }

func (s Sq) Area() float64 { return s.S * s.S }

func main() {
	defer func() { fmt.Println("recovered:", recover() != nil) }()
	var a any = Sq{2}
	fmt.Println(a.(Shape).Area())
	var b any = "x"
	fmt.Println(b.(Shape).Area())
}
