// Closures in a loop through a package-level pointer and a method value.
package main

import "fmt"

type Acc struct{ total int }

func (a *Acc) Add(n int) { a.total += n }

var acc = &Acc{}

func main() {
	var fs []func()
	for i := 1; i <= 4; i++ {
		add := acc.Add
		fs = append(fs, func() { add(i) })
	}
	for _, f := range fs {
		f()
	}
	for i := 0; i < 3; i++ {
		func() { acc.total *= 2 }()
	}
	fmt.Println(acc.total)
}
