// A labeled continue out of an inner loop, with closures of the outer
// loop's variable.
package main

import "fmt"

func main() {
	var fs []func() int
	var ds []string
	func() {
	outer:
		for i := 0; i < 4; i++ {
			for j := 0; j < 3; j++ {
				if j == 1 && i%2 == 1 {
					continue outer
				}
				if j == 2 {
					break
				}
				defer func() { ds = append(ds, fmt.Sprint(i, j)) }()
			}
			fs = append(fs, func() int { return i })
		}
	}()
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	fmt.Println(ds)
}
