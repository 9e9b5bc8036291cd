package interp

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gotensor/gotensor/kernel"
)

// TestSurvival runs each thing issue 15 lists that would end a Go program
// (os.Exit, log.Fatal, runtime.Goexit, runaway recursion, a make larger
// than memory), in the cell's own code, in a function it calls and in a
// goroutine it starts: each ends its cell with an error, output written
// before comes first, and the session's variables, functions, types and
// GPU tensors (on the emulated device) are as they were.
func TestSurvival(t *testing.T) {
	s := newSession(t)
	if res, _ := mustRun(t, s, "cuda.UseEmulator(cuda.EmulatorConfig{Memory: 64 << 20})"); res != "<nil>" && !strings.Contains(res, "already in use") {
		t.Fatalf("UseEmulator: %s", res)
	}
	mustRun(t, s, `import ("os"; "log"; "runtime"; "time")
keep := tensor.Ones(2, 2)
g := tensor.Ones(2, 2).To(tensor.CUDA(0))
type point struct{ X, Y int }
func (p point) Sum() int { return p.X + p.Y }
func twice(n int) int { return 2 * n }
func deep(n int) int { return deep(n+1) + 1 }
func quit(code int) { defer fmt.Println("deferred: must not run"); os.Exit(code) }
log.SetFlags(0)`)
	const check = `fmt.Sprint(keep.Sum().Item(), " ", g.Sum().Item(), " ", g.Device(), " ", point{1, 2}.Sum(), " ", twice(21))`
	const want = "4 4 cuda:0 3 42"
	cases := []struct {
		name, code   string
		ename, value string // the error: its name and a substring of its value
		stdout       string // what the cell printed before, all of it
		stderr       string // a substring of its stderr
	}{
		{"os.Exit", "fmt.Println(\"before\")\ndefer fmt.Println(\"deferred: must not run\")\nos.Exit(3)\nfmt.Println(\"after\")", "Exit", "exit status 3", "before\n", ""},
		{"os.Exit in a function", "fmt.Println(\"before\")\nquit(4)", "Exit", "exit status 4", "before\n", ""},
		{"os.Exit in a goroutine", "fmt.Println(\"before\")\ngo quit(5)\ntime.Sleep(10 * time.Second)\nfmt.Println(\"after\")", "Exit", "exit status 5", "before\n", ""},
		{"os.Exit in a goroutine, the cell blocked", "block := make(chan int)\ngo func() { os.Exit(6) }()\n<-block", "Exit", "exit status 6", "", ""},
		{"os.Exit(0)", "fmt.Println(\"before\")\nos.Exit(0)\nfmt.Println(\"after\")", "", "", "before\n", ""},
		{"a panic in a goroutine", "go func() { panic(\"in goroutine\") }()\ntime.Sleep(3 * time.Second)", "", "", "", "panic in goroutine: panic: in goroutine"},
		{"log.Fatal", "fmt.Println(\"before\")\nlog.Fatal(\"boom\")", "Exit", "exit status 1", "before\n", "boom\n"},
		{"log.Fatalf in a goroutine", "go func() { log.Fatalf(\"boom %d\", 2) }()\ntime.Sleep(10 * time.Second)", "Exit", "exit status 1", "", "boom 2\n"},
		{"log.Panic", "log.Panic(\"boom\")", "panic", "boom", "", "boom\n"},
		{"runtime.Goexit", "fmt.Println(\"before\")\nruntime.Goexit()\nfmt.Println(\"after\")", "Goexit", "runtime.Goexit", "before\n", ""},
		{"runaway recursion", "deep(0)", "RecursionError", "runaway recursion: deep went deeper than 10000 nested calls", "", ""},
		{"runaway recursion in a goroutine", "go deep(0)\ntime.Sleep(10 * time.Second)", "RecursionError", "runaway recursion: deep went deeper than 10000 nested calls", "", ""},
		{"runaway recursion of a literal", "var f func(int) int\nf = func(n int) int { return f(n+1) }\nf(0)", "RecursionError", "func literal went deeper", "", ""},
		{"make too large", "b := make([]byte, 1<<42)\nlen(b)", "panic", "runtime error: out of memory: make([]byte, 4398046511104) needs 4.0 TiB and the host has", "", ""},
		{"make too large in a goroutine", "go func() { _ = make([]float64, 1<<40) }()\ntime.Sleep(3 * time.Second)", "", "", "", "make([]float64, 1099511627776) needs 8.0 TiB"},
		{"a map too large", "n := 1 << 40\nm := make(map[int]int, n)\nlen(m)", "panic", "make(map[int]int, 1099511627776) needs", "", ""},
	}
	for _, c := range cases {
		start := time.Now()
		var r recorder
		_, err := s.Execute(t.Context(), c.code, &r)
		took := time.Since(start)
		var e *kernel.Error
		switch {
		case c.ename == "" && err != nil:
			t.Errorf("%s: got %v, want no error", c.name, err)
		case c.ename != "" && (!errors.As(err, &e) || e.Name != c.ename || !strings.Contains(e.Value, c.value)):
			t.Errorf("%s: got %#v, want %s: ...%s...", c.name, err, c.ename, c.value)
		}
		if out := r.text("stdout"); out != c.stdout {
			t.Errorf("%s: stdout %q, want %q", c.name, out, c.stdout)
		}
		if errOut := r.text("stderr"); !strings.Contains(errOut, c.stderr) {
			t.Errorf("%s: stderr %q, want it to hold %q", c.name, errOut, c.stderr)
		}
		t.Logf("%s: %v in %v", c.name, err, took)
		if res, _ := mustRun(t, s, check); res != want {
			t.Errorf("%s: after it, %s = %q, want %q", c.name, check, res, want)
		}
	}
	// The limit is a setting of the session.
	if _, out := mustRun(t, s, "%maxdepth 50"); out != "recursion limit: 50 nested calls\n" {
		t.Errorf("%%maxdepth 50 printed %q", out)
	}
	_, _, err := run(t, s, "deep(0)")
	if e, ok := err.(*kernel.Error); !ok || !strings.Contains(e.Value, "deeper than 50 nested calls") {
		t.Errorf("with %%maxdepth 50: %v", err)
	}
	if res, _ := mustRun(t, s, "func down(n int) int { if n == 0 { return 0 }; return down(n-1) + 1 }\ndown(49)"); res != "49" {
		t.Errorf("49 nested calls under a limit of 50: %q", res)
	}
}
