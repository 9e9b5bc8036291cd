package interp

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/kernel"
)

// TestRichCellTypes checks that a last value whose type a cell declares is
// displayed through its HTML, Markdown, SVG, PNG and String methods, which
// compiled code cannot see (docs/design.md).
func TestRichCellTypes(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, `
type card struct{ title string }
func (c card) HTML() string { return "<b>" + c.title + "</b>" }

type note string
func (n note) Markdown() string { return "# " + string(n) }
func (n note) String() string { return "note " + string(n) }

type icon struct{}
func (icon) SVG() string { return "<svg></svg>" }

type pic struct{}
func (*pic) PNG() []byte { return []byte("\x89PNG fake") }

type plain struct{ A int }
`)
	cases := []struct {
		code string
		want map[string]string
	}{
		{`card{"hi"}`, map[string]string{"text/html": "<b>hi</b>", "text/plain": "{hi}"}},
		{`c := card{"x"}` + "\nc", map[string]string{"text/html": "<b>x</b>"}},
		{`note("title")`, map[string]string{"text/markdown": "# title", "text/plain": "note title"}},
		{`icon{}`, map[string]string{"image/svg+xml": "<svg></svg>"}},
		{`&pic{}`, map[string]string{"image/png": base64.StdEncoding.EncodeToString([]byte("\x89PNG fake"))}},
		{`plain{7}`, map[string]string{"text/plain": "{7}"}},
		{`tensor.Ones(2)`, map[string]string{"text/plain": "tensor([1., 1.])"}},
	}
	for i, c := range cases {
		var r recorder
		b, err := s.Execute(t.Context(), c.code, &r)
		if err != nil || b == nil {
			t.Errorf("case %d %q: got %v, %v", i, c.code, b, err)
			continue
		}
		for mime, want := range c.want {
			if got, _ := b.Data[mime].(string); got != want {
				t.Errorf("case %d %q: %s is %q, want %q (bundle %v)", i, c.code, mime, got, want, b.Data)
			}
		}
		if _, ok := b.Data["text/plain"]; !ok {
			t.Errorf("case %d %q: no text/plain in %v", i, c.code, b.Data)
		}
	}
}

// TestDisplayMethodPanics checks that a panic in a display method of a
// cell's type, called to show the cell's value, ends that cell as a panic
// does (Go's message, named "panic") and the session lives on.
func TestDisplayMethodPanics(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "type bad struct{}\nfunc (bad) HTML() string { panic(\"no html\") }")
	_, _, err := run(t, s, "bad{}")
	var e *kernel.Error
	if !errors.As(err, &e) || e.Name != "panic" || !strings.Contains(e.Value, "no html") {
		t.Errorf("a cell whose value's HTML panics: %#v, want a panic error with Go's message", err)
	}
	if res, _ := mustRun(t, s, "x := 40\nx + 2"); res != "42" {
		t.Errorf("the next cell: %q, want 42", res)
	}
}

// TestTensorErrors checks that a typed tensor error is reported with its
// type as the name, its message as the value and the cell line.
func TestTensorErrors(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "a := tensor.Zeros(2, 3)\nb := tensor.Zeros(4, 5)")
	cases := []struct {
		code, name string
		value      []string // substrings
		line       string
	}{
		{"n := 1\na.MatMul(b)", "*tensor.ShapeError", []string{"MatMul", "[2 3]", "[4 5]"}, "at cell line 2"},
		{"c := a.Add(b)", "*tensor.ShapeError", []string{"Add", "[2 3]", "[4 5]"}, "at cell line 1"},
		{"func f() { a.Reshape(7) }\n\nf()", "*tensor.ShapeError", []string{"Reshape"}, "in f"},
		{"a.Select(5, 0)", "*tensor.", []string{"Select"}, "at cell line 1"},
		{"err := tensor.Try(func() { a.MatMul(b) })\npanic(err)", "*tensor.ShapeError", []string{"MatMul"}, "at cell line 2"},
	}
	for i, c := range cases {
		_, _, err := run(t, s, c.code)
		var e *kernel.Error
		if !errors.As(err, &e) {
			t.Errorf("case %d %q: got %v, want a *kernel.Error", i, c.code, err)
			continue
		}
		tb := strings.Join(e.Traceback, "\n")
		if !strings.HasPrefix(e.Name, c.name) || !strings.Contains(tb, c.line) {
			t.Errorf("case %d %q: got name %q traceback %q, want %q and %q", i, c.code, e.Name, tb, c.name, c.line)
		}
		for _, v := range c.value {
			if !strings.Contains(e.Value, v) {
				t.Errorf("case %d %q: value %q does not contain %q", i, c.code, e.Value, v)
			}
		}
		if strings.HasPrefix(e.Value, e.Name) {
			t.Errorf("case %d %q: value %q repeats the name", i, c.code, e.Value)
		}
	}
}

// TestDeclarationOrder checks that var declarations run in the order
// written, among the statements, and that functions and methods may use
// variables that the cell's statements define.
func TestDeclarationOrder(t *testing.T) {
	s := newSession(t)
	cases := []struct{ code, want string }{
		{"n := 3\nvar xs = make([]int, n)\nlen(xs)", "3"},
		{"type T int\nfunc (t T) Scaled() int { return int(t) * scale }\nscale := 10\nfour := T(4)\nfour.Scaled()", "40"},
		{"func useLater() int { return later * 2 }\nlater := 21\nuseLater()", "42"},
		{"var (\n\tp = 2\n\tq = p * 3\n)\nq", "6"},
		{"var z int\nz", "0"},
		{"z = 5\nvar z int\nz", "0"}, // running a var declaration again resets it
		{"func sq(v int) int { return v * v }\nvar s9 = sq(3)\ns9", "9"},
		{"const k = 4\nvar arr [k]int\nlen(arr)", "4"},
		// Common one-letter type names (the session's own generic helpers
		// once leaked their type parameter T).
		{"type E int\ntype K string\ntype V float64\ntype S []int\nfmt.Sprint(E(1), K(\"k\"), V(2.5), len(S{1}))", "1k2.5 1"}, // Sprint puts no space next to a string
	}
	for i, c := range cases {
		res, _, err := run(t, s, c.code)
		if err != nil || res != c.want {
			t.Errorf("case %d %q: got %q (%v), want %q", i, c.code, res, err, c.want)
		}
	}
}

// TestRedefinitionReaches checks that running "x := ..." again for a
// variable of the same type updates what functions declared before see,
// and that a variable may change its type.
func TestRedefinitionReaches(t *testing.T) {
	s := newSession(t)
	cases := []struct{ code, want string }{
		{"w := 2\nfunc scaled(v int) int { return v * w }\nscaled(5)", "10"},
		{"w := 3", ""},
		{"scaled(5)", "15"},
		{"func shadow(w int) int { return w + 1 }\nshadow(1)", "2"}, // a parameter named like a global
		{"w := \"now a string\"\nw", "now a string"},
		{"v, ok := 1, true\nv, ok = 2, false\nfmt.Sprint(v, ok)", "2 false"},
		{"v, err := 3, error(nil)\nfmt.Sprint(v, err)", "3 <nil>"},
		{"m := map[string]int{\"a\": 1}\nval, found := m[\"a\"]\nfmt.Sprint(val, found)", "1 true"},
		{"t := tensor.Ones(2)\nt = t.MulScalar(3)\nt.Sum().Item()", "6"},
		{"t := t.Sum().Item()\nt", "6"}, // changes t's type, using t
		{"var i interface{} = 5\ni", "5"},
		{"var i interface{} = \"s\"\ni", "s"},
	}
	for i, c := range cases {
		res, _, err := run(t, s, c.code)
		if err != nil || res != c.want {
			t.Errorf("case %d %q: got %q (%v), want %q", i, c.code, res, err, c.want)
		}
	}
}

// TestRangeAndMinMax checks "range n" over integers that only the types
// tell (fields, call results), and min and max in definitions and on named
// types (docs/design.md: yaegi lacks both).
func TestRangeAndMinMax(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "type cfg struct{ N int }\nc := cfg{3}\nfunc n3() int { return 3 }")
	cases := []struct{ code, want string }{
		{"t := 0\nfor i := range c.N { t += i }\nt", "3"},
		{"u := 0\nfor i := range n3() { u += i }\nu", "3"},
		{"func sumTo(c cfg) int { s := 0; for i := range c.N + 1 { s += i }; return s }\nsumTo(cfg{4})", "10"},
		{"func count(c cfg) (k int) { for range c.N { k++ }; return }\ncount(c)", "3"},
		{"mm := map[string]int{\"ab\": 1}\nkeys := 0\nfor k := range mm { keys += len(k) }\nkeys", "2"},
		{"a, b := 7, 3\nm := max(a, b)\nm + 1", "8"},
		{"lo := min(a, b, 5)\nlo", "3"},
		{"type Celsius float64\nfunc (c Celsius) String() string { return fmt.Sprint(float64(c), \"C\") }\nc1, c2 := Celsius(1), Celsius(2)\nmax(c1, c2).String()", "2C"},
	}
	for i, c := range cases {
		res, _, err := run(t, s, c.code)
		if err != nil || res != c.want {
			t.Errorf("case %d %q: got %q (%v), want %q", i, c.code, res, err, c.want)
		}
	}
}

// TestTraceback checks the frames of a panic: the cell line of the
// top-level statement, and inside functions the function's name and the
// line where its body starts (yaegi does not say which line of a function
// panicked); no frames of the session's own wrappers.
func TestTraceback(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "func g() {\n\tpanic(\"in g\")\n}")
	cases := []struct {
		code string
		want []string // the traceback lines after the first
	}{
		{"\n\ng()", []string{"  at cell #1 line 2:2 in g", "  at cell line 3"}},
		{"f := func() { panic(\"lit\") }\n\nf()", []string{"  at cell line 1:15 in func", "  at cell line 3"}},
		{"x := 1\npanic(x)", []string{"  at cell line 2"}},
		{"func h() { g() }\nh()", []string{"  at cell #1 line 2:2 in g", "  at cell line 1:12 in h", "  at cell line 2"}},
	}
	for i, c := range cases {
		_, _, err := run(t, s, c.code)
		var e *kernel.Error
		if !errors.As(err, &e) {
			t.Errorf("case %d %q: got %v, want a *kernel.Error", i, c.code, err)
			continue
		}
		if got := strings.Join(e.Traceback[1:], "\n"); got != strings.Join(c.want, "\n") {
			t.Errorf("case %d %q: traceback\n%s\nwant\n%s", i, c.code, got, strings.Join(c.want, "\n"))
		}
	}
}

// TestLiveOutputsFinalAtCellEnd checks that a live plot and a progress
// bar changed faster than their redraws are shown in their final state
// when the cell ends, before Execute returns, without Done: what a saved
// notebook (nbconvert --execute, gotensor run) keeps.
func TestLiveOutputsFinalAtCellEnd(t *testing.T) {
	s := newSession(t)
	var r recorder
	_, err := s.Execute(context.Background(), `
curve := display.NewLivePlot("loss")
bar := display.NewProgress(3)
for i := 0; i < 3; i++ {
	curve.Add("train", float64(3-i))
	bar.Add(1)
}`, &r)
	if err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	shown := append([]kernel.Bundle(nil), r.displays...)
	r.mu.Unlock()
	var lastText string
	for _, b := range shown {
		if txt, ok := b.Data["text/plain"].(string); ok && strings.Contains(txt, "/3") {
			lastText = txt
		}
	}
	if !strings.Contains(lastText, "3/3") {
		t.Errorf("the last drawing of the bar before the cell's reply is %q, want its final state 3/3", lastText)
	}
	if len(shown) < 4 {
		t.Errorf("%d outputs: want the first drawing of each and an update of each", len(shown))
	}
}
