// A deferred closure that assigns its iteration's variable: the
// interpreter cannot give each deferred call its own.
//
// gocompat: want-error "a deferred function literal in a loop writes i"
package main

import "fmt"

func main() {
	s := ""
	func() {
		for i := 0; i < 3; i++ {
			defer func() {
				i *= 10
				s += fmt.Sprint(i, " ")
			}()
		}
	}()
	fmt.Println(s)
}
