// A package-level variable, incremented by a closure called in a loop.
package main

import "fmt"

type Tally struct{ N int }

var tally Tally

func main() {
	for i := 0; i < 3; i++ {
		func() { tally.N++ }()
	}
	fmt.Println(tally.N)
}
