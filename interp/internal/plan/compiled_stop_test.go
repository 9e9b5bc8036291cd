package plan

import (
	"strings"
	"testing"
)

// TestCompiledStopPointer checks the stop checks of a compiled cell: each
// function with a loop or a goto of its own (the cell's statements, a
// declared function, a function literal) loads the flag's address once,
// first, and its checks load the flag through it, not through the
// package variable, which a plugin reaches through its offset table.
func TestCompiledStopPointer(t *testing.T) {
	s := newSession(t)
	s.SetCompile(true)
	src := "s := 0\nfor i := 0; i < 10; i++ {\n\ts += i\n}\n" +
		"func lit() { f := func() { for range 3 {} }; f() }\n" +
		"func jump() { n := 0\nL:\n\tif n++; n < 3 { goto L } }\n" +
		"func flat() int { return 1 }"
	p, err := s.Plan(1, src)
	if err != nil {
		t.Fatal(err)
	}
	if p.Compiled == nil {
		t.Fatalf("the cell was not compiled:\n%s", dump(p))
	}
	got := p.Compiled.Source
	decl := cStopLocal + " := " + cStopAt + ";"
	for _, f := range []string{"func " + cRun + "() (ꞏv any, ꞏok bool) { " + decl, "func " + cFunc + "jump() { " + decl, "f := func() { " + decl} {
		if !strings.Contains(got, f) {
			t.Errorf("missing %q in\n%s", f, got)
		}
	}
	if n := strings.Count(got, decl); n != 3 {
		t.Errorf("%d pointers to the stop flag, want 3 (the statements, jump, the literal; not lit or flat) in\n%s", n, got)
	}
	if strings.Contains(got, "LoadInt32(&") {
		t.Errorf("a check loads the package variable in\n%s", got)
	}
	if n := strings.Count(got, "LoadInt32("+cStopLocal+")"); n != 3 {
		t.Errorf("%d checks through the pointer, want 3 in\n%s", n, got)
	}
}
