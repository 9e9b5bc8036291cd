// Values of a cell's types with String and Error methods inside fields,
// maps and slices of interface type, printed whole (issue 20, item 3: an
// any field set in a function).
package main

import (
	"errors"
	"fmt"
)

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("<%.1fC>", float64(t)) }

type Box struct {
	Label string
	V     any
}

type Rec struct {
	Name string
	S    fmt.Stringer
	Err  error
}

func fill() (Box, Rec, map[string]any) {
	a := 1
	_ = a
	var b Box
	b.Label = "t"
	b.V = Temp(7)
	r := Rec{"r", Temp(8), errors.New("boom")}
	m := map[string]any{"x": Temp(2), "y": []any{Temp(3), 4}}
	return b, r, m
}

func main() {
	b, r, m := fill()
	fmt.Println(b, &b)
	fmt.Printf("%v %+v\n", b, r)
	fmt.Println(m, r.S, r.Err)
	fmt.Println([]Box{b}, map[string]Box{"k": b})
	s := fmt.Sprintf("%s|%v", b.V, []any{b})
	fmt.Println(s)
}
