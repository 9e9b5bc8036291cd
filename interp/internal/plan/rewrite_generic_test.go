package plan

import "testing"

// TestRewritesGeneric checks the code generated for uses of a cell's generic functions.
func TestRewritesGeneric(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"calls of a cell's generic functions call their instances", "func Map[T, U any](xs []T, f func(T) U) []U { var out []U; for _, x := range xs { out = append(out, f(x)) }; return out }\nMap([]int{1, 2}, func(i int) string { return fmt.Sprint(i) })\nMap[int]([]int{3}, func(i int) S { return S(i) })",
			[]string{"func Mapꞏintꞏstring(xs []int, f func(int) string) []string {", "func MapꞏintꞏS(xs []int, f func(int) S) []S {",
				"Mapꞏintꞏstring([]int{1, 2}, func", "_gtres := MapꞏintꞏS([]int{3}, func"}, []string{"[T, U any]"}},
	})
}
