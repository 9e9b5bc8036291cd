package interp

import (
	"strings"
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

// TestVariablesNamedLikePackages checks that cells may declare top-level
// variables named like the packages every session imports (data, display,
// nn) and use them in later cells and in functions, as a Go program's
// variables take those names from a package; that the kernel's tools show
// them by their names; and that a use of the package they hide says how to
// reach it.
func TestVariablesNamedLikePackages(t *testing.T) {
	s := newSession(t)
	cells := []struct {
		code, result, stdout string
	}{
		// What go run prints for the same statements in func main, and
		// the functions beside it.
		{"data := []int{1, 2, 3}\nfmt.Println(len(data))", "", "3\n"},
		{"fmt.Println(data)", "", "[1 2 3]\n"},
		{"func total() int {\n\tn := 0\n\tfor _, x := range data {\n\t\tn += x\n\t}\n\treturn n\n}\ntotal()", "6", ""},
		{"data = append(data, 4)\ntotal()", "10", ""},
		{"display := \"shown\"\nnn := map[string]int{\"layers\": 2}\nfunc describe() string { return fmt.Sprint(display, \" \", nn[\"layers\"]) }\ndescribe()", "shown 2", ""},
		{"data := []int{7}\ntotal()", "7", ""},
		{"data := \"text\"\nfmt.Println(data + \"!\")", "", "text!\n"},
		{"%who", "", "data         string               text\ndisplay      string               shown\nnn           map[string]int       map[layers:2]\n"},
	}
	for i, c := range cells {
		res, out := mustRun(t, s, c.code)
		if res != c.result || out != c.stdout {
			t.Errorf("cell %d %q: got result %q stdout %q, want %q %q", i, c.code, res, out, c.result, c.stdout)
		}
	}
	in := s.Inspect("nn", 2, 0)
	if text, _ := in.Data.Data["text/plain"].(string); !in.Found || !strings.Contains(text, "nn: map[string]int = map[layers:2]") {
		t.Errorf("Inspect(nn) = %v, %q; want the variable and its value", in.Found, text)
	}
	// The package data hides, as Go says, and how to reach it.
	_, _, err := run(t, s, "data.NewTensorDataset(nil, nil)")
	if err == nil || !strings.Contains(err.Error(), "data.NewTensorDataset undefined (type string has no field or method NewTensorDataset)") ||
		!strings.Contains(err.Error(), `import data2 "github.com/gotensor/gotensor/tensorlib/data"`) {
		t.Errorf("a use of the package variable data hides: got %v", err)
	}
	res, out := mustRun(t, s, "import data2 \"github.com/gotensor/gotensor/tensorlib/data\"\nfmt.Println(data2.NewTensorDataset(tensor.Ones(3, 2), tensor.Zeros(3)).Len())\ndata")
	if res != "text" || out != "3\n" {
		t.Errorf("data2 beside data: got result %q stdout %q, want \"text\" and 3", res, out)
	}
	// Importing the package again takes its name back.
	res, out = mustRun(t, s, "import \"github.com/gotensor/gotensor/tensorlib/data\"\nfmt.Println(data.NewTensorDataset(tensor.Ones(2, 2), tensor.Zeros(2)).Len())")
	if res != "" || out != "2\n" {
		t.Errorf("data imported again: got result %q stdout %q, want 2", res, out)
	}
	// And a variable can take it once more.
	res, out = mustRun(t, s, "data := 5\nfunc twice() int { return 2 * data }\ntwice()")
	if res != "10" || out != "" {
		t.Errorf("data declared after the import: got result %q stdout %q, want 10", res, out)
	}
}

// TestNoGradLoopWritesIterationVariable runs the evaluation loop every
// PyTorch user writes as `with torch.no_grad()`: a function literal
// handed to tensor.NoGrad writes a variable of the loop's iteration, and
// the iteration reads it after NoGrad returns. Each iteration must see
// its own result (i times [1 2 3]), and the literal's write must reach
// it; the planner once refused this cell.
func TestNoGradLoopWritesIterationVariable(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "x := tensor.FromFloat32s([]float32{1, 2, 3}, 3).SetRequiresGrad(true)")
	_, out := mustRun(t, s, `import "strings"
var got []string
for len(got) < 3 {
	var p []float32
	i := len(got) + 1
	tensor.NoGrad(func() { p = x.MulScalar(float64(i)).Float32s() })
	got = append(got, fmt.Sprint(p))
}
fmt.Println(strings.Join(got, " "))`)
	if want := "[1 2 3] [2 4 6] [3 6 9]\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
}
