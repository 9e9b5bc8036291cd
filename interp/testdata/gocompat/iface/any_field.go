// An any field set in a function to a cell type with a String method.
package main

import "fmt"

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("<%.1fC>", float64(t)) }

type Box struct {
	Label string
	V     any
}

func fill() Box {
	a := 1
	_ = a
	var b Box
	b.Label = "t"
	b.V = Temp(7)
	return b
}

func main() {
	b := fill()
	fmt.Println(b.V)
	fmt.Printf("%v %s\n", b.V, b.Label)
	m := map[string]any{"x": Temp(2)}
	fmt.Println(m["x"])
}
