package interp

import (
	"reflect"
	"strings"
	"testing"
)

func TestComplete(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "type point struct{ X, Y int }\npt := point{1, 2}\ncounter := 3\nconst limit = 9\nimport \"strings\"\nvar sb strings.Builder")
	cases := []struct {
		code       string
		cursor     int // -1: end
		want       []string
		start, end int
	}{
		{"fmt.Pri", -1, []string{"Print", "Printf", "Println"}, 4, 7},
		{"x := fmt.Sp", -1, []string{"Sprint", "Sprintf", "Sprintln"}, 9, 11},
		{"coun", -1, []string{"counter"}, 0, 4},
		{"lim", -1, []string{"limit"}, 0, 3},
		{"retu", -1, []string{"return"}, 0, 4},
		{"strings.ToU", -1, []string{"ToUpper", "ToUpperSpecial"}, 8, 11},
		{"pt.", -1, []string{"X", "Y"}, 3, 3},
		{"sb.Wri", -1, []string{"Write", "WriteByte", "WriteRune", "WriteString"}, 3, 6},
		// Cursor in code points: "é" is two bytes, one code point.
		{`s := "é"; fmt.Pri`, -1, []string{"Print", "Printf", "Println"}, 14, 17},
		{"fmt.Pri + 1", 7, []string{"Print", "Printf", "Println"}, 4, 7},
		{"math.Sq", -1, []string{"Sqrt", "Sqrt2", "SqrtE", "SqrtPhi", "SqrtPi"}, 5, 7},
	}
	for i, c := range cases {
		cur := c.cursor
		if cur < 0 {
			cur = len([]rune(c.code))
		}
		got := s.Complete(c.code, cur)
		if !reflect.DeepEqual(got.Matches, c.want) || got.Start != c.start || got.End != c.end {
			t.Errorf("case %d %q: got %v [%d,%d), want %v [%d,%d)", i, c.code, got.Matches, got.Start, got.End, c.want, c.start, c.end)
		}
	}
}

func TestInspect(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "counter := 42\nnames := []string{\"a\", \"b\"}\nfunc add(a, b int) int { return a + b }")
	s.opts.Docs = map[string]string{"fmt.Println": "Println formats using the default formats."}
	cases := []struct {
		code   string
		cursor int
		found  bool
		want   []string // substrings of text/plain
	}{
		{"counter", 3, true, []string{"counter: int = 42"}},
		{"names", 5, true, []string{"[]string", "[a b]"}},
		{"add(1, 2)", 1, true, []string{"func add(a, b int) int"}},
		{"fmt.Println(x)", 6, true, []string{"func Println(...any) (int, error)", "default formats"}},
		{"fmt.Println(x)", 13, true, []string{"func Println(...any) (int, error)"}}, // in its arguments
		{"add(1, ", 7, true, []string{"func add(a, b int) int"}},
		{"math.Pi", 6, true, []string{"const Pi untyped float = 3.141592653589793"}},
		{"nothing", 2, false, nil},
		{"  ", 1, false, nil},
	}
	for i, c := range cases {
		got := s.Inspect(c.code, c.cursor, 0)
		text, _ := got.Data.Data["text/plain"].(string)
		if got.Found != c.found {
			t.Errorf("case %d %q: found %v, want %v (%q)", i, c.code, got.Found, c.found, text)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("case %d %q: %q does not contain %q", i, c.code, text, w)
			}
		}
	}
}

func TestIsComplete(t *testing.T) {
	s := newSession(t)
	cases := []struct{ code, status, indent string }{
		{"x := 1", "complete", ""},
		{"", "complete", ""},
		{"func f() {", "incomplete", "\t"},
		{"for i := 0; i < 3; i++ {\n\tif i > 1 {", "incomplete", "\t\t"},
		{"fmt.Println(1,", "incomplete", "\t"},
		{"x := 1 +", "incomplete", "\t"},
		{"s := `raw", "incomplete", ""},
		{"/* comment", "incomplete", ""},
		{"x := )", "invalid", ""},
		{"func f() { }}", "invalid", ""},
		{"x := 1 1", "invalid", ""},
		{"%timeit x", "complete", ""},
		{"import \"fmt\"\nfunc f() {}\nf()", "complete", ""},
	}
	for i, c := range cases {
		got := s.IsComplete(c.code)
		if got.Status != c.status || got.Indent != c.indent {
			t.Errorf("case %d %q: got %q %q, want %q %q", i, c.code, got.Status, got.Indent, c.status, c.indent)
		}
	}
}

// TestInspectDocs checks doc comments: the library's (generated from its
// source) for package members and the methods of a variable's type, the
// cell's own for what cells declare, and tensor summaries.
func TestInspectDocs(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, `
// Scale multiplies by the global factor.
func Scale(v int) int { return v * factor }

// point is a point in the plane.
type point struct{ X, Y int }

// Norm1 is the Manhattan norm of p.
func (p point) Norm1() int { return p.X + p.Y }

func (p *point) Move(dx int) { p.X += dx }

factor := 3
pt := point{1, 2}
pp := &point{3, 4}
x := tensor.Zeros(2, 3)
`)
	cases := []struct {
		code string
		want []string
	}{
		{"tensor.Zeros", []string{"func Zeros(shape ...int) *Tensor", "Zeros returns a Float32 tensor"}},
		{"x.MatMul", []string{"func (x *Tensor) MatMul(y *Tensor) *Tensor", "MatMul returns the matrix product"}},
		{"x.T().Sum", []string{"func (x *Tensor) Sum(dims ...int) *Tensor"}}, // of any expression's type
		{"x", []string{"x: *tensor.Tensor [2 3] float32 cpu 24 B", "tensor("}},
		{"Scale", []string{"func Scale(v int) int", "Scale multiplies by the global factor."}},
		{"point", []string{"type point struct", "point is a point in the plane."}},
		{"pt.Norm1", []string{"func (p point) Norm1() int", "Manhattan norm"}},
		{"pp.Move", []string{"func (p *point) Move(dx int)"}},
	}
	for i, c := range cases {
		got := s.Inspect(c.code, len([]rune(c.code)), 0)
		text, _ := got.Data.Data["text/plain"].(string)
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("case %d %q: %q does not contain %q", i, c.code, text, w)
			}
		}
	}
	// Completion knows the methods of cell types and of library types.
	for i, c := range []struct {
		code string
		want []string
	}{
		{"pt.", []string{"Move", "Norm1", "X", "Y"}},
		{"pp.No", []string{"Norm1"}},
		{"x.MatM", []string{"MatMul"}},
		{"tensor.Ra", []string{"Rand", "RandInt", "Randn"}},
	} {
		got := s.Complete(c.code, len([]rune(c.code)))
		have := map[string]bool{}
		for _, m := range got.Matches {
			have[m] = true
		}
		for _, w := range c.want {
			if !have[w] {
				t.Errorf("complete %d %q: got %v, want it to hold %v", i, c.code, got.Matches, c.want)
				break
			}
		}
	}
}
