// Goroutines see a variable their loop body declares, and the loop's.
package main

import (
	"fmt"
	"sync"
)

func main() {
	res := make([]string, 3)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		name := string(rune('x' + i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = name
		}()
	}
	wg.Wait()
	fmt.Println(res)
}
