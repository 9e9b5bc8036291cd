// A parallel map in a function: goroutines write out[i] = x * x.
package main

import (
	"fmt"
	"sync"
)

func squares(xs []int) []int {
	out := make([]int, len(xs))
	var wg sync.WaitGroup
	for i := 0; i < len(xs); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = xs[i] * xs[i]
		}()
	}
	wg.Wait()
	return out
}

func main() {
	fmt.Println(squares([]int{1, 2, 3, 4, 5}))
}
