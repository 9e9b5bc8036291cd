// Goroutines and deferred calls in a loop of a method.
package main

import (
	"fmt"
	"sync"
)

type pool struct {
	n    int
	seen []int
	mu   sync.Mutex
}

func (p *pool) run() {
	var wg sync.WaitGroup
	for i := 0; i < p.n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.mu.Lock()
			p.seen[i]++
			p.mu.Unlock()
		}()
	}
	wg.Wait()
}

func (p *pool) order() (s string) {
	for i := 0; i < p.n; i++ {
		defer func() { s += fmt.Sprint(i) }()
	}
	return ""
}

func main() {
	p := &pool{n: 5, seen: make([]int, 5)}
	p.run()
	fmt.Println(p.seen, p.order())
}
