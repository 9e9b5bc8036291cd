// Typed constants with iota and a String method, used by functions and
// goroutines in loops.
package main

import (
	"fmt"
	"sync"
)

type Weekday int

const (
	Sunday Weekday = iota
	Monday
	Tuesday
)

const prefix = "day:"

func (d Weekday) String() string {
	return prefix + [...]string{"Sun", "Mon", "Tue"}[d]
}

func all() []string {
	out := make([]string, 3)
	var wg sync.WaitGroup
	for d := Sunday; d <= Tuesday; d++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[d] = d.String()
		}()
	}
	wg.Wait()
	return out
}

func main() {
	fmt.Println(all(), Monday)
}
