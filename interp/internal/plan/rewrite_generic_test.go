package plan

import (
	"strings"
	"testing"
)

// TestRewritesGeneric checks the code generated for uses of a cell's generic functions.
func TestRewritesGeneric(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"calls of a cell's generic functions call their instances", "func Map[T, U any](xs []T, f func(T) U) []U { var out []U; for _, x := range xs { out = append(out, f(x)) }; return out }\nMap([]int{1, 2}, func(i int) string { return fmt.Sprint(i) })\nMap[int]([]int{3}, func(i int) S { return S(i) })",
			[]string{"func Mapꞏintꞏstring(xs []int, f func(int) string) []string {", "func MapꞏintꞏS(xs []int, f func(int) S) []S {",
				"Mapꞏintꞏstring([]int{1, 2}, func", "_gtres := MapꞏintꞏS([]int{3}, func"}, []string{"[T, U any]"}},
	})
}

// TestGenericMethodInLaterCell checks that a method of a generic type of
// an earlier cell is refused with a message that says where to declare
// it (go/types cannot check it as the function that stands for the
// methods of other earlier types).
func TestGenericMethodInLaterCell(t *testing.T) {
	s := newSession(t)
	run(t, s, 1, "type Stack[T any] struct{ items []T }")
	_, err := s.Plan(2, "func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }")
	want := "cell line 1:20: method Push of Stack, a generic type of an earlier cell: the methods of a generic type are declared in the cell that declares the type; add Push to that cell and run it again"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
	run(t, s, 3, "type Stack[T any] struct{ items []T }\nfunc (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }")
}
