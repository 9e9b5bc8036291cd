// A closure made in a loop shares its iteration's variables with the
// body: it sees what the body writes to them after the closure was made
// (i++ after fs = append(fs, func() int { return i })), in three-clause
// and range loops, for loop variables and variables the body declares,
// kept for later, deferred, and called by compiled code.
package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

type step struct{ n int }

func deferred() (out string) {
	for i := 0; i < 3; i++ {
		defer func() { out += fmt.Sprint(i, ";") }()
		i += 10
	}
	return "d:"
}

func words() []func() string {
	var fs []func() string
	for _, w := range strings.Fields("a bb ccc") {
		s := w
		fs = append(fs, func() string { return s })
		s = strings.ToUpper(s)
	}
	return fs
}

func main() {
	var fs []func() int
	for i := 0; i < 6; i++ {
		fs = append(fs, func() int { return i })
		i++
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	fmt.Println()
	func() {
		var hs []func() int
		for j := 0; j < 9; j++ {
			hs = append(hs, func() int { return j * 10 })
			j += 2
		}
		for _, h := range hs {
			fmt.Print(h(), " ")
		}
		fmt.Println()
	}()
	fmt.Println(deferred())
	for _, f := range words() {
		fmt.Print(f(), " ")
	}
	fmt.Println()
	var ss []func() step
	for k := range 3 {
		st := step{k}
		ss = append(ss, func() step { return st })
		st.n *= 100
		st = step{st.n + 1}
	}
	for _, f := range ss {
		fmt.Print(f(), " ")
	}
	fmt.Println()
	var once []func()
	var got []int
	for i := 0; i < 4; i++ {
		xs := []int{3, 1, 2}
		less := func(a, b int) bool { return xs[a]*i < xs[b]*i }
		i++
		sort.Slice(xs, less)
		once = append(once, func() { got = append(got, i) })
	}
	var o sync.Once
	for _, f := range once {
		f()
		o.Do(f)
	}
	fmt.Println(got)
	var wg sync.WaitGroup
	res := make([]int, 3)
	for i := 0; i < 3; i++ {
		v := i
		wg.Go(func() { res[i] = v })
		wg.Wait()
		v = -1
	}
	fmt.Println(res)
}
