// Values of a cell's type with methods kept by the standard library's
// containers (container/list, container/heap, sync.Map, sync/atomic.Value,
// sync.Pool, context.WithValue) come back as the cell's type: type
// switches, assertions and fmt see a Temp, not a float64.
package main

import (
	"container/heap"
	"container/list"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("%.1f°C", float64(t)) }

type Temps []Temp

func (ts Temps) Len() int           { return len(ts) }
func (ts Temps) Less(i, j int) bool { return ts[i] < ts[j] }
func (ts Temps) Swap(i, j int)      { ts[i], ts[j] = ts[j], ts[i] }
func (ts *Temps) Push(x any)        { *ts = append(*ts, x.(Temp)) }
func (ts *Temps) Pop() any {
	old := *ts
	x := old[len(old)-1]
	*ts = old[:len(old)-1]
	return x
}

type ctxKey string

func describe(v any) string {
	switch v := v.(type) {
	case Temp:
		return "Temp " + v.String()
	case Temps:
		return fmt.Sprint("Temps ", len(v))
	case float64:
		return fmt.Sprint("float64 ", v)
	}
	return fmt.Sprintf("other %T", v)
}

func main() {
	l := list.New()
	l.PushBack(Temp(21.5))
	l.PushFront(Temps{1, 2})
	l.InsertAfter(Temp(3), l.Front())
	l.PushBack(2.5)
	for e := l.Front(); e != nil; e = e.Next() {
		fmt.Println(describe(e.Value), e.Value)
	}

	h := &Temps{}
	for _, t := range []Temp{30, 10, 20} {
		heap.Push(h, t)
	}
	heap.Push(h, Temp(5))
	for h.Len() > 0 {
		fmt.Print(heap.Pop(h), " ")
	}
	fmt.Println()

	var m sync.Map
	m.Store("noon", Temp(25))
	m.LoadOrStore("night", Temp(12))
	for _, k := range []string{"noon", "night"} {
		v, ok := m.Load(k)
		fmt.Println(k, describe(v), ok)
	}

	var av atomic.Value
	av.Store(Temp(-4))
	fmt.Println(av.Load(), describe(av.Load()))
	_, isTemp := av.Load().(Temp)
	fmt.Println(isTemp)

	ctx := context.WithValue(context.Background(), ctxKey("t"), Temp(37))
	fmt.Println(ctx.Value(ctxKey("t")), describe(ctx.Value(ctxKey("t"))))

	pool := sync.Pool{New: func() any { return Temp(0) }}
	pool.Put(Temp(8))
	got := pool.Get()
	fmt.Println(describe(got) == "Temp 8.0°C" || describe(got) == "Temp 0.0°C")
}
