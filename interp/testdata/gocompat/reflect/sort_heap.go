// sort.Interface and container/heap on cell types.
package main

import (
	"container/heap"
	"fmt"
	"sort"
)

type byLen []string

func (s byLen) Len() int           { return len(s) }
func (s byLen) Less(i, j int) bool { return len(s[i]) < len(s[j]) }
func (s byLen) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }

type IntHeap []int

func (h IntHeap) Len() int           { return len(h) }
func (h IntHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h IntHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *IntHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *IntHeap) Pop() any {
	old := *h
	n := len(old)
	x := old[n-1]
	*h = old[:n-1]
	return x
}

func main() {
	s := []string{"ccc", "a", "bb"}
	sort.Sort(byLen(s))
	fmt.Println(s)
	sort.Sort(sort.Reverse(byLen(s)))
	fmt.Println(s, sort.IsSorted(byLen(s)))
	h := &IntHeap{5, 2, 8}
	heap.Init(h)
	heap.Push(h, 3)
	for h.Len() > 0 {
		fmt.Print(heap.Pop(h), " ")
	}
	fmt.Println()
}
