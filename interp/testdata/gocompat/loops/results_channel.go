// Workers started in a loop send results tagged with their index; the
// collector orders them.
package main

import "fmt"

type result struct {
	idx int
	val string
}

func main() {
	jobs := []string{"x", "yy", "zzz", "w"}
	ch := make(chan result)
	for i, j := range jobs {
		go func() { ch <- result{i, fmt.Sprint(j, len(j))} }()
	}
	out := make([]string, len(jobs))
	for range jobs {
		r := <-ch
		out[r.idx] = r.val
	}
	fmt.Println(out)
}
