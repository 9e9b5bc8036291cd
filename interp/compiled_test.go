package interp

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gotensor/gotensor/kernel"
)

// Compiled cells (Options.Compile): the cells worth compiling run as Go
// built by the toolchain, the others in the interpreter, with the state of
// both kept. Each test's expected values are Go's (what `go run` prints for
// the same code), written out by hand.

// newCompiledSession returns a session that compiles cells; it skips the
// test where no Go toolchain can build them.
func newCompiledSession(t *testing.T) *Session {
	t.Helper()
	if testing.Short() {
		t.Skip("compiled cells build plugins (seconds each): run without -short")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("compiled cells need the go command")
	}
	s, err := New(Options{Compile: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// runErr runs a cell and returns its result, stdout, stderr and error.
func runErr(t *testing.T, s *Session, code string) (res, stdout, stderr string, err error) {
	t.Helper()
	var r recorder
	b, err := s.Execute(context.Background(), code, &r)
	if b != nil {
		res, _ = b.Data["text/plain"].(string)
	}
	return res, r.text("stdout"), r.text("stderr"), err
}

// TestCompiledState runs compiled and interpreted cells side by side: a
// type with unexported fields and methods, functions that read the
// interpreter's variables, glue that reads and writes the compiled cells'
// variables and fields and calls their functions, and fmt's view of the
// compiled values, which is Go's.
func TestCompiledState(t *testing.T) {
	s := newCompiledSession(t)
	cells := []struct{ code, result, stdout string }{
		{"n := 5", "", ""},
		{`type point struct{ x, y float64 }
func (p point) norm() float64 { return math.Hypot(p.x, p.y) }
func (p *point) scale(k float64) { p.x *= k; p.y *= k }
func sumsq(k int) float64 { s := 0.0; for i := 0; i < k; i++ { s += float64(i * n) }; return s }
ps := []point{{3, 4}, {6, 8}}
fmt.Println(ps[0].norm(), sumsq(3))
sumsq(4)`, "30", "5 15\n"},
		// A later compiled cell: an earlier cell's unexported fields and
		// methods, its variable, a loop at the top level.
		{`func total() float64 { t := 0.0; for _, p := range ps { t += p.x + p.norm() }; return t }
q := point{x: 5}
q.y = 12
for i := range ps { ps[i].scale(2) }
total()`, "48", ""},
		// Glue: interpreted, with the compiled cells' names.
		{"fmt.Printf(\"%T %v %+v %#v\\n\", q, q, ps[0], q)\nlen(ps)", "2", "main.point {5 12} {x:6 y:8} main.point{x:5, y:12}\n"},
		// Glue that uses an unexported field is compiled.
		{"q.x + q.y", "17", ""},
		{"n = 10\nsumsq(4)", "60", ""},
		{"ps = append(ps, point{1, 1})\ntotal()", "50.41421356237309", ""},
	}
	for i, c := range cells {
		res, out := mustRun(t, s, c.code)
		if res != c.result || out != c.stdout {
			t.Errorf("cell %d %q: got result %q stdout %q, want %q %q", i+1, c.code, res, out, c.result, c.stdout)
		}
	}
}

// TestCompiledRedefine declares a function again: with the same signature,
// the functions compiled before call the new one; with another, they keep
// the old one. A type declared again is a new type, and old values keep
// the old one, as in interpreted cells.
func TestCompiledRedefine(t *testing.T) {
	s := newCompiledSession(t)
	mustRun(t, s, "func f(x int) int { return x + 1 }\nfunc g(x int) int { return 2 * f(x) }")
	if res, _ := mustRun(t, s, "g(3)"); res != "8" {
		t.Errorf("g(3) = %s, want 8", res)
	}
	mustRun(t, s, "func f(x int) int { return x * 10 }")
	if res, _ := mustRun(t, s, "g(3)"); res != "60" {
		t.Errorf("after f is declared again, g(3) = %s, want 60", res)
	}
	mustRun(t, s, "func f(x int) string { return \"s\" }")
	if res, _ := mustRun(t, s, "g(3)"); res != "60" {
		t.Errorf("after f is declared with another signature, g(3) = %s, want 60 (the old f)", res)
	}
	if res, _ := mustRun(t, s, "f(3)"); res != "s" {
		t.Errorf("f(3) = %s, want s", res)
	}
	// The same cell run again is the same package: nothing to build.
	cell := "type box struct{ w int }\nfunc (b box) area() int { return b.w * b.w }\nbx := box{3}\nbx.area()"
	mustRun(t, s, cell)
	start := time.Now()
	if res, _ := mustRun(t, s, cell); res != "9" {
		t.Errorf("the cell run again gives %s, want 9", res)
	}
	t.Logf("running a compiled cell again took %v", time.Since(start))
}

// TestCompiledPanic checks that a panic in compiled code ends the cell
// with Go's error and the cells' lines, and the session lives on.
func TestCompiledPanic(t *testing.T) {
	s := newCompiledSession(t)
	mustRun(t, s, "func at(xs []int, i int) int {\n\treturn xs[i]\n}")
	_, _, _, err := runErr(t, s, "xs := []int{1, 2}\nfor i := 0; i < 3; i++ {\n\tat(xs, i)\n}")
	e, ok := err.(*kernel.Error)
	if !ok {
		t.Fatalf("got %v, want a *kernel.Error", err)
	}
	if e.Value != "runtime error: index out of range [2] with length 2" {
		t.Errorf("error value %q", e.Value)
	}
	tb := strings.Join(e.Traceback, "\n")
	if !strings.Contains(tb, "line 2 in at") || !strings.Contains(tb, "at cell line 3") {
		t.Errorf("traceback does not name the lines:\n%s", tb)
	}
	if res, _ := mustRun(t, s, "at(xs, 1)"); res != "2" {
		t.Errorf("after the panic, at(xs, 1) = %s", res)
	}
	// A goroutine's panic is reported; the cell and the session go on.
	_, _, stderr, err := runErr(t, s, "import \"time\"\ndone := make(chan bool)\nfor i := 0; i < 1; i++ {\n\tgo func() { defer close(done); panic(\"boom\") }()\n}\n<-done\ntime.Sleep(50 * time.Millisecond)\n1")
	if err != nil {
		t.Fatalf("goroutine panic ended the cell: %v", err)
	}
	if !strings.Contains(stderr, "panic in goroutine: panic: boom") {
		t.Errorf("stderr %q does not report the goroutine's panic", stderr)
	}
}

// TestCompiledInterrupt interrupts a compiled loop that never ends: the
// cell stops, and the functions compiled before still work.
func TestCompiledInterrupt(t *testing.T) {
	s := newCompiledSession(t)
	mustRun(t, s, "func spin() int { n := 0; for { n++ }; return n }\nfunc one() int { return 1 }")
	ctx, cancel := context.WithCancel(context.Background())
	var r recorder
	done := make(chan error, 1)
	go func() {
		_, err := s.Execute(ctx, "spin()", &r)
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if e, ok := err.(*kernel.Error); !ok || e.Name != "Interrupted" {
			t.Fatalf("got %v, want Interrupted", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the compiled loop did not stop")
	}
	if res, _ := mustRun(t, s, "one()"); res != "1" {
		t.Errorf("after the interrupt one() = %s", res)
	}
	// A top-level loop of a compiled cell stops too.
	ctx, cancel = context.WithCancel(context.Background())
	go func() {
		_, err := s.Execute(ctx, "k := 0\nfor k >= 0 {\n\tk++\n}", &r)
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	cancel()
	if e, ok := (<-done).(*kernel.Error); !ok || e.Name != "Interrupted" {
		t.Fatalf("the top-level loop: got %v, want Interrupted", e)
	}
	// A loop in a function literal, and one made with goto, stop too:
	// each function checks the flag through a pointer of its own.
	mustRun(t, s, "func spinLit() { f := func() { for {} }; f() }\nfunc spinGoto() int { n := 0\nL:\n\tn++\n\tgoto L }")
	for _, call := range []string{"spinLit()", "spinGoto()"} {
		ctx, cancel = context.WithCancel(context.Background())
		go func() {
			_, err := s.Execute(ctx, call, &r)
			done <- err
		}()
		time.Sleep(300 * time.Millisecond)
		cancel()
		if e, ok := (<-done).(*kernel.Error); !ok || e.Name != "Interrupted" {
			t.Fatalf("%s: got %v, want Interrupted", call, e)
		}
	}
}

// TestCompiledEnds checks what ends a compiled cell and not the session:
// runaway recursion, os.Exit, log.Fatal.
func TestCompiledEnds(t *testing.T) {
	s := newCompiledSession(t)
	_, _, _, err := runErr(t, s, "func down(n int) int { return down(n+1) + 1 }\ndown(0)")
	if e, ok := err.(*kernel.Error); !ok || e.Name != "RecursionError" || !strings.Contains(e.Value, "down") {
		t.Errorf("runaway recursion: got %v", err)
	}
	_, out, _, err := runErr(t, s, "import \"os\"\nfunc quit() { fmt.Println(\"bye\"); os.Exit(3) }\nquit()")
	if e, ok := err.(*kernel.Error); !ok || e.Value != "exit status 3" || out != "bye\n" {
		t.Errorf("os.Exit: got %v, stdout %q", err, out)
	}
	if res, _ := mustRun(t, s, "func alive() string { return \"yes\" }\nalive()"); res != "yes" {
		t.Errorf("the session after os.Exit: %q", res)
	}
}

// TestCompiledTensor runs the evaluation loop that PyTorch users write
// with torch.no_grad(), in a compiled cell: a closure handed to
// tensor.NoGrad writes its iteration's variable.
func TestCompiledTensor(t *testing.T) {
	s := newCompiledSession(t)
	mustRun(t, s, "x := tensor.FromFloat32s([]float32{1, 2, 3}, 3).SetRequiresGrad(true)")
	_, out := mustRun(t, s, `import "strings"
func scaled(k int) []float32 {
	var p []float32
	tensor.NoGrad(func() { p = x.MulScalar(float64(k)).Float32s() })
	return p
}
var got []string
for len(got) < 3 {
	got = append(got, fmt.Sprint(scaled(len(got)+1)))
}
fmt.Println(strings.Join(got, " "))`)
	if want := "[1 2 3] [2 4 6] [3 6 9]\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

// TestCompiledWithoutToolchain checks the path of a server with only the
// kernel binary: no go command. Cells run in the interpreter, and the
// session says so once.
func TestCompiledWithoutToolchain(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("GOROOT", t.TempDir())
	s, err := New(Options{Compile: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, _, stderr, err := runErr(t, s, "func sq(x int) int { return x * x }\nsq(7)")
	if err != nil || res != "49" {
		t.Fatalf("got %q, %v", res, err)
	}
	if !strings.Contains(stderr, "cells run in the interpreter") || !strings.Contains(stderr, "Go") {
		t.Errorf("the session did not say why cells are interpreted: %q", stderr)
	}
	_, _, stderr, _ = runErr(t, s, "func cube(x int) int { return x * x * x }\ncube(2)")
	if strings.Contains(stderr, "interpreter") {
		t.Errorf("the note came twice: %q", stderr)
	}
}

// TestCompiledFallback runs a cell worth compiling that compiled cells
// cannot do (a dot import): it runs in the interpreter, with a warning
// that says why.
func TestCompiledFallback(t *testing.T) {
	s := newCompiledSession(t)
	res, _, stderr, err := runErr(t, s, "import . \"strings\"\nfunc up(s string) string { return ToUpper(s) }\nup(\"go\")")
	if err != nil || res != "GO" {
		t.Fatalf("got %q, %v", res, err)
	}
	if !strings.Contains(stderr, "runs in the interpreter") || !strings.Contains(stderr, "dot import") {
		t.Errorf("stderr %q does not say why the cell is interpreted", stderr)
	}
}

// TestCompiledMethodsLater declares a type's methods in later cells than
// the type, one a cell, as notebooks often do: each cell declares the
// compiled type again with all its methods.
func TestCompiledMethodsLater(t *testing.T) {
	s := newCompiledSession(t)
	mustRun(t, s, "// vec is a point of the plane.\ntype vec struct{ x, y float64 }")
	mustRun(t, s, "func (v vec) add(w vec) vec { return vec{v.x + w.x, v.y + w.y} }")
	mustRun(t, s, "func (v vec) norm() float64 { return math.Hypot(v.x, v.y) }")
	if res, _ := mustRun(t, s, "vec{3, 0}.add(vec{0, 4}).norm()"); res != "5" {
		t.Errorf("got %s, want 5", res)
	}
	// A method declared again replaces the old one.
	mustRun(t, s, "func (v vec) norm() float64 { return math.Abs(v.x) + math.Abs(v.y) }")
	if res, _ := mustRun(t, s, "vec{3, 0}.add(vec{0, 4}).norm()"); res != "7" {
		t.Errorf("after norm is declared again: got %s, want 7", res)
	}
}

// TestDebugBreakpointInCompiledCell sets a breakpoint in a function that a
// compiled cell declared before the debugger attached: while it is
// attached, cells run in the interpreter, which declares the compiled
// cells' functions again at their lines, so the breakpoint stops.
func TestDebugBreakpointInCompiledCell(t *testing.T) {
	s := newCompiledSession(t)
	cell1 := "func f(a int) int {\n\tb := a * 2\n\treturn b + 1\n}"
	mustRun(t, s, cell1)
	c := newDAPClient(t, s)
	c.start()
	c.breakAt(cell1, 3)
	var r recorder
	done := runAsync(s, "x := 10\ny := f(x)\nfmt.Println(y)", &r)
	c.stopped()
	names, frames := c.stack()
	if len(names) < 2 || names[0] != "f:3" || names[1] != "<cell>:2" {
		t.Fatalf("stack = %v, want [f:3 <cell>:2]", names)
	}
	if locals := c.vars(frames[0]["id"].(float64), "Locals"); locals["a"]["value"] != "10" || locals["b"]["value"] != "20" {
		t.Errorf("locals = %v, want a=10 b=20", locals)
	}
	c.Body("continue", map[string]any{"threadId": 1})
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	s.flushStreams()
	if got := r.text("stdout"); got != "21\n" {
		t.Errorf("stdout %q, want 21", got)
	}
	c.Body("disconnect", map[string]any{"restart": false})
	if _, out := mustRun(t, s, "fmt.Println(f(1))"); out != "3\n" {
		t.Errorf("after disconnect: %q", out)
	}
}

// TestCompiledImports checks that a compiled cell's imports are the
// session's: a later interpreted cell uses them.
func TestCompiledImports(t *testing.T) {
	s := newCompiledSession(t)
	mustRun(t, s, "import (\"strings\"; \"sort\")\nfunc up(s string) string { return strings.ToUpper(s) }")
	if res, _ := mustRun(t, s, "xs := []string{\"b\", \"a\"}\nsort.Strings(xs)\nstrings.Join(xs, up(\"-\"))"); res != "a-b" {
		t.Errorf("got %q, want a-b", res)
	}
}

// TestCompiledVariablesFromGlue assigns a compiled cell's variables of
// basic types from interpreted cells.
func TestCompiledVariablesFromGlue(t *testing.T) {
	s := newCompiledSession(t)
	mustRun(t, s, "var done bool\ncount, name := 0, \"a\"\nfunc report() string { return fmt.Sprint(done, count, name) }")
	mustRun(t, s, "done = true\ncount++\ncount += 2\nname += \"b\"\np := &count\n*p *= 10")
	if res, _ := mustRun(t, s, "report()"); res != "true 30ab" {
		t.Errorf("got %q, want true 30ab (Sprint puts no space before a string)", res)
	}
}

// TestCloseEndsPreload: a session that closes while its builder's go
// list runs in the background (Preload) ends that command: once Close
// returns, every go command the session started has been waited for.
func TestCloseEndsPreload(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("compiled cells need the go command")
	}
	started := make(chan *exec.Cmd, 16)
	goCommandStarted = func(c *exec.Cmd) { started <- c }
	defer func() { goCommandStarted = nil }()
	s, err := New(Options{Compile: true})
	if err != nil {
		t.Fatal(err)
	}
	s.comp.start()
	ready := s.comp.ready
	var cmds []*exec.Cmd
	for list := false; !list; {
		select {
		case c := <-started:
			cmds = append(cmds, c)
			list = slices.Contains(c.Args, "list")
		case <-ready:
			if s.comp.err != nil {
				s.Close()
				t.Skip("no compiled cells here: ", s.comp.err)
			}
			ready = nil // wait for the commands
		case <-time.After(2 * time.Minute):
			s.Close()
			t.Fatalf("the builder started no go list in 2 minutes (commands: %d)", len(cmds))
		}
	}
	s.Close()
	for _, c := range cmds {
		if c.ProcessState == nil {
			t.Errorf("%s still runs after the session closed", strings.Join(c.Args, " "))
		}
	}
}
