// Assignments of several values of which one is an any or nil for an
// interface: swaps, a function's any results, nil, values of cell types
// with String methods, elements and the blank identifier, in a function
// and in main's body (the top level of a cell when split); var
// declarations of several anys.
package main

import "fmt"

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("%.1f°", float64(t)) }

func pick(i int) any {
	if i == 0 {
		return Temp(1.5)
	}
	return i
}

var g1, g2 any = Temp(6), pick(1)

var g3, g4 any

func swap(a, b any) (any, any) {
	a, b = b, a
	return a, b
}

func main() {
	a, b := pick(0), pick(1)
	fmt.Println(a, b)
	a, b = b, a
	fmt.Println(a, b)
	var err error
	a, err = nil, fmt.Errorf("e%d", 1)
	fmt.Println(a, err)
	x, y := swap(Temp(2), "s")
	fmt.Println(x, y)
	s := []any{0, 1, 2}
	i := 0
	i, s[i] = 2, pick(0)
	fmt.Println(i, s)
	s[0], s[2] = s[2], s[0]
	fmt.Println(s)
	_, b = pick(1), Temp(3)
	n, c := 3, any(Temp(4))
	fmt.Println(b, n, c)
	for j, k := any(0), any(1); j.(int) < 3; j, k = k, j.(int)+k.(int) {
		fmt.Print(j, k, " ")
	}
	fmt.Println()
	var p, q any
	var r, t any = Temp(5), pick(1)
	var v, w = pick(0), 2
	fmt.Println(p, q, r, t, v, w)
	fmt.Println(g1, g2, g3, g4)
}
