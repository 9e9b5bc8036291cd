// A value of a cell's type that is not a struct as a key of a map whose
// keys are interfaces: the interpreter makes each one put in an interface
// a value of its own, which the map does not find again; the cell warns.
// Keys of the cell's type, of its underlying type or of a struct type
// are found.
//
// gocompat: want-error "a Celsius as a key of a map[any]int: the interpreter makes each Celsius it puts in an interface a value of its own"
package main

import "fmt"

type Celsius float64

type Point struct{ X, Y int }

func main() {
	m := map[any]int{}
	m[Celsius(1)] = 1
	m[Point{1, 2}] = 2
	m["s"] = 3
	fmt.Println(m[Celsius(1)], m[Point{1, 2}], m["s"], len(m))
	byC := map[Celsius]int{1: 10}
	fmt.Println(byC[Celsius(1)])
}
