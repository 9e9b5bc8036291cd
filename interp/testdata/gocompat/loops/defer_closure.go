// Deferred closures in a loop run last first, each with its own i.
package main

import "fmt"

func main() {
	s := ""
	func() {
		for i := 0; i < 3; i++ {
			defer func() { s += fmt.Sprint(i) }()
		}
	}()
	fmt.Println(s)
}
