// Goroutines in nested loops see both loops' variables of their iteration.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var grid [3][4]int
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		for j := 0; j < 4; j++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				grid[i][j] = i*10 + j
			}()
		}
	}
	wg.Wait()
	fmt.Println(grid)
}
