// What the error for a deferred closure that assigns its iteration's
// variable suggests: a copy declared in the literal.
package main

import "fmt"

func main() {
	s := ""
	func() {
		for i := 0; i < 3; i++ {
			defer func() {
				i := i
				i *= 10
				s += fmt.Sprint(i, " ")
			}()
		}
	}()
	fmt.Println(s)
}
