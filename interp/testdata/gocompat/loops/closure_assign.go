// A closure that assigns the loop variable changes that iteration's copy;
// the loop goes on from it.
package main

import "fmt"

func main() {
	var fs []func()
	for i := 0; i < 6; i++ {
		fs = append(fs, func() { i += 100 })
		if i%2 == 0 {
			fs[len(fs)-1]()
		}
		fmt.Print(i, " ")
	}
	fmt.Println()
}
