// Closures handed to compiled code that calls them before it returns
// (sort.Slice, sync.Once.Do, strings.Map), each writing a variable of its
// loop's iteration that the iteration reads afterwards: the evaluation
// loop of a notebook, `tensor.NoGrad(func() { p = ... })`, in plain Go.
package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

func main() {
	words := []string{"pear", "fig", "apple"}
	var out []string
	for round := 0; round < 3; round++ {
		var first string
		var once sync.Once
		once.Do(func() { first = words[round] })
		var n int
		sorted := append([]string(nil), words...)
		sort.Slice(sorted, func(i, j int) bool { n++; return sorted[i] < sorted[j] })
		upper := ""
		_ = strings.Map(func(r rune) rune { upper += string(r - 32); return r }, first)
		out = append(out, fmt.Sprint(round, first, upper, n > 0, sorted))
	}
	for i := 0; i < 3; i++ {
		var p []int
		func(f func()) { f() }(func() { p = append(p, i, i*i) })
		out = append(out, fmt.Sprint(p))
	}
	fmt.Println(strings.Join(out, "\n"))
}
