// A package-level sync.WaitGroup, Done from goroutines started in a loop.
package main

import (
	"fmt"
	"sync"
)

var wg sync.WaitGroup

var results = make([]int, 4)

func main() {
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = i + 1
		}()
	}
	wg.Wait()
	fmt.Println(results)
}
