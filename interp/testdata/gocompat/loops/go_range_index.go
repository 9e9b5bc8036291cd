// Goroutines started in a range loop each see their own index and value.
package main

import (
	"fmt"
	"sync"
)

func main() {
	words := []string{"a", "bb", "ccc", "dddd"}
	lens := make([]string, len(words))
	var wg sync.WaitGroup
	for i, w := range words {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lens[i] = fmt.Sprint(w, len(w))
		}()
	}
	wg.Wait()
	fmt.Println(lens)
}
