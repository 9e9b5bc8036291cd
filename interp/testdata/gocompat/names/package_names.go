// Variables named like the packages a notebook session imports without
// being asked (data, display, nn, optim, tensor): a Go program's names may
// shadow those, or an import of its own (strings), and so may a cell's,
// in its statements, its closures and its functions.
package main

import (
	"fmt"
	"strings"
)

// optim is a package-level variable named like package optim.
var optim = []float64{0.1, 0.01}

// tensor is a type named like package tensor.
type tensor struct{ shape []int }

func (t tensor) String() string { return fmt.Sprint("tensor", t.shape) }

// total sums a parameter named like package data.
func total(data []int) int {
	n := 0
	for _, x := range data {
		n += x
	}
	return n
}

func main() {
	data := []int{1, 2, 3}
	fmt.Println(len(data), data)
	display := func(s string) string { return "<" + s + ">" }
	nn := map[string]int{"layers": 2}
	show := func() {
		fmt.Println(display(fmt.Sprint(data)), nn["layers"], optim)
	}
	show()
	data = append(data, 4)
	nn["layers"]++
	optim = append(optim, 0.001)
	show()
	strings := strings.Repeat("ab", len(data))
	fmt.Println(strings, len(strings))
	t := tensor{shape: []int{2, data[0]}}
	fmt.Println(t)
	var tensor = fmt.Sprintf("%d numbers", len(data))
	fmt.Println(tensor, total(data))
	done := make(chan int)
	go func() {
		done <- total(data) * nn["layers"]
	}()
	fmt.Println(<-done)
}
