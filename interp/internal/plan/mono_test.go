package plan

import (
	"runtime"
	"strings"
	"testing"
)

// monoSession returns a session whose generic code comes from the Go
// toolchain's source.
func monoSession(t testing.TB) *Session {
	t.Helper()
	s := newSession(t)
	s.u.Source = GOROOTSource(runtime.GOROOT())
	return s
}

// steps returns the kinds of a plan's steps.
func steps(p *Plan) []StepKind {
	var out []StepKind
	for _, st := range p.Steps {
		out = append(out, st.Kind)
	}
	return out
}

// hasStep reports whether a plan has a step of kind k.
func hasStep(p *Plan, k StepKind) bool {
	for _, st := range p.Steps {
		if st.Kind == k {
			return true
		}
	}
	return false
}

// TestMonoPlans checks the instances the planner writes: no type
// parameter reaches the interpreter, the cell calls the instances, and
// every plan type-checks as the interpreter sees it (see run).
func TestMonoPlans(t *testing.T) {
	cases := []struct {
		name   string
		cells  []string
		has    []string // in the last cell's generated source
		hasNot []string
	}{
		{
			name:   "slices.Sort: the instance, its helpers, an import of math/bits",
			cells:  []string{"import \"slices\"\nxs := []int32{3, 1, 2}\nslices.Sort(xs)"},
			has:    []string{"func slicesꞏSortꞏslice_int32ꞏint32(x []int32) {", "slicesꞏSortꞏslice_int32ꞏint32(xs)", "func slicesꞏpdqsortOrderedꞏint32(", "type slicesꞏsortedHint int", "const slicesꞏincreasingHint slicesꞏsortedHint = 1", "import _gtp_bits1 \"math/bits\"", "_gtp_bits1.Len(uint(n))"},
			hasNot: []string{"[E cmp.Ordered]", "slices.Sort("},
		},
		{
			name:  "a cell's generic function, type and methods",
			cells: []string{"type Stack[T any] struct{ items []T }\nfunc (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }\nfunc Map[T, U any](xs []T, f func(T) U) []U { var out []U; for _, x := range xs { out = append(out, f(x)) }; return out }\nvar s Stack[string]\ns.Push(\"a\")\nys := Map([]int{1}, func(i int) string { return \"x\" })"},
			has: []string{"type Stackꞏstring struct{ items []string }", "func (s *Stackꞏstring) Push(v string) {", "var s Stackꞏstring", "func Mapꞏintꞏstring(xs []int, f func(int) string) []string {", "ys = Mapꞏintꞏstring([]int{1}",
				// Recursion errors name the instance as Go does; a panic's
				// position is in the cell that declared the function.
				"_gt.Enter(\"Map[int, string]\")", "//line _.go:100010003:1\nfunc Mapꞏintꞏstring("},
			hasNot: []string{"[T any]", "[T, U any]", "Stack[string]"},
		},
		{
			name:   "an explicit instantiation, a generic type of a package, a qualified generic",
			cells:  []string{"import (\"errors\"; \"sync/atomic\")\ntype E struct{}\nfunc (*E) Error() string { return \"e\" }\nvar p atomic.Pointer[E]\n_, ok := errors.AsType[*E](errors.New(\"x\"))"},
			has:    []string{"var p atomicꞏPointerꞏE", "type atomicꞏPointerꞏE struct {", "_gtblank", "ok = errorsꞏAsTypeꞏptr_E(errors.New(\"x\"))"},
			hasNot: []string{"atomic.Pointer[", "AsType["},
		},
		{
			name:  "instances are the session's: a later cell reuses them",
			cells: []string{"import \"slices\"\nxs := []int32{2, 1}\nslices.Sort(xs)", "ys := []int32{4, 3}\nslices.Sort(ys)\nslices.Reverse(ys)"},
			has:   []string{"slicesꞏSortꞏslice_int32ꞏint32(ys)", "func slicesꞏReverseꞏslice_int32ꞏint32("},
			// Sort's instance is not written again.
			hasNot: []string{"func slicesꞏSortꞏslice_int32ꞏint32(", "func slicesꞏpdqsortOrderedꞏint32("},
		},
		{
			name:  "a generic function of an earlier cell",
			cells: []string{"func Sum[T ~int | ~float64](xs ...T) T { var t T; for _, x := range xs { t += x }; return t }\ntype Number interface{ ~int | ~float64 }", "type C float64\nfunc Avg[T Number](xs ...T) T { return Sum(xs...) / T(len(xs)) }\nAvg(C(1), C(2))"},
			has:   []string{"func SumꞏC(xs ...C) C {", "func AvgꞏC(xs ...C) C {", "_gtr0 = SumꞏC(xs...) / C(len(xs))", "_gtres := AvgꞏC(C(1), C(2))"},
			// The constraint interface is not declared in the interpreter.
			hasNot: []string{"type Number"},
		},
		{
			name:  "range over an instance's iterator, and over a compiled iterator",
			cells: []string{"import (\"maps\"; \"slices\")\nm := map[string]int{\"a\": 1}\nfor k := range maps.Keys(m) { _ = k }\nks := slices.Sorted(maps.Keys(m))"},
			has:   []string{"type iterꞏSeqꞏstring func(yield func(string) bool)", "mapsꞏKeysꞏmap_string_intꞏstringꞏint(m)(func(k string) bool {", "ks = slicesꞏSortedꞏstring(mapsꞏKeysꞏmap_string_intꞏstringꞏint(m))"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := monoSession(t)
			var p *Plan
			for i, src := range c.cells {
				p = run(t, s, i+1, src)
			}
			checkSource(t, p, c.has, c.hasNot)
		})
	}
}

// TestMonoCompiled checks that slices' functions on slices of int,
// int64, float64 and string call the runtime's compiled instances, in
// cells and in generic code, and that a named slice type does not.
func TestMonoCompiled(t *testing.T) {
	s := monoSession(t)
	p := run(t, s, 1, "import (\"maps\"; \"slices\")\nxs := []float64{2, 1}\nslices.Sort(xs)\ni, ok := slices.BinarySearch(xs, 2)\nks := slices.Sorted(maps.Keys(map[string]bool{}))\ntype IDs []int\nids := IDs{2, 1}\nslices.Sort(ids)")
	checkSource(t, p, []string{"_gt.InstSlicesSort_float64(xs)", "i, ok = _gt.InstSlicesBinarySearch_float64(xs, 2)",
		"func slicesꞏSortedꞏstring(seq iterꞏSeqꞏstring) []string {", "_gt.InstSlicesSort_string(s)", "slicesꞏSortꞏIDsꞏint(ids)"},
		[]string{"func slicesꞏSortꞏslice_float64", "func slicesꞏSortꞏslice_string"})
}

// TestMonoTopVars checks generic code that uses the cell's own
// variables and functions: its instances are in the cell's file.
func TestMonoTopVars(t *testing.T) {
	s := monoSession(t)
	p := run(t, s, 1, "factor := 3\nfunc helper(s string) string { return s }\nfunc Scale[T ~int | ~float64](x T) string { return helper(fmt.Sprint(x * T(factor))) }\nfmt.Println(Scale(2))")
	if hasStep(p, StepInstantiate) {
		t.Errorf("instances that use the cell's variable in a step of their own:\n%s", dump(p))
	}
	checkSource(t, p, []string{"func Scaleꞏint(x int) string {", "helper(_gtp_fmt1.Sprint(x * int(factor)))", "var factor int"}, nil)
}

// TestMonoLocalTypes checks generic code instantiated with a type declared
// in a function: the type is declared at the package level under a name
// of its own, and the function uses it.
func TestMonoLocalTypes(t *testing.T) {
	s := monoSession(t)
	p := run(t, s, 1, "import \"slices\"\nfunc f() int {\n\ttype T struct{ A int }\n\treturn slices.Index([]T{{1}}, T{1})\n}")
	checkSource(t, p, []string{"type Tꞏlocal struct{A int}", "\n\t\n\t{ var _gtr0 int; _gtr0 = slicesꞏIndexꞏslice_TꞏT([]Tꞏlocal{{1}}, Tꞏlocal{1})"}, []string{"type T struct"})
}

// TestMonoSteps checks where instances go: a StepInstantiate before the
// cell's file, or the cell's file when they use the cell's types.
func TestMonoSteps(t *testing.T) {
	s := monoSession(t)
	p := run(t, s, 1, "import \"slices\"\nxs := []int32{1}\nslices.Sort(xs)")
	if got := steps(p); got[len(got)-3] != StepInstantiate || got[len(got)-2] != StepFile {
		t.Errorf("steps %v, want ... instantiate, file, block", got)
	}
	p = run(t, s, 2, "type P struct{ X int }\nps := []P{{2}, {1}}\nslices.SortFunc(ps, func(a, b P) int { return a.X - b.X })")
	if hasStep(p, StepInstantiate) {
		t.Errorf("instances of the cell's type P in a step of their own:\n%s", dump(p))
	}
	checkSource(t, p, []string{"type P struct{ X int }", "func slicesꞏSortFuncꞏslice_PꞏP("}, nil)
}

// TestMonoNotCommitted checks that a plan that did not run leaves no
// instance behind: the next plan writes it again.
func TestMonoNotCommitted(t *testing.T) {
	s := monoSession(t)
	p, err := s.Plan(1, "import \"slices\"\nxs := []int32{1}\nslices.Sort(xs)")
	if err != nil {
		t.Fatal(err)
	}
	s.Commit(p, 1) // the import ran, not the instances
	p = run(t, s, 2, "ys := []int32{1}\nslices.Sort(ys)")
	checkSource(t, p, []string{"func slicesꞏSortꞏslice_int32ꞏint32("}, nil)
}

// TestMonoErrors checks the messages of what cannot be instantiated.
func TestMonoErrors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"iter.Pull needs coroutines", "import (\"iter\"; \"slices\")\nnext, stop := iter.Pull(slices.Values([]int{1}))\n_, _ = next, stop",
			"iter.Pull needs the Go runtime's coroutines, which the interpreter lacks: collect the sequence with slices.Collect"},
		{"a type declared in a generic function", "import \"slices\"\nfunc f[E any]() { type T struct{ A E }; slices.Reverse([]T{}) }\nf[int]()",
			"T is declared inside a function: declare it at the top of a cell"},
		{"a generic alias", "type A[T any] = []T\nvar x A[int] = []int{1, 2}\n_ = x",
			"cannot instantiate A[int]: generic aliases are not supported"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := monoSession(t)
			_, err := s.Plan(1, c.src)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v\nwant %q", err, c.want)
			}
		})
	}
}
