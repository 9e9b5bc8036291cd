// Values of a cell's non-struct types in interfaces made in loops: appended
// to a []any, sent on a channel and received two at a time at the top
// level; each keeps its own value and type (the interpreter's interface
// held the loop's variable, so every value read as the last).
package main

import (
	"fmt"
	"sync"
	"time"
)

type Event struct {
	At   time.Duration
	Name string
}

type Queue struct {
	mu     sync.Mutex
	events []Event
}

func (q *Queue) Push(e Event) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.events = append(q.events, e)
}

type Status uint8

const (
	Idle Status = iota + 1
	Busy
)

func main() {
	var q Queue
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q.Push(Event{time.Duration(i) * time.Millisecond, fmt.Sprint("e", i)})
		}()
	}
	wg.Wait()
	fmt.Println(len(q.events))
	st := map[string]Status{"a": Idle, "b": Busy}
	var vals []any
	for _, k := range []string{"a", "b"} {
		vals = append(vals, st[k])
	}
	fmt.Println(vals...)
	fmt.Printf("%T %v\n", vals[0], vals[1])
	switch v := vals[1].(type) {
	case Status:
		fmt.Println("status", v == Busy)
	case uint8:
		fmt.Println("uint8")
	}
	ch := make(chan any, 2)
	ch <- Idle
	ch <- uint8(1)
	a, b := <-ch, <-ch
	fmt.Println(a == b, a == any(Idle))
}
