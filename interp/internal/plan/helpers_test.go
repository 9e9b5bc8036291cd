package plan

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/traefik/yaegi/stdlib"
	"github.com/traefik/yaegi/stdlib/unrestricted"

	"github.com/gotensor/gotensor/interp/internal/cellrt"
	"github.com/gotensor/gotensor/interp/internal/symbols"
)

func mustParse(t testing.TB, fset *token.FileSet, src string) *ast.File {
	t.Helper()
	f, err := parser.ParseFile(fset, "test.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// newSession returns a session over the universe a notebook has, with its
// pre-imports.
func newSession(t testing.TB) *Session {
	t.Helper()
	rt := &cellrt.Runtime{}
	u := NewUniverse(stdlib.Symbols, unrestricted.Symbols, symbols.Symbols, rt.Exports(), testSymbols)
	s, err := New(Config{Universe: u, Preimport: append([]string{"fmt", "math"}, symbols.Packages...)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// run plans a cell and commits it as if all its steps ran.
func run(t testing.TB, s *Session, n int, src string) *Plan {
	t.Helper()
	p, err := s.Plan(n, src)
	if err != nil {
		t.Fatalf("cell %d %q: %v", n, src, err)
	}
	if err := verify(s, p); err != nil {
		t.Fatalf("cell %d %q: %v", n, src, err)
	}
	s.Commit(p, len(p.Steps))
	return p
}

// dump prints a plan's steps, for failures.
func dump(p *Plan) string {
	var b strings.Builder
	for i, st := range p.Steps {
		fmt.Fprintf(&b, "--- step %d: %s\n%s", i, st.Kind, st.Src)
	}
	return b.String()
}

// lineComment matches the /*line*/ comments of generated code.
var lineComment = regexp.MustCompile(`/\*line [^*]*\*/`)

// wantCode plans the cell setup and then src in a new session and checks
// that the code generated for src, without its /*line*/ comments, holds
// each of has and none of not.
func wantCode(t *testing.T, setup, src string, has, not []string) {
	t.Helper()
	s := newSession(t)
	run(t, s, 1, setup)
	got := lineComment.ReplaceAllString(dump(run(t, s, 2, src)), "")
	for _, h := range has {
		if !strings.Contains(got, h) {
			t.Errorf("missing %q in\n%s", h, got)
		}
	}
	for _, h := range not {
		if strings.Contains(got, h) {
			t.Errorf("unwanted %q in\n%s", h, got)
		}
	}
}

// thing is an unexported type of a compiled package, which generated code
// cannot name.
type thing struct{ N int }

// testSymbols is a compiled package whose function returns a *thing.
var testSymbols = Symbols{"example.com/hidden/hidden": {
	"New": reflect.ValueOf(func() *thing { return &thing{N: 7} }),
}}

func sprint(x any) string { return fmt.Sprint(x) }
