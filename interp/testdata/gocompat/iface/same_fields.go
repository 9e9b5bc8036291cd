// A struct value of a type that is not the cell's, with the fields of a
// cell's struct type with methods, in an interface (issue 20): the
// interpreter gives both one representation, so assertions and fmt take
// it for the cell's type; the cell warns at the conversion. Values of the
// cell's type, and of other types, are told apart as Go does.
//
// gocompat: want-error "cannot be told from a Sq"
package main

import "fmt"

type Shape interface{ Area() float64 }

type Sq struct{ S float64 }

func (s Sq) Area() float64 { return s.S * s.S }

func (s Sq) String() string { return fmt.Sprintf("Sq(%g)", s.S) }

type Plain struct{ S float64 }

func main() {
	var a any = Sq{2}
	_, isShape := a.(Shape)
	_, isAnon := a.(struct{ S float64 })
	fmt.Println(a, isShape, isAnon)
	var p any = Plain{3}
	_, isSq := p.(Sq)
	fmt.Println(p, isSq)
	var v any = struct{ S float64 }{1}
	_, isSq = v.(Sq)
	fmt.Println(v, isSq)
}
