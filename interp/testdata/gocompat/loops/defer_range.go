// Deferred closures in a range loop, and deferred calls with arguments.
package main

import "fmt"

func trace(xs []string) (log []string) {
	defer func() { log = append(log, "end") }()
	for i, x := range xs {
		defer func() { log = append(log, fmt.Sprint(i, x)) }()
		defer fmt.Sprint(x)
	}
	return nil
}

func main() {
	fmt.Println(trace([]string{"a", "b", "c"}))
}
