// More sort shapes with a cell's types: a struct sorter with pointer
// methods and a comparison function field, sort.Stable, slices.SortFunc
// and slices.BinarySearchFunc with cmp, and a heap of struct values.
package main

import (
	"cmp"
	"container/heap"
	"fmt"
	"slices"
	"sort"
	"strings"
)

type Planet struct {
	Name string
	Mass float64
	Dist float64
}

type planetSorter struct {
	planets []Planet
	by      func(p1, p2 *Planet) bool
}

func (s *planetSorter) Len() int           { return len(s.planets) }
func (s *planetSorter) Swap(i, j int)      { s.planets[i], s.planets[j] = s.planets[j], s.planets[i] }
func (s *planetSorter) Less(i, j int) bool { return s.by(&s.planets[i], &s.planets[j]) }

type By func(p1, p2 *Planet) bool

func (by By) Sort(planets []Planet) {
	ps := &planetSorter{planets: planets, by: by}
	sort.Sort(ps)
}

type Job struct {
	Pri  int
	Name string
}

type Jobs []Job

func (j Jobs) Len() int           { return len(j) }
func (j Jobs) Less(a, b int) bool { return j[a].Pri < j[b].Pri }
func (j Jobs) Swap(a, b int)      { j[a], j[b] = j[b], j[a] }
func (j *Jobs) Push(x any)        { *j = append(*j, x.(Job)) }
func (j *Jobs) Pop() any          { o := *j; n := len(o); x := o[n-1]; *j = o[:n-1]; return x }
func (j Jobs) String() string     { return fmt.Sprint(len(j), " jobs") }

func names(ps []Planet) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.Name)
	}
	return strings.Join(s, ",")
}

func main() {
	planets := []Planet{{"Mercury", 0.055, 0.4}, {"Venus", 0.815, 0.7}, {"Earth", 1.0, 1.0}, {"Mars", 0.107, 1.5}}
	By(func(p1, p2 *Planet) bool { return p1.Mass < p2.Mass }).Sort(planets)
	fmt.Println(names(planets))
	By(func(p1, p2 *Planet) bool { return p1.Dist > p2.Dist }).Sort(planets)
	fmt.Println(names(planets))
	slices.SortFunc(planets, func(a, b Planet) int { return cmp.Compare(a.Name, b.Name) })
	fmt.Println(names(planets))
	i, found := slices.BinarySearchFunc(planets, "Mars", func(p Planet, n string) int { return cmp.Compare(p.Name, n) })
	fmt.Println(i, found)
	jobs := Jobs{{3, "c"}, {1, "a"}, {2, "b"}, {1, "a2"}}
	sort.Stable(jobs)
	fmt.Println(jobs[0].Name, jobs[1].Name, jobs[2].Name, jobs[3].Name)
	h := &Jobs{{5, "e"}, {4, "d"}}
	heap.Init(h)
	heap.Push(h, Job{0, "z"})
	fmt.Println(h.Len(), (*h)[0].Name)
	for h.Len() > 0 {
		fmt.Print(heap.Pop(h).(Job).Name, " ")
	}
	fmt.Println()
	fmt.Println(jobs)
	fmt.Printf("%v %s\n", jobs, jobs)
}
