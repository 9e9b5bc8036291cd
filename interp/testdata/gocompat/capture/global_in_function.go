// A function declared apart uses a package-level struct from a loop of
// goroutines and deferred calls.
package main

import (
	"fmt"
	"sync"
)

type Stats struct {
	mu    sync.Mutex
	Sum   int
	Order []int
}

var stats Stats

func collect(n int) {
	var wg sync.WaitGroup
	for i := 1; i <= n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stats.mu.Lock()
			stats.Sum += i
			stats.mu.Unlock()
		}()
	}
	wg.Wait()
	for i := 1; i <= n; i++ {
		defer func() { stats.Order = append(stats.Order, i) }()
	}
}

func main() {
	collect(4)
	fmt.Println(stats.Sum, stats.Order)
}
