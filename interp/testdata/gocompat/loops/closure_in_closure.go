// Goroutines in a loop inside a function literal.
package main

import (
	"fmt"
	"sync"
)

func main() {
	parallel := func(n int, f func(int)) {
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				f(i)
			}()
		}
		wg.Wait()
	}
	out := make([]int, 4)
	parallel(4, func(i int) { out[i] = i * i })
	fmt.Println(out)
}
