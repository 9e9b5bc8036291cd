package interp

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gotensor/gotensor/kernel"
	"github.com/gotensor/gotensor/kernel/debugtest"
)

// dapClient drives a session's debugger as JupyterLab does, through the
// kernel's side of the protocol, as the kernel makes it.
type dapClient struct {
	*debugtest.Client
	t *testing.T
	s *Session
	// continued counts the continued events read before the last stopped
	// event.
	continued int
}

func newDAPClient(t *testing.T, s *Session) *dapClient {
	return &dapClient{Client: debugtest.NewClient(t, kernel.NewDebugAdapter(s), 100), t: t, s: s}
}

// stopped waits for the next stopped event and returns its body.
func (c *dapClient) stopped() map[string]any {
	c.t.Helper()
	timeout := time.After(20 * time.Second)
	c.continued = 0
	for {
		select {
		case e := <-c.Events:
			if e["event"] == "continued" {
				c.continued++
			}
			if e["event"] == "stopped" {
				return e["body"].(map[string]any)
			}
		case <-timeout:
			c.t.Fatal("no stopped event within 20 s")
		}
	}
}

// top returns the stack of thread 1, innermost first, as "name:line".
func (c *dapClient) stack() ([]string, []map[string]any) {
	c.t.Helper()
	body := c.Body("stackTrace", map[string]any{"threadId": 1})
	var names []string
	var frames []map[string]any
	for _, f := range body["stackFrames"].([]any) {
		m := f.(map[string]any)
		frames = append(frames, m)
		names = append(names, m["name"].(string)+":"+strconv.Itoa(int(m["line"].(float64))))
	}
	return names, frames
}

// vars returns the variables of a frame's scope as name → value.
func (c *dapClient) vars(frameID float64, scope string) map[string]map[string]any {
	c.t.Helper()
	body := c.Body("scopes", map[string]any{"frameId": frameID})
	for _, s := range body["scopes"].([]any) {
		sm := s.(map[string]any)
		if sm["name"] != scope {
			continue
		}
		vb := c.Body("variables", map[string]any{"variablesReference": sm["variablesReference"]})
		out := map[string]map[string]any{}
		for _, v := range vb["variables"].([]any) {
			vm := v.(map[string]any)
			out[vm["name"].(string)] = vm
		}
		return out
	}
	c.t.Fatalf("no scope %s in %v", scope, body)
	return nil
}

func (c *dapClient) start() {
	c.Body("initialize", map[string]any{"clientID": "test", "adapterID": "", "pathFormat": "path", "linesStartAt1": true, "columnsStartAt1": true})
	c.Body("attach", map[string]any{})
	c.Body("configurationDone", nil)
}

// breakAt dumps cell, sets breakpoints on its lines and returns its path.
func (c *dapClient) breakAt(cell string, lines ...int) string {
	c.t.Helper()
	path := c.Body("dumpCell", map[string]any{"code": cell})["sourcePath"].(string)
	var bps []any
	for _, l := range lines {
		bps = append(bps, map[string]any{"line": l})
	}
	c.Body("setBreakpoints", map[string]any{"source": map[string]any{"path": path}, "breakpoints": bps})
	return path
}

// runAsync runs a cell in a goroutine and returns its result channel.
func runAsync(s *Session, code string, r *recorder) chan error {
	done := make(chan error, 1)
	go func() {
		_, err := s.Execute(context.Background(), code, r)
		done <- err
	}()
	return done
}

func wait(t *testing.T, done chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("the cell did not end within 20 s")
	}
	return nil
}

func TestDebugBreakpointInEarlierCell(t *testing.T) {
	s := newSession(t)
	cell1 := "func f(a int) int {\n\tb := a * 2\n\treturn b + 1\n}"
	mustRun(t, s, cell1)
	c := newDAPClient(t, s)
	c.start()
	info := c.Body("debugInfo", nil)
	if info["hashMethod"] != "Murmur2" || info["tmpFileSuffix"] != ".go" {
		t.Errorf("debugInfo = %v", info)
	}
	// The path of a cell (prefix + murmur2 + suffix) is the kernel's
	// (kernel.TestDebugAdapter).
	path1 := c.Body("dumpCell", map[string]any{"code": cell1})["sourcePath"].(string)
	bp := c.Body("setBreakpoints", map[string]any{"source": map[string]any{"path": path1}, "breakpoints": []any{map[string]any{"line": 3}}})
	if b := bp["breakpoints"].([]any)[0].(map[string]any); b["verified"] != true || b["line"] != 3.0 {
		t.Errorf("setBreakpoints = %v", bp)
	}

	cell2 := "x := 10\ny := f(x)\nfmt.Println(y)"
	path2 := c.Body("dumpCell", map[string]any{"code": cell2})["sourcePath"].(string)
	var r recorder
	done := runAsync(s, cell2, &r)
	ev := c.stopped()
	if ev["reason"] != "breakpoint" || ev["threadId"] != 1.0 {
		t.Errorf("stopped = %v", ev)
	}
	names, frames := c.stack()
	if len(names) < 2 || names[0] != "f:3" || names[1] != "<cell>:2" {
		t.Fatalf("stack = %v, want [f:3 <cell>:2]", names)
	}
	if p := frames[0]["source"].(map[string]any)["path"]; p != path1 {
		t.Errorf("frame 0 source %v, want %s", p, path1)
	}
	if p := frames[1]["source"].(map[string]any)["path"]; p != path2 {
		t.Errorf("frame 1 source %v, want %s", p, path2)
	}
	locals := c.vars(frames[0]["id"].(float64), "Locals")
	if locals["a"]["value"] != "10" || locals["b"]["value"] != "20" {
		t.Errorf("locals = %v, want a=10 b=20", locals)
	}
	globals := c.vars(frames[0]["id"].(float64), "Globals")
	if globals["x"]["value"] != "10" {
		t.Errorf("globals = %v, want x=10", globals)
	}
	ev1 := c.Body("evaluate", map[string]any{"expression": "b", "frameId": frames[0]["id"]})
	if ev1["result"] != "20" {
		t.Errorf("evaluate b = %v", ev1)
	}
	if r := c.Request("evaluate", map[string]any{"expression": "b + 1", "frameId": frames[0]["id"]}); r["success"] != false {
		t.Errorf("evaluate of an expression = %v, want a refusal", r)
	}

	// Step over: out of f, back in the cell, on to its next line.
	c.Body("next", map[string]any{"threadId": 1})
	c.stopped()
	if c.continued != 1 {
		t.Errorf("%d continued events before the step's stop, want 1", c.continued)
	}
	names, _ = c.stack()
	if names[0] != "<cell>:2" {
		t.Errorf("after next, stack = %v, want <cell>:2 first", names)
	}
	c.Body("next", map[string]any{"threadId": 1})
	c.stopped()
	names, _ = c.stack()
	if names[0] != "<cell>:3" {
		t.Errorf("after a second next, stack = %v, want <cell>:3 first", names)
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
	// After the session the cell runs without stopping.
	if _, out := mustRun(t, s, "fmt.Println(f(1))"); out != "3\n" {
		t.Errorf("after disconnect: %q", out)
	}
}

func TestDebugStepIn(t *testing.T) {
	s := newSession(t)
	cell1 := "func g(a int) int {\n\tb := a + 1\n\treturn b * 2\n}"
	mustRun(t, s, cell1)
	c := newDAPClient(t, s)
	c.start()
	cell2 := "n := 4\nm := g(n)\nfmt.Println(m)"
	c.breakAt(cell2, 2)
	var r recorder
	done := runAsync(s, cell2, &r)
	c.stopped()
	if names, _ := c.stack(); names[0] != "<cell>:2" {
		t.Fatalf("stack = %v", names)
	}
	c.Body("stepIn", map[string]any{"threadId": 1})
	c.stopped()
	if names, _ := c.stack(); names[0] != "g:2" {
		t.Errorf("after stepIn, stack = %v, want g:2 first", names)
	}
	c.Body("next", map[string]any{"threadId": 1})
	c.stopped()
	names, frames := c.stack()
	if names[0] != "g:3" {
		t.Errorf("after next, stack = %v, want g:3 first", names)
	}
	if l := c.vars(frames[0]["id"].(float64), "Locals"); l["b"]["value"] != "5" {
		t.Errorf("locals = %v, want b=5", l)
	}
	c.Body("stepOut", map[string]any{"threadId": 1})
	c.stopped()
	if names, _ := c.stack(); names[0] != "<cell>:2" && names[0] != "<cell>:3" {
		t.Errorf("after stepOut, stack = %v, want the cell first", names)
	}
	c.Body("disconnect", nil)
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
}

func TestDebugTensorVariable(t *testing.T) {
	s := newSession(t)
	c := newDAPClient(t, s)
	c.start()
	cell := "x := tensor.Ones(2, 3)\nimg := tensor.Zeros(1, 8, 8)\nfmt.Println(x.Shape())"
	c.breakAt(cell, 3)
	var r recorder
	done := runAsync(s, cell, &r)
	c.stopped()
	_, frames := c.stack()
	g := c.vars(frames[0]["id"].(float64), "Globals")
	if v := g["x"]["value"].(string); !strings.HasPrefix(v, "[2 3] float32 cpu") {
		t.Errorf("x shows %q, want its shape, dtype and device", v)
	}
	rich := c.Body("richInspectVariables", map[string]any{"variableName": "x", "frameId": frames[0]["id"]})
	html, _ := rich["data"].(map[string]any)["text/html"].(string)
	if strings.Count(html, "<tr") < 2 || !strings.Contains(html, "1") {
		t.Errorf("rich view of x: %v", rich)
	}
	rich = c.Body("richInspectVariables", map[string]any{"variableName": "img", "frameId": frames[0]["id"]})
	if _, ok := rich["data"].(map[string]any)["image/png"]; !ok {
		t.Errorf("rich view of an image tensor: %v", rich)
	}
	c.Body("continue", map[string]any{"threadId": 1})
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	vars := c.Body("inspectVariables", nil)["variables"].([]any)
	if len(vars) != 2 {
		t.Errorf("inspectVariables = %v, want x and img", vars)
	}
	c.Body("disconnect", nil)
}

// TestDebugRichValue checks that, while the debugger is attached, a cell
// whose value has a display method of its type shows as it does without
// the debugger: the method runs once the cell's step has run under
// yaegi's debugger, and a breakpoint in it stops there.
func TestDebugRichValue(t *testing.T) {
	s := newSession(t)
	decl := "type card struct{ title string }\nfunc (c card) HTML() string {\n\treturn \"<b>\" + c.title + \"</b>\"\n}"
	mustRun(t, s, decl)
	c := newDAPClient(t, s)
	c.start()
	b, err := s.Execute(context.Background(), `card{"hi"}`, &recorder{})
	if err != nil || b == nil || b.Data["text/html"] != "<b>hi</b>" {
		t.Fatalf("card{\"hi\"} under the debugger: %v, %v; want its HTML <b>hi</b>", b, err)
	}
	c.breakAt(decl, 3)
	var r recorder
	done := runAsync(s, `card{"stop"}`, &r)
	if body := c.stopped(); body["reason"] != "breakpoint" {
		t.Errorf("stopped %v, want at the breakpoint in HTML", body)
	}
	c.Body("continue", map[string]any{"threadId": 1})
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	c.Body("disconnect", nil)
}

// TestDebugCellFrameLocals checks the first scope of a cell's own frame,
// the one JupyterLab's Variables panel shows: the session's variables,
// those of earlier cells and those the cell declares, and a loop's
// variable.
func TestDebugCellFrameLocals(t *testing.T) {
	s := newSession(t)
	var r recorder
	if _, err := s.Execute(context.Background(), "t := tensor.Ones(2, 3)", &r); err != nil {
		t.Fatal(err)
	}
	c := newDAPClient(t, s)
	c.start()
	cell := "u := t.Mul(t)\nn := 7\nfor i := 40; i < 41; i++ {\n\tn += i\n}\nfmt.Println(n)"
	c.breakAt(cell, 2, 4)
	done := runAsync(s, cell, &r)
	c.stopped()
	_, frames := c.stack()
	first := c.Body("scopes", map[string]any{"frameId": frames[0]["id"]})["scopes"].([]any)[0].(map[string]any)["name"]
	if first != "Locals" {
		t.Errorf("the first scope is %v, want Locals", first)
	}
	l := c.vars(frames[0]["id"].(float64), "Locals")
	for name, want := range map[string]string{"t": "[2 3] float32 cpu", "u": "[2 3] float32 cpu"} {
		if v, _ := l[name]["value"].(string); !strings.HasPrefix(v, want) {
			t.Errorf("at line 2 the cell's Locals show %s = %q, want %s…", name, v, want)
		}
	}
	c.Body("continue", map[string]any{"threadId": 1})
	c.stopped()
	_, frames = c.stack()
	l = c.vars(frames[0]["id"].(float64), "Locals")
	if l["i"]["value"] != "40" || l["n"]["value"] != "7" {
		t.Errorf("at line 4 the cell's Locals show i = %v, n = %v, want the loop's 40 and 7", l["i"]["value"], l["n"]["value"])
	}
	c.Body("continue", map[string]any{"threadId": 1})
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	if got := r.text("stdout"); got != "47\n" {
		t.Errorf("the cell printed %q, want 47", got)
	}
	c.Body("disconnect", nil)
}

func TestDebugPanicStops(t *testing.T) {
	s := newSession(t)
	c := newDAPClient(t, s)
	c.start()
	c.Body("setExceptionBreakpoints", map[string]any{"filters": []any{"panic"}})
	var r recorder
	done := runAsync(s, "var a []int\ni := 3\nfmt.Println(a[i])", &r)
	ev := c.stopped()
	if ev["reason"] != "exception" || !strings.Contains(ev["text"].(string), "index out of range") {
		t.Errorf("stopped = %v", ev)
	}
	if names, _ := c.stack(); len(names) == 0 || names[0] != "<cell>:3" {
		t.Errorf("stack = %v, want <cell>:3", names)
	}
	c.Body("continue", map[string]any{"threadId": 1})
	if err := wait(t, done); err == nil || !strings.Contains(err.Error(), "index out of range") {
		t.Errorf("cell error %v, want the panic", err)
	}
	c.Body("disconnect", nil)
}

func TestDebugInterruptWhileStopped(t *testing.T) {
	s := newSession(t)
	c := newDAPClient(t, s)
	c.start()
	cell := "n := 1\nn++\nfmt.Println(n)"
	c.breakAt(cell, 2)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.Execute(ctx, cell, &recorder{})
		done <- err
	}()
	c.stopped()
	cancel()
	if err := wait(t, done); err == nil || !strings.Contains(err.Error(), "Interrupted") {
		t.Errorf("interrupted cell: %v", err)
	}
	if st := c.Body("debugInfo", nil)["stoppedThreads"].([]any); len(st) != 0 {
		t.Errorf("stoppedThreads after the interrupt: %v", st)
	}
	c.Body("disconnect", nil)
	if _, out := mustRun(t, s, "fmt.Println(40 + 2)"); out != "42\n" {
		t.Errorf("after the interrupt: %q", out)
	}
}

func TestDebugGoroutineThread(t *testing.T) {
	s := newSession(t)
	c := newDAPClient(t, s)
	c.start()
	// A breakpoint in a goroutine the cell starts. yaegi's debugger
	// counts a goroutine as a thread of its own only when the go
	// statement calls an interpreted function directly; a function
	// literal or a cell's function (called through its variable) is
	// started by compiled code, and runs as part of the thread that made
	// it: thread 1.
	cell := "ch := make(chan int)\ngo func() {\n\tv := 5\n\tch <- v\n}()\nfmt.Println(<-ch)"
	c.breakAt(cell, 4)
	var r recorder
	done := runAsync(s, cell, &r)
	ev := c.stopped()
	g := ev["threadId"].(float64)
	threads := c.Body("threads", nil)["threads"].([]any)
	found := false
	for _, th := range threads {
		if th.(map[string]any)["id"] == g {
			found = true
		}
	}
	if !found {
		t.Errorf("threads %v lack the stopped goroutine %v", threads, g)
	}
	body := c.Body("stackTrace", map[string]any{"threadId": g})
	f0 := body["stackFrames"].([]any)[0].(map[string]any)
	if f0["line"] != 4.0 {
		t.Errorf("goroutine's frame %v, want line 4", f0)
	}
	if l := c.vars(f0["id"].(float64), "Locals"); l["v"]["value"] != "5" {
		t.Errorf("goroutine's locals %v, want v=5", l)
	}
	c.Body("continue", map[string]any{"threadId": g})
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	s.flushStreams()
	if out := r.text("stdout"); out != "5\n" {
		t.Errorf("stdout %q", out)
	}
	c.Body("disconnect", nil)
}

func TestDebugStaleFunctionValue(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "h := func(a int) int { return a + 1 }")
	c := newDAPClient(t, s)
	c.start()
	_, _, err := run(t, s, "fmt.Println(h(1))")
	if err == nil || !strings.Contains(err.Error(), "DebuggerError") || !strings.Contains(err.Error(), "run the cell that made it again") {
		t.Errorf("calling a closure made before the debugger: %v", err)
	}
	mustRun(t, s, "h = func(a int) int { return a + 2 }")
	if _, out := mustRun(t, s, "fmt.Println(h(1))"); out != "3\n" {
		t.Errorf("after making it again: %q", out)
	}
	c.Body("disconnect", nil)
}

func TestDebugPause(t *testing.T) {
	s := newSession(t)
	c := newDAPClient(t, s)
	c.start()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.Execute(ctx, "n := 0\nfor {\n\tn++\n}", &recorder{})
		done <- err
	}()
	// Pause asks the running cell to stop: it may not be running yet.
	var ev map[string]any
	for i := 0; ev == nil && i < 200; i++ {
		if r := c.Request("pause", map[string]any{"threadId": 1}); r["success"] == true {
			ev = c.stopped()
		} else {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if ev == nil || ev["reason"] != "pause" {
		t.Fatalf("pause: %v", ev)
	}
	names, frames := c.stack()
	if names[0] != "<cell>:3" && names[0] != "<cell>:2" {
		t.Errorf("paused at %v, want the loop", names)
	}
	n := c.vars(frames[0]["id"].(float64), "Globals")["n"]["value"].(string)
	if v, err := strconv.Atoi(n); err != nil || v < 0 {
		t.Errorf("n = %q", n)
	}
	cancel()
	if err := wait(t, done); err == nil || !strings.Contains(err.Error(), "Interrupted") {
		t.Errorf("interrupted cell: %v", err)
	}
	c.Body("disconnect", nil)
}

// TestDebugDisconnectWhileStopped checks that a cell stopped at a
// breakpoint runs to its end when the front end disconnects, though its
// lines hold more breakpoints.
func TestDebugDisconnectWhileStopped(t *testing.T) {
	s := newSession(t)
	c := newDAPClient(t, s)
	c.start()
	cell := "k := 1\nk++\nk++\nfmt.Println(k)"
	c.breakAt(cell, 2, 3, 4)
	var r recorder
	done := runAsync(s, cell, &r)
	c.stopped()
	c.Body("next", map[string]any{"threadId": 1})
	c.Body("disconnect", nil)
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	s.flushStreams()
	if out := r.text("stdout"); out != "3\n" {
		t.Errorf("stdout %q", out)
	}
}

// TestDebugVariablesNamedLikePackages checks that the debugger shows
// variables named like the session's packages (data, nn), which the
// interpreter has under other names, by their own names: an earlier
// cell's, and one the stopped cell declares; and that it binds a function
// of that kind again.
func TestDebugVariablesNamedLikePackages(t *testing.T) {
	s := newSession(t)
	var r recorder
	if _, err := s.Execute(context.Background(), "data := []int{1, 2, 3}\nfunc display() int { return len(data) }", &r); err != nil {
		t.Fatal(err)
	}
	c := newDAPClient(t, s)
	c.start()
	// display, bound before the debugger attached, is bound again
	// under it.
	cell := "nn := display() + 4\nfmt.Println(nn)"
	c.breakAt(cell, 2)
	done := runAsync(s, cell, &r)
	c.stopped()
	_, frames := c.stack()
	for _, scope := range []string{"Locals", "Globals"} {
		l := c.vars(frames[0]["id"].(float64), scope)
		if l["data"]["value"] != "[1 2 3]" || l["nn"]["value"] != "7" {
			t.Errorf("%s show data = %v, nn = %v, want [1 2 3] and 7 (all: %v)", scope, l["data"]["value"], l["nn"]["value"], l)
		}
		for name := range l {
			if strings.Contains(name, "_gt") {
				t.Errorf("%s show the interpreter's name %s", scope, name)
			}
		}
	}
	c.Body("continue", map[string]any{"threadId": 1})
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range c.Body("inspectVariables", nil)["variables"].([]any) {
		names = append(names, v.(map[string]any)["name"].(string))
	}
	if strings.Join(names, " ") != "data nn" {
		t.Errorf("inspectVariables names %v, want data and nn", names)
	}
	c.Body("disconnect", nil)
}
