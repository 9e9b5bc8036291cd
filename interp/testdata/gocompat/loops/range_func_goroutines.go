// Goroutines started in the body of a range over a function, and over an
// integer.
package main

import (
	"fmt"
	"sync"
)

func count(n int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func main() {
	a := make([]int, 4)
	b := make([]int, 4)
	var wg sync.WaitGroup
	for v := range count(4) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a[v] = v + 1
		}()
	}
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b[i] = 10 * i
		}()
	}
	wg.Wait()
	fmt.Println(a, b)
}
