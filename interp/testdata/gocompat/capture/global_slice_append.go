// Closures in a loop append to a package-level slice and read a
// package-level value, with the loop's variable.
package main

import "fmt"

var (
	scale = 3
	log   []string
)

func record(s string) { log = append(log, s) }

func main() {
	var fs []func()
	for i := 0; i < 3; i++ {
		fs = append(fs, func() { record(fmt.Sprint(i * scale)) })
	}
	scale = 10
	for _, f := range fs {
		f()
	}
	fmt.Println(log)
}
