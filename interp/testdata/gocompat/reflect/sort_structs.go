// sort.Slice, sort.SliceStable, sort.Sort and container/heap with a
// cell's struct types: a priority queue of pointers that keeps each
// item's index, as container/heap's example does.
package main

import (
	"container/heap"
	"fmt"
	"sort"
)

type Person struct {
	Name string
	Age  int
}

type ByAge []Person

func (a ByAge) Len() int           { return len(a) }
func (a ByAge) Swap(i, j int)      { a[i], a[j] = a[j], a[i] }
func (a ByAge) Less(i, j int) bool { return a[i].Age < a[j].Age }

type Item struct {
	value    string
	priority int
	index    int
}

type PQ []*Item

func (pq PQ) Len() int { return len(pq) }
func (pq PQ) Less(i, j int) bool {
	return pq[i].priority > pq[j].priority
}
func (pq PQ) Swap(i, j int) {
	pq[i], pq[j] = pq[j], pq[i]
	pq[i].index = i
	pq[j].index = j
}
func (pq *PQ) Push(x any) {
	item := x.(*Item)
	item.index = len(*pq)
	*pq = append(*pq, item)
}
func (pq *PQ) Pop() any {
	old := *pq
	n := len(old)
	item := old[n-1]
	old[n-1] = nil
	item.index = -1
	*pq = old[0 : n-1]
	return item
}

func main() {
	people := []Person{{"Alice", 30}, {"Bob", 25}, {"Carol", 35}, {"Dan", 25}}
	sort.Sort(ByAge(people))
	fmt.Println(people)
	sort.Slice(people, func(i, j int) bool { return people[i].Name > people[j].Name })
	fmt.Println(people)
	sort.SliceStable(people, func(i, j int) bool { return people[i].Age < people[j].Age })
	fmt.Println(people, sort.IsSorted(ByAge(people)))
	i := sort.Search(len(people), func(i int) bool { return people[i].Age >= 30 })
	fmt.Println(i, people[i].Name)
	sort.Stable(sort.Reverse(ByAge(people)))
	fmt.Println(people)

	items := map[string]int{"banana": 3, "apple": 2, "pear": 4}
	pq := make(PQ, 0)
	heap.Init(&pq)
	for _, name := range []string{"banana", "apple", "pear"} {
		heap.Push(&pq, &Item{value: name, priority: items[name]})
	}
	orange := &Item{value: "orange", priority: 1}
	heap.Push(&pq, orange)
	orange.priority = 5
	heap.Fix(&pq, orange.index)
	for pq.Len() > 0 {
		item := heap.Pop(&pq).(*Item)
		fmt.Printf("%.2d:%s ", item.priority, item.value)
	}
	fmt.Println()
}
