// Goroutines started in a three-clause loop each send their own i.
package main

import (
	"fmt"
	"sort"
)

func main() {
	ch := make(chan int, 3)
	for i := 0; i < 3; i++ {
		go func() { ch <- i }()
	}
	got := []int{<-ch, <-ch, <-ch}
	sort.Ints(got)
	fmt.Println(got)
}
