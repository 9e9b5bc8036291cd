package monotest

// A program is a notebook's cells: each either declarations (with
// imports) or statements. As a Go program (see goProgram), the
// declarations are package-level and the statements, in order, are
// main's body.
type program struct {
	name  string
	cells []string
	want  string // what go run prints for goProgram(cells)
	// fallback runs it on yaegi's copies of cmp, maps and slices (see
	// plan.StdSource).
	fallback bool
}

var programs = []program{
	{name: "slices on ints", cells: []string{`import ("fmt"; "slices")`, `
xs := []int{5, 2, 8, 2, 9, 1, 5, 5}
slices.Sort(xs)
fmt.Println(xs, slices.IsSorted(xs))
i, found := slices.BinarySearch(xs, 8)
fmt.Println(i, found)
i, found = slices.BinarySearch(xs, 7)
fmt.Println(i, found)
fmt.Println(slices.Index(xs, 9), slices.Index(xs, 4), slices.Contains(xs, 1), slices.Contains(xs, 3))
fmt.Println(slices.Max(xs), slices.Min(xs))
ys := slices.Clone(xs)
fmt.Println(slices.Equal(xs, ys))
ys = slices.Compact(ys)
fmt.Println(ys, len(ys), slices.Equal(xs, ys))
slices.Reverse(ys)
fmt.Println(ys)
ys = slices.Insert(ys, 1, 100, 101)
ys = slices.Delete(ys, 0, 1)
fmt.Println(ys, slices.IndexFunc(ys, func(v int) bool { return v < 5 }))
slices.SortFunc(ys, func(a, b int) int { return b - a })
fmt.Println(ys)
`}, want: "[1 2 2 5 5 5 8 9] true\n6 true\n6 false\n7 -1 true false\n9 1\ntrue\n[1 2 5 8 9] 5 false\n[9 8 5 2 1]\n[100 101 8 5 2 1] 4\n[101 100 8 5 2 1]\n"},
	{name: "slices on a named slice type (interpreted, not the runtime's compiled instances)", cells: []string{`import ("fmt"; "math"; "slices")
type Scores []int
type Temps []float64
`, `
xs := Scores{5, 2, 8, 2, 9, 1, 5, 5, 40, 3, 7, 11, 0, 6}
slices.Sort(xs)
fmt.Println(xs, slices.IsSorted(xs))
i, found := slices.BinarySearch(xs, 8)
fmt.Println(i, found, slices.Index(xs, 9), slices.Contains(xs, 4), slices.Max(xs), slices.Min(xs))
xs = slices.Compact(xs)
slices.Reverse(xs)
fmt.Println(xs, len(xs))
slices.SortFunc(xs, func(a, b int) int { return a%3 - b%3 })
fmt.Println(slices.IsSortedFunc(xs, func(a, b int) int { return a%3 - b%3 }))
ts := Temps{2.5, math.NaN(), -1, math.Inf(-1), 0}
slices.Sort(ts)
fmt.Println(ts, slices.Max(Temps{1, 3, 2}))
`}, want: "[0 1 2 2 3 5 5 5 6 7 8 9 11 40] true\n10 true 11 false 40 0\n[40 11 9 8 7 6 5 3 2 1 0] 11\ntrue\n[NaN -Inf -1 0 2.5] 3\n"},
	{name: "slices on strings and floats", cells: []string{`import ("fmt"; "math"; "slices"; "strings")`, `
ws := strings.Fields("the quick brown fox jumps over the lazy dog")
slices.Sort(ws)
fmt.Println(ws)
ws = slices.Compact(ws)
fmt.Println(len(ws), slices.Index(ws, "fox"), slices.Contains(ws, "cat"), slices.Max(ws))
j, ok := slices.BinarySearch(ws, "lazy")
fmt.Println(j, ok)
slices.SortFunc(ws, func(a, b string) int { return len(a) - len(b) })
fmt.Println(ws[0], ws[len(ws)-1])
slices.SortStableFunc(ws, func(a, b string) int { return strings.Compare(a[:1], b[:1]) })
fmt.Println(ws)
fs := []float64{2.5, -1, math.Inf(1), 0.25, 3}
slices.Sort(fs)
fmt.Println(fs, slices.Min(fs), slices.Max(fs))
fmt.Println(slices.Equal(fs, []float64{-1, 0.25, 2.5, 3, math.Inf(1)}))
slices.Reverse(fs)
fmt.Println(fs)
`}, want: "[brown dog fox jumps lazy over quick the the]\n8 2 false the\n4 true\ndog quick\n[brown dog fox jumps lazy over quick the]\n[-1 0.25 2.5 3 +Inf] -1 +Inf\ntrue\n[+Inf 3 2.5 0.25 -1]\n"},
	{name: "slices of a cell's struct", cells: []string{`import ("cmp"; "fmt"; "slices")
type Person struct {
	Name string
	Age  int
}
`, `
people := []Person{{"Alice", 30}, {"Bob", 25}, {"Carol", 35}, {"Dan", 25}}
slices.SortFunc(people, func(a, b Person) int { return cmp.Compare(a.Age, b.Age) })
fmt.Println(people)
slices.SortStableFunc(people, func(a, b Person) int { return cmp.Compare(b.Name, a.Name) })
fmt.Println(people)
i := slices.IndexFunc(people, func(p Person) bool { return p.Name == "Bob" })
fmt.Println(i, slices.Contains(people, Person{"Dan", 25}), slices.Index(people, Person{"Eve", 1}))
oldest := slices.MaxFunc(people, func(a, b Person) int { return cmp.Compare(a.Age, b.Age) })
fmt.Println(oldest.Name)
k, found := slices.BinarySearchFunc([]Person{{"A", 1}, {"B", 5}, {"C", 9}}, 5, func(p Person, age int) int { return cmp.Compare(p.Age, age) })
fmt.Println(k, found)
fmt.Println(slices.Equal(people, slices.Clone(people)))
`}, want: "[{Bob 25} {Dan 25} {Alice 30} {Carol 35}]\n[{Dan 25} {Carol 35} {Bob 25} {Alice 30}]\n2 true -1\nCarol\n1 true\ntrue\n"},
	{name: "maps with slices.Sorted and Collect", cells: []string{`import ("fmt"; "maps"; "slices")`, `
m := map[string]int{"b": 2, "a": 1, "c": 3}
keys := slices.Sorted(maps.Keys(m))
fmt.Println(keys)
vals := slices.Collect(maps.Values(m))
slices.Sort(vals)
fmt.Println(vals)
n := maps.Clone(m)
fmt.Println(maps.Equal(m, n))
n["d"] = 4
fmt.Println(maps.Equal(m, n), len(n))
maps.DeleteFunc(n, func(k string, v int) bool { return v%2 == 0 })
fmt.Println(slices.Sorted(maps.Keys(n)))
fmt.Println(maps.EqualFunc(m, map[string]int{"a": 10, "b": 20, "c": 30}, func(x, y int) bool { return x*10 == y }))
for _, k := range slices.Sorted(maps.Keys(m)) {
	fmt.Print(k, "=", m[k], " ")
}
fmt.Println()
`}, want: "[a b c]\n[1 2 3]\ntrue\nfalse 4\n[a c]\ntrue\na=1 b=2 c=3 \n"},
	{name: "cmp", cells: []string{`import ("cmp"; "fmt"; "math")`, `
fmt.Println(cmp.Compare(1, 2), cmp.Compare("b", "a"), cmp.Compare(2.5, 2.5))
fmt.Println(cmp.Compare(math.NaN(), 1.0), cmp.Less(1, 2), cmp.Less("b", "a"))
fmt.Println(cmp.Or(0, 0, 3, 4), cmp.Or("", "x"))
`}, want: "-1 1 0\n-1 true false\n3 x\n"},
	{name: "errors.AsType", cells: []string{`import ("errors"; "fmt")
type NotFound struct{ Key string }
func (e *NotFound) Error() string { return "not found: " + e.Key }
`, `
var err error = &NotFound{"k1"}
if nf, ok := errors.AsType[*NotFound](err); ok {
	fmt.Println("direct", nf.Key)
}
wrapped := fmt.Errorf("lookup: %w", &NotFound{"k2"})
nf, ok := errors.AsType[*NotFound](wrapped)
fmt.Println(ok, nf != nil && nf.Key == "k2", wrapped)
_, ok = errors.AsType[*NotFound](errors.New("other"))
fmt.Println(ok)
`}, want: "direct k1\ntrue true lookup: not found: k2\nfalse\n"},
	{name: "atomic.Pointer and atomic.Int64", cells: []string{`import ("fmt"; "sync"; "sync/atomic")
type Config struct{ Name string; N int }
`, `
var p atomic.Pointer[Config]
fmt.Println(p.Load() == nil)
p.Store(&Config{"a", 1})
old := p.Swap(&Config{"b", 2})
fmt.Println(old.Name, p.Load().Name, p.Load().N)
fmt.Println(p.CompareAndSwap(old, &Config{"c", 3}), p.Load().Name)
var n atomic.Int64
var wg sync.WaitGroup
for i := 0; i < 8; i++ {
	wg.Add(1)
	go func() { defer wg.Done(); for j := 0; j < 100; j++ { n.Add(1) } }()
}
wg.Wait()
fmt.Println(n.Load())
var q atomic.Pointer[int]
v := 42
q.Store(&v)
fmt.Println(*q.Load())
`}, want: "true\na b 2\nfalse b\n800\n42\n"},
	{name: "a cell's Map, Filter and Reduce", cells: []string{`import ("fmt"; "strconv")
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}
func Filter[T any](xs []T, keep func(T) bool) []T {
	var out []T
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}
func Reduce[T, A any](xs []T, init A, f func(A, T) A) A {
	acc := init
	for _, x := range xs {
		acc = f(acc, x)
	}
	return acc
}
`, `
nums := []int{1, 2, 3, 4, 5, 6}
strs := Map(nums, func(i int) string { return "#" + strconv.Itoa(i) })
fmt.Println(strs, len(strs))
evens := Filter(nums, func(i int) bool { return i%2 == 0 })
fmt.Println(evens)
sum := Reduce(nums, 0, func(a, i int) int { return a + i })
cat := Reduce(strs, "", func(a string, s string) string { return a + s })
fmt.Println(sum, cat)
lens := Map(Filter(strs, func(s string) bool { return s != "#3" }), func(s string) float64 { return float64(len(s)) / 2 })
fmt.Println(lens)
`}, want: "[#1 #2 #3 #4 #5 #6] 6\n[2 4 6]\n21 #1#2#3#4#5#6\n[1 1 1 1 1]\n"},
	{name: "a generic Stack with methods", cells: []string{`import "fmt"
type Stack[T any] struct {
	items []T
}
func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }
func (s *Stack[T]) Pop() (T, bool) {
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}
func (s *Stack[T]) Len() int { return len(s.items) }
func (s Stack[T]) String() string { return fmt.Sprintf("Stack%v", s.items) }
`, `
var s Stack[int]
s.Push(1)
s.Push(2)
s.Push(3)
fmt.Println(s.Len(), s)
v, ok := s.Pop()
fmt.Println(v, ok, s.Len())
w := &Stack[string]{}
w.Push("x")
x, _ := w.Pop()
_, ok = w.Pop()
fmt.Println(x, ok)
fmt.Printf("%v %s\n", s, w)
`}, want: "3 Stack[1 2 3]\n3 true 2\nx false\nStack[1 2] Stack[]\n"},
	{name: "a constraint with a type set", cells: []string{`import "fmt"
type Number interface {
	~int | ~int64 | ~float64
}
type Celsius float64
func Sum[T Number](xs ...T) T {
	var total T
	for _, x := range xs {
		total += x
	}
	return total
}
type Vec[T Number] struct{ X, Y T }
func (v Vec[T]) Add(w Vec[T]) Vec[T] { return Vec[T]{v.X + w.X, v.Y + w.Y} }
func (v Vec[T]) Dot(w Vec[T]) T { return v.X*w.X + v.Y*w.Y }
`, `
fmt.Println(Sum(1, 2, 3), Sum(1.5, 2.25), Sum[int64]())
c := Sum(Celsius(10), Celsius(5.5))
fmt.Printf("%.1f %T\n", float64(c), float64(c))
a := Vec[int]{1, 2}
b := a.Add(Vec[int]{3, 4})
fmt.Println(b, a.Dot(b))
f := Vec[float64]{0.5, 1}.Add(Vec[float64]{1, 1})
fmt.Println(f.X, f.Y, f.Dot(f))
`}, want: "6 3.75 0\n15.5 float64\n{4 6} 16\n1.5 2 6.25\n"},
	{name: "recursive generic code", cells: []string{`import ("cmp"; "fmt")
func MergeSort[T cmp.Ordered](xs []T) []T {
	if len(xs) <= 1 {
		return xs
	}
	mid := len(xs) / 2
	left, right := MergeSort(xs[:mid]), MergeSort(xs[mid:])
	out := make([]T, 0, len(xs))
	for len(left) > 0 && len(right) > 0 {
		if left[0] <= right[0] {
			out = append(out, left[0])
			left = left[1:]
		} else {
			out = append(out, right[0])
			right = right[1:]
		}
	}
	return append(append(out, left...), right...)
}
type List[T any] struct {
	head T
	tail *List[T]
}
func Cons[T any](v T, l *List[T]) *List[T] { return &List[T]{v, l} }
func (l *List[T]) Len() int {
	if l == nil {
		return 0
	}
	return 1 + l.tail.Len()
}
func Fold[T, A any](l *List[T], acc A, f func(A, T) A) A {
	if l == nil {
		return acc
	}
	return Fold(l.tail, f(acc, l.head), f)
}
`, `
fmt.Println(MergeSort([]int{5, 3, 9, 1, 4}), MergeSort([]string{"b", "c", "a"}))
l := Cons(1, Cons(2, Cons(3, nil)))
fmt.Println(l.Len(), Fold(l, 0, func(a, v int) int { return a*10 + v }))
ls := Cons("x", nil)
fmt.Println(ls.Len(), Fold(ls, "", func(a, v string) string { return a + v + v }))
`}, want: "[1 3 4 5 9] [a b c]\n3 123\n1 xx\n"},
	{name: "range over functions from generic code", cells: []string{`import ("fmt"; "iter"; "maps"; "slices")
func Count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}
func Squares[T ~int | ~float64](seq iter.Seq[T]) iter.Seq[T] {
	return func(yield func(T) bool) {
		for v := range seq {
			if !yield(v * v) {
				return
			}
		}
	}
}
`, `
for v := range slices.Values([]string{"a", "b"}) {
	fmt.Print(v, " ")
}
fmt.Println()
for i, v := range slices.All([]int{7, 8, 9}) {
	if i == 2 {
		break
	}
	fmt.Print(i, ":", v, " ")
}
fmt.Println()
m := map[int]bool{3: true, 1: true, 2: false}
fmt.Println(slices.Sorted(maps.Keys(m)), len(slices.Collect(maps.Keys(m))))
for v := range Squares(Count(5)) {
	fmt.Print(v, " ")
}
fmt.Println()
fmt.Println(slices.Collect(Squares(Count(4))))
for i, v := range slices.Backward([]int{1, 2, 3}) {
	fmt.Print(i, v, ";")
}
fmt.Println()
var seq iter.Seq[int] = slices.Values([]int{4, 5})
total := 0
for v := range seq {
	total += v
}
fmt.Println(total, slices.Collect(slices.Values([]int{1})))
`}, want: "a b \n0:7 1:8 \n[1 2 3] 3\n0 1 4 9 16 \n[0 1 4 9]\n2 3;1 2;0 1;\n9 [1]\n"},
	{name: "generic code across cells", cells: []string{`import ("cmp"; "fmt"; "slices")
type Pair[K comparable, V any] struct {
	Key K
	Val V
}
func (p Pair[K, V]) String() string { return fmt.Sprintf("%v=%v", p.Key, p.Val) }
func SortedPairs[K cmp.Ordered, V any](m map[K]V) []Pair[K, V] {
	var out []Pair[K, V]
	for k, v := range m {
		out = append(out, Pair[K, V]{k, v})
	}
	slices.SortFunc(out, func(a, b Pair[K, V]) int { return cmp.Compare(a.Key, b.Key) })
	return out
}
`, `
ps := SortedPairs(map[string]int{"b": 2, "a": 1})
fmt.Println(ps[0], ps[1], len(ps))
`, `
qs := SortedPairs(map[int]bool{3: true, 1: false})
fmt.Println(qs[0].String(), qs[1].Key, len(ps)+len(qs))
fmt.Println(SortedPairs(map[string]int{"z": 26})[0].Val)
xs := []int{3, 1, 2}
slices.Sort(xs)
fmt.Println(xs)
`, `
ys := []int{9, 8}
slices.Sort(ys)
fmt.Println(ys, slices.Index(ys, 9))
`}, want: "a=1 b=2 2\n1=false 3 4\n26\n[1 2 3]\n[8 9] 1\n"},
	{name: "sync's generic functions and more of slices and maps", cells: []string{`import ("fmt"; "maps"; "slices"; "strings"; "sync")`, `
calls := 0
get := sync.OnceValue(func() int { calls++; return 42 })
fmt.Println(get(), get(), calls)
pair := sync.OnceValues(func() (string, error) { return "v", nil })
v, err := pair()
fmt.Println(v, err)
fmt.Println(slices.Repeat([]string{"ab"}, 3), slices.Concat([]int{1}, []int{2, 3}))
for c := range slices.Chunk([]int{1, 2, 3, 4, 5}, 2) {
	fmt.Print(c, " ")
}
fmt.Println()
m := maps.Collect(maps.All(map[string]int{"x": 1}))
maps.Insert(m, maps.All(map[string]int{"y": 2}))
fmt.Println(len(m), m["y"])
idx := slices.Collect(maps.Keys(map[int]string{7: "s"}))
fmt.Println(idx)
for line := range strings.Lines("one\ntwo\n") {
	fmt.Printf("%q ", line)
}
fmt.Println()
`}, want: "42 42 1\nv <nil>\n[ab ab ab] [1 2 3]\n[1 2] [3 4] [5] \n2 2\n[7]\n\"one\\n\" \"two\\n\" \n"},
	{name: "a cell's iterators, closures and type switches in generic code", cells: []string{`import ("fmt"; "iter")
func Enumerate[T any](xs []T) iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		for i, x := range xs {
			if !yield(i, x) {
				return
			}
		}
	}
}
func Counter[T comparable]() func(T) int {
	seen := map[T]int{}
	return func(x T) int {
		seen[x]++
		return seen[x]
	}
}
func Describe[T any](x T) string {
	switch v := any(x).(type) {
	case int:
		return fmt.Sprint("int ", v+1)
	case string:
		return "string " + v
	default:
		return fmt.Sprintf("other %v", v)
	}
}
type Box[T any] struct{ V T }
func (b *Box[T]) Set(v T) { b.V = v }
type Labeled[T any] struct {
	Box[T]
	Label string
}
`, `
for i, s := range Enumerate([]string{"a", "b", "c", "d"}) {
	if i == 1 {
		continue
	}
	if s == "d" {
		break
	}
	fmt.Print(i, s, " ")
}
fmt.Println()
count := Counter[string]()
count("x")
fmt.Println(count("x"), count("y"))
fmt.Println(Describe(1), Describe("s"), Describe(2.5))
var l Labeled[int]
l.Set(5)
l.Box.Set(l.V + 1)
set := l.Set
set(l.V * 10)
fmt.Println(l.V, l.Box.V, l.Label == "")
f := Describe[bool]
fmt.Println(f(true))
`}, want: "0a 2c \n2 1\nint 2 string s other 2.5\n60 60 true\nother true\n"},
	{name: "without the toolchain's source", fallback: true, cells: []string{`import ("cmp"; "fmt"; "maps"; "slices")`, `
xs := []int{3, 1, 2, 2}
fmt.Println(slices.Contains(xs, 2), slices.Index(xs, 1), slices.Equal(xs, []int{3, 1, 2, 2}))
xs = slices.Compact(xs)
slices.Reverse(xs)
fmt.Println(xs, slices.Insert(xs, 1, 9))
m := map[string]int{"a": 1}
n := maps.Clone(m)
n["b"] = 2
fmt.Println(maps.Equal(m, n), len(n), cmp.Compare("a", "b"))
`}, want: "true 1 true\n[2 9 1] [2 9 1 3]\nfalse 2 -1\n"},
	{name: "type names of instances", cells: []string{`import ("fmt"; "iter"; "slices"; "sync/atomic")
type Box[T any] struct{ V T }
func (b Box[T]) String() string { return fmt.Sprint("box ", b.V) }
type Plain[K comparable, V any] struct {
	K K
	V V
}
type Point struct{ X, Y int }
func Show[T any](x T) string { return fmt.Sprintf("%T %v", x, x) }
`, `
b := Box[int]{3}
fmt.Println(Show(b), Show(1), Show(Box[Point]{Point{1, 2}}))
fmt.Printf("%T %T\n", b, &Box[string]{})
p := Plain[string, Point]{"k", Point{3, 4}}
fmt.Printf("%+v %T\n", p, p)
fmt.Printf("%T\n", slices.Values([]int{1}))
var seq iter.Seq[string]
fmt.Printf("%T\n", seq)
var ap atomic.Pointer[Point]
fmt.Printf("%T\n", &ap)
`}, want: "main.Box[int] box 3 int 1 main.Box[main.Point] box {1 2}\nmain.Box[int] *main.Box[string]\n{K:k V:{X:3 Y:4}} main.Plain[string,main.Point]\niter.Seq[int]\niter.Seq[string]\n*atomic.Pointer[main.Point]\n"},
	{name: "Go by Example's generics and iterators", cells: []string{`import ("fmt"; "iter"; "slices")
func SlicesIndex[S ~[]E, E comparable](s S, v E) int {
	for i := range s {
		if v == s[i] {
			return i
		}
	}
	return -1
}
type List[T any] struct {
	head, tail *element[T]
}
type element[T any] struct {
	next *element[T]
	val  T
}
func (lst *List[T]) Push(v T) {
	if lst.tail == nil {
		lst.head = &element[T]{val: v}
		lst.tail = lst.head
	} else {
		lst.tail.next = &element[T]{val: v}
		lst.tail = lst.tail.next
	}
}
func (lst *List[T]) AllElements() []T {
	var elems []T
	for e := lst.head; e != nil; e = e.next {
		elems = append(elems, e.val)
	}
	return elems
}
func (lst *List[T]) All() iter.Seq[T] {
	return func(yield func(T) bool) {
		for e := lst.head; e != nil; e = e.next {
			if !yield(e.val) {
				return
			}
		}
	}
}
func genFib() iter.Seq[int] {
	return func(yield func(int) bool) {
		a, b := 1, 1
		for {
			if !yield(a) {
				return
			}
			a, b = b, a+b
		}
	}
}
`, `
var s = []string{"foo", "bar", "zoo"}
fmt.Println("index of zoo:", SlicesIndex(s, "zoo"))
_ = SlicesIndex[[]string, string](s, "zoo")
lst := List[int]{}
lst.Push(10)
lst.Push(13)
lst.Push(23)
fmt.Println("list:", lst.AllElements())
for e := range lst.All() {
	fmt.Println(e)
}
all := slices.Collect(lst.All())
fmt.Println("all:", all)
for n := range genFib() {
	if n >= 10 {
		break
	}
	fmt.Println(n)
}
`}, want: "index of zoo: 2\nlist: [10 13 23]\n10\n13\n23\nall: [10 13 23]\n1\n1\n2\n3\n5\n8\n"},
	{name: "min and max of compiled and cell types", cells: []string{`import ("fmt"; "slices"; "time")
type Celsius float64
func (c Celsius) String() string { return fmt.Sprintf("%.1f°C", float64(c)) }
`, `
durs := []time.Duration{3 * time.Second, time.Second, 2 * time.Minute}
slices.Sort(durs)
fmt.Println(durs, slices.Max(durs), min(durs[0], durs[1]), max(time.Hour, durs[2]))
a, b := Celsius(1.5), Celsius(-3)
fmt.Println(max(a, b), min(a, b, 0))
fmt.Printf("%v %T\n", max(a, b), min(a, b))
x, y := 4, 9
fmt.Println(min(x, y), max(x, y, 12), min(2.5, float64(x)))
`}, want: "[1s 3s 2m0s] 2m0s 1s 1h0m0s\n1.5°C -3.0°C\n1.5°C main.Celsius\n4 12 2.5\n"},
	{name: "generic code with types declared in a function", cells: []string{`import ("cmp"; "fmt"; "maps"; "slices")
func run() {
	type Address struct{ City string }
	type Person struct {
		Name string
		Age  int
		Home Address
	}
	people := []Person{{"Jax", 37, Address{"Oslo"}}, {"TJ", 25, Address{"Rome"}}, {"Alex", 72, Address{"Lima"}}}
	slices.SortFunc(people, func(a, b Person) int { return cmp.Compare(a.Age, b.Age) })
	fmt.Println(people, slices.Index(people, Person{"Alex", 72, Address{"Lima"}}))
	type key struct{ a, b int }
	seen := map[key]string{{1, 2}: "x", {0, 1}: "y"}
	ks := slices.SortedFunc(maps.Keys(seen), func(p, q key) int { return cmp.Compare(p.a, q.a) })
	fmt.Printf("%v %T\n", ks, ks[0])
}
`, `
run()
`}, want: "[{TJ 25 {Rome}} {Jax 37 {Oslo}} {Alex 72 {Lima}}] 2\n[{0 1} {1 2}] main.key\n"},
	{name: "iterators from compiled code", cells: []string{`import ("fmt"; "iter"; "slices"; "strings")`, `
for part := range strings.SplitSeq("a,b,c", ",") {
	fmt.Print(part, ";")
}
fmt.Println()
var words iter.Seq[string] = strings.FieldsSeq("  x y  z ")
fmt.Println(slices.Collect(words))
fmt.Println(slices.Sorted(strings.SplitSeq("c-a-b", "-")))
`}, want: "a;b;c;\n[x y z]\n[a b c]\n"},
}
