// Go initializes package-level variables before init functions run; in
// a cell without a package clause the variables that its first
// statements declare are initialized before its init functions too.
package main

import "fmt"

var greeting = "hello"

var count = len(greeting)

func init() {
	fmt.Println("init sees", greeting, count)
	count++
}

func main() {
	fmt.Println("main sees", greeting, count)
}
