// go f(i) evaluates i where the go statement is; go func(i int) too.
package main

import (
	"fmt"
	"sort"
)

func send(ch chan<- int, v int) { ch <- v }

func main() {
	ch := make(chan int, 6)
	for i := 0; i < 3; i++ {
		go send(ch, i)
		go func(k int) { ch <- 10 + k }(i)
	}
	var got []int
	for range 6 {
		got = append(got, <-ch)
	}
	sort.Ints(got)
	fmt.Println(got)
}
