// sync.WaitGroup.Go with a closure of the loop's variables.
package main

import (
	"fmt"
	"sync"
)

func main() {
	out := make([]int, 6)
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() { out[i] = i * 10 })
	}
	wg.Wait()
	fmt.Println(out)
}
