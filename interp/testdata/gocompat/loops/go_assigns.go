// Goroutines whose closure assigns its iteration's variable.
package main

import (
	"fmt"
	"sync"
)

func main() {
	out := make([]int, 4)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := i
			i = -1
			out[k] = k * k
		}()
	}
	wg.Wait()
	fmt.Println(out)
}
