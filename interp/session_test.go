package interp

import (
	"testing"
)

func TestStatePersists(t *testing.T) {
	s := newSession(t)
	cells := []struct {
		code, result, stdout string
	}{
		{"x := 20", "", ""},
		{"x + 22", "42", ""},
		{"func double(n int) int { return 2 * n }", "", ""},
		{"double(x)", "40", ""},
		{"type point struct{ X, Y int }", "", ""},
		{"p := point{1, 2}\np.X + p.Y", "3", ""},
		{`fmt.Println("hi", x)`, "", "hi 20\n"},
		{"math.Sqrt(16)", "4", ""},
		{"var s []int\nfor i := 0; i < 3; i++ { s = append(s, i*i) }\ns", "[0 1 4]", ""},
		{`fmt.Sprint("a", 1)`, "a1", ""},
		{"func noResult() {}\nnoResult()", "", ""},
		{"func two() (int, int) { return 1, 2 }\ntwo()", "", ""},
	}
	for i, c := range cells {
		res, out := mustRun(t, s, c.code)
		if res != c.result || out != c.stdout {
			t.Errorf("cell %d %q: got result %q stdout %q, want %q %q", i, c.code, res, out, c.result, c.stdout)
		}
	}
}
