package monotest

import (
	"testing"
)

// TestPrograms runs each program's cells in a session and compares what
// they print with what go run prints.
func TestPrograms(t *testing.T) {
	for _, p := range programs {
		t.Run(p.name, func(t *testing.T) {
			s := newSession(t, p.fallback)
			var got string
			for i, c := range p.cells {
				out, err := s.cell(c)
				if err != nil {
					t.Fatalf("cell %d: %v", i+1, err)
				}
				got += out
			}
			if got != p.want {
				t.Errorf("got\n%s\nwant\n%s", got, p.want)
			}
		})
	}
}

// TestRedefinitions runs what Go has no program for: types and generic
// functions declared again in later cells. An instance belongs to the
// version of a type or function it was made with.
func TestRedefinitions(t *testing.T) {
	s := newSession(t, false)
	cells := []struct{ src, want string }{
		{"import \"slices\"\ntype P struct{ A int }\nps := []P{{2}, {1}}\nslices.SortFunc(ps, func(a, b P) int { return a.A - b.A })\nfmt.Println(ps)", "[{1} {2}]\n"},
		{"type P struct{ A, B int }\nqs := []P{{2, 5}, {1, 6}}\nslices.SortFunc(qs, func(a, b P) int { return a.A - b.A })\nfmt.Println(qs, ps)", "[{1 6} {2 5}] [{1} {2}]\n"},
		// Values of the old P keep their type, but no name reaches it.
		{"slices.Reverse(ps)", "error: cannot instantiate slices.Reverse[[]P, P]: the interpreter cannot name type []main.P (a later cell declared P again: generic code is instantiated only with the current P)"},
		{"func Twice[T any](x T) []T { return []T{x, x} }\nfmt.Println(Twice(1), Twice(\"a\"))", "[1 1] [a a]\n"},
		{"func Twice[T any](x T) []T { return []T{x, x, x} }\nfmt.Println(Twice(1))", "[1 1 1]\n"},
		{"type Stack[T any] struct{ items []T }\nfunc (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }\nvar st Stack[P]\nst.Push(P{1, 2})\nfmt.Println(st.items)", "[{1 2}]\n"},
		{"st.Push(P{3, 4})\nfmt.Println(len(st.items), st.items[1].B)", "2 4\n"},
	}
	for i, c := range cells {
		out, err := s.cell(c.src)
		if err != nil {
			out = "error: " + err.Error()
		}
		if out != c.want {
			t.Errorf("cell %d: got %q, want %q", i+1, out, c.want)
		}
	}
}
