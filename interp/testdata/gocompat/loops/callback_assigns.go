// A closure handed to compiled code (sync.WaitGroup.Go) that writes its
// iteration's variable: the interpreter cannot give it its iteration's.
//
// gocompat: want-error "a function literal in a loop handed to compiled code writes i"
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
