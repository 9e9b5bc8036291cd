package interp

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gotensor/gotensor/kernel"
)

// TestMixedCell checks that imports, declarations and statements mix in any
// order in one cell (docs/design.md: a single yaegi Eval of such source
// fails).
func TestMixedCell(t *testing.T) {
	s := newSession(t)
	res, out := mustRun(t, s, `
x := square(3)
import "strings"
func square(n int) int { return n * n }
type pair struct{ a, b int }
const k = 2
var y = k * 10
fmt.Println(strings.Repeat("ab", k), x, y)
func (p pair) sum() int { return p.a + p.b }
import "strings"
pair{x, y}.sum()
`)
	if res != "29" || out != "abab 9 20\n" {
		t.Errorf("got result %q stdout %q, want %q %q", res, out, "29", "abab 9 20\n")
	}
	// Re-importing in a later cell is harmless too.
	if res, _ := mustRun(t, s, "import \"strings\"\nimport \"fmt\"\nstrings.ToUpper(\"go\")"); res != "GO" {
		t.Errorf("re-import: got %q, want GO", res)
	}
}

func TestLastValue(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "func pair() (int, int) { return 1, 2 }\nfunc none() {}\nv := []string{\"a\"}")
	cases := []struct{ code, want string }{
		{"1 + 1", "2"},
		{"fmt.Println(1)", ""}, // two results
		{"pair()", ""},
		{"none()", ""},
		{"v", "[a]"},
		{`"s" + "t"`, "st"},
		{"x := 3", ""},
		{"float64(x) * 2.5", "7.5"},
		{"math.Pi > 3", "true"},
		{"var p *int\np", "<nil>"},
		{"// only a comment", ""},
		{"", ""},
	}
	for i, c := range cases {
		res, _ := mustRun(t, s, c.code)
		if res != c.want {
			t.Errorf("case %d %q: got %q, want %q", i, c.code, res, c.want)
		}
	}
}

// TestErrors checks names, messages and cell positions of compile errors
// and panics, and that the session keeps working after each.
func TestErrors(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "func boom() { panic(\"kaboom\") }\nfunc explode() {\n\tvar m map[string]int\n\tm[\"a\"] = 1\n}")
	cases := []struct {
		code      string
		name      string
		value     string // substring of Value
		traceback string // substring of the joined traceback
	}{
		{"x := 1\ny := 2\nz := foo + x", "CompileError", "cell line 3:6: undefined: foo", "cell line 3:6"},
		{"a := 1\nfunc f() {\n\treturn 1\n}", "CompileError", "cell line 3:", "cell line 3:"},
		{"x := 1 +* 2", "CompileError", "cell line 1:", ""},
		// The statements of a cell are one function body, as in Go.
		{"t := 1\nt := 2", "CompileError", "cell line 2:3: no new variables on left side of :=", ""},
		// Nothing of a cell that does not compile runs.
		{"fmt.Println(\"ran\")\nundefinedName()", "CompileError", "cell line 2:1: undefined: undefinedName", ""},
		{"import \"no/such/pkg\"", "CompileError", "cell line 1:8: cannot import \"no/such/pkg\"", ""},
		{"q := 1\nboom()", "panic", "kaboom", "at cell line 2"},
		{"explode()", "panic", "nil map", "in explode"},
		{"import \"errors\"\n\npanic(errors.New(\"bad\"))", "*errors.errorString", "bad", "at cell line 3"},
		{"import \"os\"\npanic(fmt.Errorf(\"open: %w\", os.ErrNotExist))", "*fmt.wrapError", "open: file does not exist", ""},
		// Go's run-time error, as go run prints it (panic: interface
		// conversion: ...), without the interpreter's source position.
		{"var v any = 1\ns := v.(string)", "panic", "interface conversion: interface {} is int, not string", "at cell line 2"},
	}
	for i, c := range cases {
		_, _, err := run(t, s, c.code)
		var e *kernel.Error
		if !errors.As(err, &e) {
			t.Errorf("case %d %q: got %v, want a *kernel.Error", i, c.code, err)
			continue
		}
		tb := strings.Join(e.Traceback, "\n")
		if e.Name != c.name || !strings.Contains(e.Value, c.value) || !strings.Contains(tb, c.traceback) {
			t.Errorf("case %d %q: got %q / %q / %q, want %q / %q / %q", i, c.code, e.Name, e.Value, tb, c.name, c.value, c.traceback)
		}
		if res, _ := mustRun(t, s, "40 + 2"); res != "42" {
			t.Errorf("case %d: session broken after the error: got %q", i, res)
		}
	}
	// A recovered run-time error prints as go run prints it.
	_, out := mustRun(t, s, "var v any = 1\nfunc() { defer func() { fmt.Println(recover()) }(); _ = v.(string) }()")
	if want := "interface conversion: interface {} is int, not string\n"; out != want {
		t.Errorf("recovered: %q, want %q", out, want)
	}
}

// TestGoroutinePanic checks that a panic in a goroutine started by a cell is
// reported and does not kill the process (docs/design.md: in yaegi it
// does).
func TestGoroutinePanic(t *testing.T) {
	s := newSession(t)
	var r recorder
	_, err := s.Execute(t.Context(), `
import "time"
done2 := make(chan bool)
func crash2(p *struct{ X int }) { defer close(done2); _ = p.X }
go crash2(nil)
<-done2
go func(msg string) { panic(msg) }("in literal")
time.Sleep(50 * time.Millisecond)
`, &r)
	if err != nil {
		t.Fatal(err)
	}
	stderr := r.text("stderr")
	if strings.Count(stderr, "panic in goroutine") != 2 || !strings.Contains(stderr, "in literal") ||
		!strings.Contains(stderr, "nil pointer dereference") || !strings.Contains(stderr, "in crash2") {
		t.Errorf("stderr %q: want two goroutine panic reports", stderr)
	}
	if res, _ := mustRun(t, s, "1"); res != "1" {
		t.Errorf("session broken after goroutine panic: %q", res)
	}
}

// TestRedefinition checks the notebook way of redefining functions and types
// (docs/design.md: yaegi keeps the old struct; callers compiled before a
// redefinition keep calling the old function).
func TestRedefinition(t *testing.T) {
	s := newSession(t)
	cells := []struct{ code, want string }{
		{"func base() int { return 1 }\nfunc caller() int { return base() * 10 }\ncaller()", "10"},
		{"func base() int { return 2 }\ncaller()", "20"},
		{"func base() int { return 3 }", ""},
		{"caller()", "30"},
		{"func fib(n int) int { if n < 2 { return n }; return fib(n-1) + fib(n-2) }\nfib(10)", "55"},
		{"type P struct{ A int }\nfunc (p P) M() int { return p.A }\nold := P{5}\nold.M()", "5"},
		{"type P struct{ A, B int }\nfunc (p P) M() int { return p.A + p.B }\nP{1, 2}.M()", "3"},
		{"old.M()", "5"},
		{"fmt.Sprint(P{3, 4})", "{3 4}"},
		{"func base() string { return \"changed signature\" }\nbase()", "changed signature"},
	}
	for i, c := range cells {
		res, _ := mustRun(t, s, c.code)
		if res != c.want {
			t.Errorf("cell %d %q: got %q, want %q", i, c.code, res, c.want)
		}
	}
	// A method redefined without its type keeps its first definition
	// (yaegi): the cell says so.
	var r recorder
	if _, err := s.Execute(t.Context(), "func (p P) M() int { return 0 }", &r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.text("stderr"), "method P.M is already defined") {
		t.Errorf("stderr %q: want a warning about P.M", r.text("stderr"))
	}
	// A redefined type warns that old values keep the old definition.
	r = recorder{}
	if _, err := s.Execute(t.Context(), "type P struct{ C int }", &r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.text("stderr"), "type P is redefined") {
		t.Errorf("stderr %q: want a warning about P", r.text("stderr"))
	}
	// Its methods come back from their own cell, silently.
	r = recorder{}
	b, err := s.Execute(t.Context(), "func (p P) M() int { return p.C * 2 }\nP{4}.M()", &r)
	if err != nil || b == nil || b.Data["text/plain"] != "8" || r.text("stderr") != "" {
		t.Errorf("method on the new P: got %v %v, stderr %q", b, err, r.text("stderr"))
	}
}

// TestConstantRedefinition checks that a constant declared again reaches
// the functions of earlier cells that use it, as a function declared again
// reaches its callers, and that a method, which the interpreter cannot
// declare again, keeps the old value with a warning at the cell's line.
func TestConstantRedefinition(t *testing.T) {
	s := newSession(t)
	cells := []struct{ code, want string }{
		{"const Width = 4\nfunc area() int { return Width * Width }\nfunc report() string { return fmt.Sprint(\"area \", area()) }\narea()", "16"},
		{"const Width = 5", ""},
		{"area()", "25"},
		{"report()", "area 25"},
		{"const (\n\tA = iota * 10\n\tB\n)\nfunc b() int { return B }\nb()", "10"},
		{"const (\n\tB = iota + 1\n\tA\n)\nb()", "1"},
	}
	for i, c := range cells {
		res, _ := mustRun(t, s, c.code)
		if res != c.want {
			t.Errorf("cell %d %q: got %q, want %q", i, c.code, res, c.want)
		}
	}
	mustRun(t, s, "type Sq struct{}\nfunc (Sq) Side() int { return Width }")
	var r recorder
	if _, err := s.Execute(t.Context(), "// a comment\nconst Width = 7", &r); err != nil {
		t.Fatal(err)
	}
	want := "interp: warning: cell line 2: constant Width declared again with another value; the methods Sq.Side of earlier cells keep the old value (the interpreter cannot change a method): run the cell that declares their type again\n"
	if got := r.text("stderr"); got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	if res, _ := mustRun(t, s, "area()"); res != "49" {
		t.Errorf("area() after Width = 7: got %s, want 49", res)
	}
}

// TestVariableRetyped checks that a variable declared again with another
// type warns, at its line, that the functions and methods of earlier
// cells that use it keep the old one, and that a function the cell
// declares again sees the new one.
func TestVariableRetyped(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "w := 2\nfunc f() int { return w }\nfunc g() int { return w + 1 }\ntype B struct{}\nfunc (B) M() int { return w * 10 }")
	var r recorder
	res, err := s.Execute(t.Context(), "w := \"s\"\nfunc g() string { return w + \"!\" }\nfmt.Sprint(f(), B{}.M(), g())", &r)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Data["text/plain"]; got != "2 20s!" {
		t.Errorf("value %q, want %q", got, "2 20s!")
	}
	want := "interp: warning: cell line 1:1: w declared again with type string (it had type int): B.M, f of earlier cells keep using the w they were compiled with; run the cells that declare them again, or give the new variable another name\n"
	if got := r.text("stderr"); got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	r = recorder{}
	if _, err := s.Execute(t.Context(), "w := \"t\"", &r); err != nil {
		t.Fatal(err)
	}
	if got := r.text("stderr"); got != "" {
		t.Errorf("declared again with the same type: stderr %q, want none", got)
	}
}

// TestInitAfterVars checks that the init functions of a cell without a
// package clause run after the variables that its first statements
// declare, as Go initializes package-level variables before init, and
// before its other statements.
func TestInitAfterVars(t *testing.T) {
	s := newSession(t)
	var r recorder
	code := "func init() { fmt.Println(\"init\", v, w) }\nvar v = 1\nw := v + 1\nfmt.Println(\"body\", v, w)\nvar late = 3\nfmt.Println(late)"
	if _, err := s.Execute(t.Context(), code, &r); err != nil {
		t.Fatal(err)
	}
	if got, want := r.text("stdout"), "init 1 2\nbody 1 2\n3\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
}

// TestNewSyntax checks Go 1.21/1.22 syntax yaegi lacks (docs/design.md:
// for i := range 3 panics inside yaegi's compiler).
func TestNewSyntax(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "n := 4\nvar n64 int64 = 3")
	cases := []struct{ code, want string }{
		{"sum := 0\nfor i := range 5 { sum += i }\nsum", "10"},
		{"c := 0\nfor range n { c++ }\nc", "4"},
		{"c2 := 0\nfor i := range n64 { c2 += int(i) }\nc2", "3"},
		{"c3 := 0\nfor i := range len(\"abc\") { c3 += i }\nc3", "3"},
		{"func count(k int) int { t := 0; for i := range k { t += i }; return t }\ncount(4)", "6"},
		{"xs := []int{7, 8}\nt := 0\nfor i, v := range xs { t += i * v }\nt", "8"},
		{"min(3, 1, 2)", "1"},
		{"max(2.5, 1)", "2.5"},
		{"min(1, 2.5)", "1"},
		{"a, b := 7, 4.5\nmin(a, 3)", "3"},
		{"max(b, 9)", "9"},
		{`min("b", "a")`, "a"},
		{"m := map[string]int{\"a\": 1}\nclear(m)\nlen(m)", "0"},
		{"sl := []int{1, 2}\nclear(sl)\nsl", "[0 0]"},
	}
	for i, c := range cases {
		res, _, err := run(t, s, c.code)
		if err != nil || res != c.want {
			t.Errorf("case %d %q: got %q (%v), want %q", i, c.code, res, err, c.want)
		}
	}
}

// TestStdin checks that reading os.Stdin asks the front end for a line.
func TestStdin(t *testing.T) {
	s := newSession(t)
	r := &recorder{inputs: []string{"gopher", "42"}}
	b, err := s.Execute(t.Context(), `
var name string
var n int
fmt.Print("name? ")
fmt.Scanln(&name)
fmt.Scanln(&n)
fmt.Sprint(name, n+1)
`, r)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Data["text/plain"]; got != "gopher43" {
		t.Errorf("got %q, want gopher43", got)
	}
	if len(r.prompts) != 2 {
		t.Errorf("got %d input requests, want 2", len(r.prompts))
	}
	// bufio over os.Stdin works too.
	r = &recorder{inputs: []string{"line one"}}
	b, err = s.Execute(t.Context(), "import \"bufio\"\nimport \"os\"\nline, _ := bufio.NewReader(os.Stdin).ReadString('\\n')\nline", r)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Data["text/plain"]; got != "line one\n" {
		t.Errorf("got %q, want %q", got, "line one\n")
	}
}

// TestStreaming checks that output arrives while the cell runs, in batches.
func TestStreaming(t *testing.T) {
	s := newSession(t)
	var r recorder
	start := time.Now()
	_, err := s.Execute(t.Context(), `
import "time"
import "log"
for i := 0; i < 6; i++ {
	for j := 0; j < 100; j++ { fmt.Print("x") }
	fmt.Println()
	time.Sleep(60 * time.Millisecond)
}
log.SetFlags(0)
log.Println("to stderr")
`, &r)
	if err != nil {
		t.Fatal(err)
	}
	end := time.Since(start)
	out := r.text("stdout")
	if want := strings.Repeat(strings.Repeat("x", 100)+"\n", 6); out != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
	if got := r.text("stderr"); got != "to stderr\n" {
		t.Errorf("stderr %q", got)
	}
	var n int
	var first time.Duration
	for _, e := range r.streams {
		if e.name == "stdout" {
			if n == 0 {
				first = e.at.Sub(start)
			}
			n++
		}
	}
	// 600 characters in ~6 batches: not one per character, not one at the end.
	if n < 3 || n > 20 {
		t.Errorf("got %d stdout messages, want a few batches", n)
	}
	if first > end/2 {
		t.Errorf("first output after %v of %v: not streamed", first, end)
	}
}

// TestInterpreterTraps runs, as cells, the shapes of Go that yaegi got
// wrong behind the planner's back (found by yaegi's own test programs):
// each gives what go run gives.
func TestInterpreterTraps(t *testing.T) {
	cases := []struct{ name, code, want string }{
		{"a type declared from a later type", "type T1 T\ntype T struct{ Name string }\nfunc foo() T1 { return T1(T{\"foo\"}) }\nfoo().Name", "foo"},
		{"an array length from a later constant", "type t1 uint8\ntype T struct{ elem [n2 + 1]int }\nconst (\n\tn1 t1 = iota\n\tn2\n)\nlen(T{}.elem)", "2"},
		{"a function returning nil as an interface beside a value", "type obj struct{ num float64 }\nfunc numFun(fn func(float64) float64) func(*obj) (*obj, error) {\n\treturn func(o *obj) (*obj, error) { return &obj{fn(o.num)}, nil }\n}\nr, err := numFun(math.Cos)(&obj{})\nfmt.Sprint(r, err)", "&{1} <nil>"},
		{"var a, b = f() in a program", "package main\nfunc r2() (int, int) { return 1, 2 }\nvar a, b int = r2()\nfunc main() { fmt.Println(a, b) }", ""},
		{"a function literal in a program's initializer", "package main\nimport \"sync\"\nvar pool = sync.Pool{New: func() any { for i := 0; i < 2; i++ {}; return mk() }}\nfunc mk() any { return 7 }\nfunc main() { fmt.Println(pool.Get()) }", ""},
	}
	wantOut := map[string]string{
		"var a, b = f() in a program":                   "1 2\n",
		"a function literal in a program's initializer": "7\n",
	}
	for _, c := range cases {
		s := newSession(t)
		res, out, err := run(t, s, c.code)
		if err != nil || res != c.want || out != wantOut[c.name] {
			t.Errorf("%s: got %q, stdout %q (%v), want %q, stdout %q", c.name, res, out, err, c.want, wantOut[c.name])
		}
	}
}
