// Everyday values: method values of value and pointer receivers, struct
// and array copies, range over an array (a copy) and a slice, an error
// set by a deferred recover, deferred calls in a loop, labeled loops,
// runes, appends sharing a backing array, fallthrough.
package main

import (
	"errors"
	"fmt"
)

type Counter struct{ n int }

func (c Counter) Value() int { return c.n }
func (c *Counter) Inc()      { c.n++ }

type Grid [2][2]int

type Board struct {
	cells Grid
	name  string
}

type ValidationError struct {
	Field string
	Code  int
}

func (e *ValidationError) Error() string { return fmt.Sprintf("%s: %d", e.Field, e.Code) }

func validate(x int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &ValidationError{"x", x}
		}
	}()
	if x < 0 {
		panic("negative")
	}
	return nil
}

func order() (s string) {
	for i := 0; i < 3; i++ {
		defer func(n int) { s += fmt.Sprint(n) }(i)
	}
	return "r"
}

func main() {
	c := Counter{1}
	f := c.Value
	c.Inc()
	g := c.Inc
	g()
	fmt.Println(f(), c.Value(), c.n)
	b1 := Board{name: "a"}
	b2 := b1
	b2.cells[0][0] = 9
	fmt.Println(b1.cells, b2.cells)
	arr := [3]int{1, 2, 3}
	for i, v := range arr {
		arr[2] = 10
		if i == 2 {
			fmt.Println(v)
		}
	}
	s := []int{1, 2, 3}
	for i, v := range s {
		s[2] = 10
		if i == 2 {
			fmt.Println(v)
		}
	}
	err := validate(-1)
	var ve *ValidationError
	fmt.Println(errors.As(err, &ve), ve.Field, ve.Code, err)
	fmt.Println(order())
outer:
	for i := range 3 {
		for j := range 3 {
			switch {
			case j == 1:
				continue outer
			case i == 2:
				break outer
			}
			fmt.Print(i, j, " ")
		}
	}
	fmt.Println()
	for i, r := range "héllo" {
		if r == 'l' {
			fmt.Println(i)
			break
		}
	}
	m := map[string][]int{}
	base := make([]int, 0, 4)
	m["a"] = append(base, 1)
	m["b"] = append(base, 2)
	fmt.Println(m["a"], m["b"])
	switch x := 2; x {
	case 2:
		fmt.Print("two ")
		fallthrough
	case 3:
		fmt.Println("three")
	}
}
