package plan

import "testing"

// TestRewritesBuiltin checks the code generated for builtins the interpreter lacks.
func TestRewritesBuiltin(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"new of a value (Go 1.26)", "p := new(42)\nq := new(int)",
			[]string{"p = func(_gtv int) *int { return &_gtv }(42)", "q = new(int)"}, nil},
		{"min and max are instances of the prelude's", "a, b := 7, 4.5\nmin(a, 3) + int(max(b, 9))",
			[]string{"_gtMinꞏint(a, 3)", "_gtMaxFꞏfloat64(b, 9)", "func _gtMinꞏint(x int, ys ...int) int {"}, []string{"_gtMin["}},
		{"constant min and max", "const c = max(1, 2.5, 2)\nvar f float32 = min(3, 1)",
			[]string{"const c = 2.5", "f = float32(1)"}, nil},
		{"a shift's untyped constant takes the context's type", "type Flags uint8\ni := 3\nvar u uint = 1 << i\nf := Flags(1<<i) | 1<<(i+1)\nk := 1 << i\nconst c = 1 << 2",
			[]string{"u = uint(1) << i", "Flags(Flags(1)<<i) | Flags(1)<<(i+1)", "k = 1 << i", "c = 1 << 2"}, nil},
		{"clear, print, println", "m := map[int]int{}\nclear(m)\nprint(1)\nprintln(\"x\", 2.5)",
			[]string{"_gt.Clear(m)", "_gt.Print(1)", "_gt.Println(\"x\", 2.5)"}, nil},
	})
}
