// A type may declare several methods named _, which no code can call,
// beside its other methods; a struct may have a blank field.
package main

import "fmt"

type T struct {
	_ int
	N int
}

func (T) _() {}

func (T) _() {}

func (t T) double() int { return 2 * t.N }

type I interface{ double() int }

func main() {
	var i I = T{N: 21}
	fmt.Println(i.double(), T{N: 2})
}
