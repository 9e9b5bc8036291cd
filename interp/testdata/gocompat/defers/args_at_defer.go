// The arguments of a deferred call are evaluated at the defer statement:
// a variable assigned after it, a for loop's variable, a range loop's
// variables, and so is its receiver (a pointer assigned again, a struct
// whose field changes), but for a method that takes the variable's
// address. yaegi read them when the call ran.
package main

import (
	"fmt"
	"strings"
	"sync"
)

type Res struct{ name string }

func (r *Res) Close() { fmt.Println("close", r.name) }

type Val struct{ n int }

func (v Val) Show()  { fmt.Println("show", v.n) }
func (v *Val) Bump() { v.n++ }

func receivers() {
	r := &Res{"a"}
	defer r.Close()
	r = &Res{"b"}
	defer r.Close()
	v := Val{1}
	defer v.Show()
	v.n = 2
	w := Val{10}
	defer w.Show()
	w.Bump()
	var wg sync.WaitGroup
	wg.Add(1)
	func() {
		defer wg.Done()
	}()
	wg.Wait()
	var b strings.Builder
	defer fmt.Println("len", b.Len())
	b.WriteString("xyz")
}

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
	receivers()
}
