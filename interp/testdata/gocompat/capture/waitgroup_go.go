// A package-level WaitGroup's Go method with closures of a range loop.
package main

import (
	"fmt"
	"sync"
)

var (
	wg  sync.WaitGroup
	out [5]string
)

func main() {
	for i, s := range []string{"a", "b", "c", "d", "e"} {
		wg.Go(func() { out[i] = s + s })
	}
	wg.Wait()
	fmt.Println(out)
}
