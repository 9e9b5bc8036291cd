// A package-level counter and mutex, from goroutines in a range loop.
package main

import (
	"fmt"
	"sync"
)

var (
	mu    sync.Mutex
	count = map[string]int{}
)

func main() {
	var wg sync.WaitGroup
	for _, w := range []string{"a", "b", "a", "c", "a"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			count[w]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	fmt.Println(count)
}
