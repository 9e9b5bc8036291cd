// The arguments of a deferred call are evaluated at the defer statement:
// a variable assigned after it, a for loop's variable, a range loop's
// variables. yaegi read them when the call ran.
package main

import "fmt"

func later() {
	x := 1
	defer fmt.Println("deferred x", x)
	x = 2
	fmt.Println("x now", x)
}

func loop() (s string) {
	for i := 0; i < 3; i++ {
		defer func(n int) { s += fmt.Sprint(n) }(i)
	}
	return "r"
}

func ranged() (s string) {
	for _, w := range []string{"a", "b", "c"} {
		defer func(x string) { s += x }(w)
	}
	return "r"
}

func counter() {
	n := 0
	for n < 3 {
		defer fmt.Print(n, " ")
		n++
	}
}

func main() {
	later()
	fmt.Println(loop(), ranged())
	counter()
	fmt.Println()
}
