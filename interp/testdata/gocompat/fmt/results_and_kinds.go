// Results of goroutines over a channel of structs, an enum with a String
// method as map keys and struct fields; a map keyed by it, unnamed, made
// into an interface, prints without the method, and the cell warns.
//
// gocompat: want-error "a map[Kind][]int made into an interface prints without the fmt methods of Kind"
package main

import (
	"fmt"
	"sync"
)

type Result struct {
	ID  int
	Val float64
	Err error
}

type Job func() (float64, error)

type Kind int

const (
	Small Kind = iota
	Large
)

func (k Kind) String() string {
	switch k {
	case Small:
		return "small"
	case Large:
		return "large"
	}
	return "?"
}

func main() {
	jobs := []Job{
		func() (float64, error) { return 1, nil },
		func() (float64, error) { return 0, fmt.Errorf("job failed") },
		func() (float64, error) { return 3, nil },
	}
	results := make(chan Result, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := j()
			results <- Result{i, v, err}
		}()
	}
	wg.Wait()
	close(results)
	got := make([]Result, len(jobs))
	for r := range results {
		got[r.ID] = r
	}
	for _, r := range got {
		fmt.Printf("%d %.1f %v\n", r.ID, r.Val, r.Err)
	}
	kinds := map[Kind][]int{}
	for i := range 5 {
		k := Small
		if i > 2 {
			k = Large
		}
		kinds[k] = append(kinds[k], i)
	}
	fmt.Println(kinds)
	fmt.Printf("%v %d %+v\n", Large, Large, Result{1, 2, nil})
	var iface any = kinds
	fmt.Println(iface)
	type pair struct {
		k Kind
		n int
	}
	ps := []pair{{Large, 1}, {Small, 2}}
	fmt.Println(ps, fmt.Sprint(ps[0]))
}
