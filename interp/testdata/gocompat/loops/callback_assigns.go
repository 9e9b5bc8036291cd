// A closure handed to compiled code (sync.WaitGroup.Go) that writes its
// iteration's variable, after the loop has moved on.
package main

import (
	"fmt"
	"sync"
)

func main() {
	out := make([]int, 4)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Go(func() {
			k := i
			i = -1
			out[k] = k * 3
		})
	}
	wg.Wait()
	fmt.Println(out)
}
