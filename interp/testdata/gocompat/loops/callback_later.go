// Callbacks kept by compiled code (sort.Slice's less, time.AfterFunc-like
// registration through a slice of funcs passed to a compiled function).
package main

import (
	"fmt"
	"sort"
	"strings"
)

func main() {
	var fs []func() string
	for i := 0; i < 3; i++ {
		fs = append(fs, func() string { return strings.Repeat("*", i) })
	}
	xs := []int{3, 1, 2}
	for k := 0; k < 2; k++ {
		sort.Slice(xs, func(a, b int) bool {
			if k == 0 {
				return xs[a] < xs[b]
			}
			return xs[a] > xs[b]
		})
		fmt.Println(xs)
	}
	for _, f := range fs {
		fmt.Printf("%q ", f())
	}
	fmt.Println()
}
