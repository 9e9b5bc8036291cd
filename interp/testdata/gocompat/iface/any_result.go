// A value of a cell's non-struct type with methods returned from an any
// by an interpreted function (issue 20): printed with its String method,
// asserted back to its type and not to its underlying type, in type
// switches, and handed to other compiled code (encoding/json) as its
// value; and values of the cell's struct types that come back from
// compiled code (container/heap, container/list) still asserted back.
package main

import (
	"container/heap"
	"container/list"
	"encoding/json"
	"fmt"
	"strings"
)

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("<%.1fC>", float64(t)) }

type Job struct {
	Name string
	Pri  int
}

type Queue []Job

func (q Queue) Len() int           { return len(q) }
func (q Queue) Less(i, j int) bool { return q[i].Pri > q[j].Pri }
func (q Queue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *Queue) Push(x any)        { *q = append(*q, x.(Job)) }
func (q *Queue) Pop() any {
	old := *q
	n := len(old)
	x := old[n-1]
	*q = old[:n-1]
	return x
}

func id(v any) any { return v }

func through(v any) any {
	w := v
	return w
}

func kind(v any) string {
	switch x := v.(type) {
	case float64:
		return fmt.Sprint("float64 ", x)
	case Temp:
		return fmt.Sprint("Temp ", x)
	case nil:
		return "nil"
	default:
		return fmt.Sprintf("other %v", x)
	}
}

func main() {
	fmt.Println(id(Temp(2)))
	fmt.Println(through(Temp(3)), fmt.Sprint(id(Temp(4))))
	fmt.Printf("%v|%s\n", id(Temp(5)), id(Temp(6)))
	fmt.Println(strings.ToUpper(fmt.Sprint(id(Temp(7)))))
	t, ok := id(Temp(8)).(Temp)
	fmt.Println(t, ok)
	_, ok = id(Temp(8)).(float64)
	fmt.Println(ok)
	x := id(Temp(9))
	_, ok = x.(float64)
	fmt.Println(ok, x)
	var f any = 2.5
	_, ok = f.(Temp)
	fmt.Println(ok, f.(float64))
	for _, v := range []any{2.5, Temp(1), id(Temp(10)), nil, "s"} {
		fmt.Println(kind(v))
	}
	fmt.Println(kind(id(Temp(11))))
	b, err := json.Marshal(id(Temp(12)))
	fmt.Println(string(b), err)
	func() {
		defer func() { fmt.Println("recovered:", recover()) }()
		fmt.Println(x.(float64))
	}()
	q := &Queue{}
	heap.Push(q, Job{"low", 1})
	heap.Push(q, Job{"high", 9})
	top := heap.Pop(q).(Job)
	fmt.Println(top.Name, top.Pri)
	l := list.New()
	l.PushBack(Job{"listed", 2})
	j, ok := l.Front().Value.(Job)
	fmt.Println(j.Name, ok)
}
