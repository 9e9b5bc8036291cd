// Constants in loops and closures of goroutines.
package main

import (
	"fmt"
	"sync"
)

const workers = 3

const factor = 2.5

func main() {
	out := make([]float64, workers)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = float64(i) * factor
		}()
	}
	wg.Wait()
	fmt.Println(out)
}
