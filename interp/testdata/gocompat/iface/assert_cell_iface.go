// A type assertion to an interface declared in a cell (issue 20, item 4).
package main

import (
	"fmt"
	"math"
)

type Shape interface{ Area() float64 }

type Sq struct{ S float64 }

func (s Sq) Area() float64 { return s.S * s.S }

type Circle struct{ R float64 }

func (c *Circle) Area() float64 { return math.Pi * c.R * c.R }

func main() {
	var a any = Sq{3}
	sh, ok := a.(Shape)
	fmt.Println(ok, sh.Area())
	var c any = Circle{1}
	_, ok = c.(Shape)
	fmt.Println(ok)
	c = &Circle{1}
	if s, ok := c.(Shape); ok {
		fmt.Printf("%.2f\n", s.Area())
	}
	var n any = 3
	_, ok = n.(Shape)
	fmt.Println(ok)
}
