// Closures kept in a slice that write their iteration's variable, called
// after the loop.
package main

import "fmt"

func main() {
	var incs []func() int
	for i := 0; i < 3; i++ {
		incs = append(incs, func() int { i += 10; return i })
	}
	for _, f := range incs {
		fmt.Print(f(), f(), " ")
	}
	fmt.Println()
}
