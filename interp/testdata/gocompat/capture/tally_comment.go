// The same, with comment lines above the loop: the text's place must not
// matter.
package main

import "fmt"

type Tally struct{ N int }

var tally Tally

func main() {
	// A comment line.
	// And another, to move the loop further down than tally's declaration.
	//
	//
	for i := 0; i < 3; i++ {
		func() { tally.N++ }()
	}
	fmt.Println(tally.N)
}
