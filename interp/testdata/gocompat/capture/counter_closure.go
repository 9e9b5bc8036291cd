// A counter made by a function declared apart, called from goroutines and
// deferred calls in a loop.
package main

import (
	"fmt"
	"sync"
)

func counter() (func(int), func() int) {
	var mu sync.Mutex
	n := 0
	return func(d int) { mu.Lock(); n += d; mu.Unlock() }, func() int { return n }
}

var add, get = counter()

func main() {
	var wg sync.WaitGroup
	for i := 1; i <= 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			add(i)
		}()
	}
	wg.Wait()
	func() {
		for i := 0; i < 3; i++ {
			defer func() { add(i * 100) }()
		}
	}()
	fmt.Println(get())
}
