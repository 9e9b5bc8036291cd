// A generic parallel map: goroutines in a loop of an instance.
package main

import (
	"fmt"
	"strings"
	"sync"
)

func ParMap[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, len(xs))
	var wg sync.WaitGroup
	for i, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = f(x)
		}()
	}
	wg.Wait()
	return out
}

func main() {
	fmt.Println(ParMap([]int{1, 2, 3}, func(x int) int { return x * x }))
	fmt.Println(ParMap([]string{"a", "b"}, strings.ToUpper))
}
