// A value of a cell type with a String method, made into an interface
// inside a function (issue 20, item 3).
package main

import "fmt"

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("<%.1fC>", float64(t)) }

func describe(v any) string { return fmt.Sprint(v) }

func report() string {
	n := 2
	_ = n
	var t Temp = 21.5
	return describe(t)
}

func main() {
	fmt.Println(report())
}
