// %T of values held in interfaces (issue 20): Go's name of a cell's type,
// struct or not, value or pointer, error or not, in a function that takes
// an any and in a type switch's helper; compiled types and nil as Go
// prints them.
package main

import (
	"errors"
	"fmt"
	"time"
)

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("%.1fC", float64(t)) }

type Point struct{ X, Y int }

type Counter struct{ N int }

func (c *Counter) Inc() { c.N++ }

type NotFound struct{ Key string }

func (e NotFound) Error() string { return e.Key + " not found" }

func describe(v any) string { return fmt.Sprintf("%T(%v)", v, v) }

func main() {
	var a any = Temp(21.5)
	var p any = Point{1, 2}
	fmt.Printf("%T %T %T\n", a, p, Temp(3))
	var err error = NotFound{"k"}
	for _, v := range []any{Temp(1), Point{3, 4}, &Point{5, 6}, &Counter{}, 7, "s", nil, time.Second, err, errors.New("x"), []int{1}} {
		fmt.Println(describe(v))
	}
	fmt.Println(fmt.Sprintf("%T", err))
}
