// A deferred closure that assigns its iteration's variable: each deferred
// call writes its own.
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
