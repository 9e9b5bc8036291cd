package interp

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	yaegi "github.com/traefik/yaegi/interp"

	"github.com/gotensor/gotensor/display"
	"github.com/gotensor/gotensor/interp/internal/plan"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// The Jupyter debugger: Session.DebugRequest answers the Debug Adapter
// Protocol requests that JupyterLab sends in debug_request messages, on
// yaegi's debugger (Interpreter.Debug over each compiled step).
//
// JupyterLab names a cell's source itself: tmpFilePrefix +
// murmur2(code, hashSeed) + tmpFileSuffix, with the values of the
// debugInfo reply. The planner's //line comments number a cell's lines in
// generated code as plan.Line(cell, line), so a breakpoint on line l of the
// source path of cell n is a line breakpoint on plan.Line(n, l), and a
// stopped frame's position maps back through plan.Position to the cell and
// its path.
//
// While no front end is attached (between initialize and disconnect) cells
// run as they do without the debugger: Session.exec checks one atomic flag.
//
// yaegi v0.16.1's debugger needs three things it does not export, done
// here through reflection on its fields, each a no-op when the fields
// differ (the tests in debug_test.go then fail): breakpoints on every node
// of a line (markLines), one state for the cell's goroutine across the
// debuggers of a cell's steps (shareMain), and waiting for a debugger to
// let go of the interpreter before the next step's starts
// (waitDebuggerGone).

// debugHashSeed is the seed of the murmur2 hash that names cells, the one
// ipykernel uses.
const debugHashSeed = 0xC70F6907

// debugSuffix ends a cell's source path.
const debugSuffix = ".go"

// murmur2 returns the 32-bit MurmurHash2 of data: JupyterLab hashes a
// cell's code (UTF-8) with it to name the cell's source.
func murmur2(data []byte, seed uint32) uint32 {
	const m = 0x5bd1e995
	h := seed ^ uint32(len(data))
	for ; len(data) >= 4; data = data[4:] {
		k := binary.LittleEndian.Uint32(data)
		k *= m
		k ^= k >> 24
		k *= m
		h = h*m ^ k
	}
	switch len(data) {
	case 3:
		h ^= uint32(data[2]) << 16
		fallthrough
	case 2:
		h ^= uint32(data[1]) << 8
		fallthrough
	case 1:
		h ^= uint32(data[0])
		h *= m
	}
	h ^= h >> 13
	h *= m
	h ^= h >> 15
	return h
}

// debugger is a session's side of the debug protocol.
type debugger struct {
	s   *Session
	dir string // where dumpCell writes cells: tmpFilePrefix

	mu          sync.Mutex
	events      func([]byte)
	seq         int
	started     bool
	breakpoints map[string][]int  // source path → breakpoint lines
	exceptions  bool              // stop on panics
	sources     map[string]string // source path → code, of dumped and run cells
	cells       []recordedCell    // the Go cells run, in order
	paths       map[int]string    // cell number → source path (from codes, lazily)
	ran         []recordedStep    // the steps that ran, in order
	armed       map[int]bool      // cells whose steps may hold breakpoints
	// binds maps a function a cell declared to the planner's name of its
	// body (f → _gtf3_f), from the steps that bind them; rebind is set
	// when cells bound functions without the debugger (see rebindFuncs).
	binds  map[string]string
	rebind bool
	mainG  reflect.Value // the cell goroutine's state in yaegi's debugger (see shareMain)

	run    *debugRun          // the step running under yaegi's debugger
	stops  map[int]*debugStop // goroutine → how it is stopped
	steps  map[int]*stepping  // goroutine → the step it is taking
	frames map[int]*debugFrame
	refs   map[int]func() []dapVariable // variablesReference → the variables
	nextID int
}

// debugRun is one step running under yaegi's debugger.
type debugRun struct {
	dbg        *yaegi.Debugger
	mainDone   chan struct{} // the step's goroutine has returned
	terminated chan struct{} // yaegi's debugger has ended
}

// debugStop is a stopped goroutine.
type debugStop struct {
	evt    *yaegi.DebugEvent // nil for a panic
	reason string
	panic  *Error        // the panic that stopped it
	resume chan struct{} // closed to go on after a panic
}

// stepping is a step request under way: yaegi steps by node, the front end
// by line, so the debugger steps again until the line or the frame changes.
type stepping struct {
	mode  yaegi.DebugEventReason
	line  int // the generated line it started on
	depth int
}

// debugFrame is a stack frame shown to the front end.
type debugFrame struct {
	gid    int
	frame  *yaegi.DebugFrame // nil for a panic's frames
	cell   int
	line   int
	name   string
	source string
}

// dapVariable is a variable of the Debug Adapter Protocol.
type dapVariable struct {
	Name               string `json:"name"`
	Value              string `json:"value"`
	Type               string `json:"type"`
	VariablesReference int    `json:"variablesReference"`
	EvaluateName       string `json:"evaluateName,omitempty"`

	v reflect.Value
}

func newDebugger(s *Session) *debugger {
	return &debugger{
		s:           s,
		dir:         filepath.Join(os.TempDir(), "gotensor_"+strconv.Itoa(os.Getpid())),
		breakpoints: map[string][]int{},
		sources:     map[string]string{},
		paths:       map[int]string{},
		armed:       map[int]bool{},
		binds:       map[string]string{},
		stops:       map[int]*debugStop{},
		steps:       map[int]*stepping{},
		frames:      map[int]*debugFrame{},
		refs:        map[int]func() []dapVariable{},
	}
}

// A recordedCell is a Go cell the session ran: the front end names its
// positions by its code's hash.
type recordedCell struct {
	n    int // the cell's number, as plan.Position gives it
	code string
}

// A recordedStep is a compiled step that ran.
type recordedStep struct {
	n    int
	prog *yaegi.Program
}

// recordCell remembers the code of Go cell n. It and recordStep are what
// a cell pays for the debugger when no front end is attached: appends to
// slices, no allocation but their growth.
func (d *debugger) recordCell(n int, code string) {
	d.mu.Lock()
	d.cells = append(d.cells, recordedCell{n % plan.CellsWrap, code})
	delete(d.paths, n%plan.CellsWrap)
	d.mu.Unlock()
}

// recordStep remembers a compiled step of cell n that runs: breakpoints on
// the cell's lines are set on its steps.
func (d *debugger) recordStep(n int, src string, prog *yaegi.Program) {
	d.mu.Lock()
	d.ran = append(d.ran, recordedStep{n % plan.CellsWrap, prog})
	if strings.Contains(src, " = _gtf") {
		for _, m := range funcBind.FindAllStringSubmatch(src, -1) {
			d.binds[m[1]] = m[2]
		}
		if !d.s.dbgOn.Load() {
			d.rebind = true
		}
	}
	d.mu.Unlock()
}

// funcBind matches the planner's binding of a cell's function to its
// body: "f = _gtf3_f".
var funcBind = regexp.MustCompile(`(?m)^(\w+) = (_gtf\d+_\w+)$`)

// rebindFuncs binds the cells' functions to their bodies again, under
// yaegi's debugger. A function value that yaegi made outside its debugger
// cannot run inside it (its frame has no debugging state, and the call
// panics), so the functions that cells bound before a front end attached
// are bound again before the first step that runs under it. Function
// values that cells kept otherwise (closures, methods in interfaces)
// cannot be.
func (d *debugger) rebindFuncs(ctx context.Context) error {
	d.mu.Lock()
	if !d.rebind {
		d.mu.Unlock()
		return nil
	}
	d.rebind = false
	var b strings.Builder
	b.WriteString("package main\nfunc init() {\n")
	users := d.userNames()
	for _, yn := range slices.Sorted(maps.Keys(d.binds)) {
		// Only a name that is still the cell's function: anything else
		// has been declared again since. The binding names it as the
		// interpreter does (see plan.Session.InterpName).
		name, ok := users[yn]
		if !ok {
			name = yn
		}
		if _, ok := d.s.plan.Lookup(name).(*types.Func); ok && d.s.plan.InterpName(name) == yn {
			fmt.Fprintf(&b, "%s = %s\n", yn, d.binds[yn])
		}
	}
	b.WriteString("}\n")
	d.mu.Unlock()
	prog, err := d.s.compileStep(plan.Step{Kind: plan.StepFile, Src: b.String()})
	if err != nil {
		return err
	}
	r := &debugRun{mainDone: make(chan struct{}), terminated: make(chan struct{})}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.dbg = d.s.yi.Debug(ctx, prog, func(e *yaegi.DebugEvent) {
		switch e.Reason() {
		case yaegi.DebugTerminate:
			close(r.terminated)
		case yaegi.DebugExitGoRoutine:
			if e.GoRoutine() == 1 {
				close(r.mainDone)
			}
		}
	}, &yaegi.DebugOptions{GoRoutineStartAt1: true})
	d.shareMain(r.dbg)
	return d.wait(ctx, cancel, r)
}

// wait starts r's goroutine and waits for it to end, and for yaegi's
// debugger to let go of the interpreter.
func (d *debugger) wait(ctx context.Context, cancel func(), r *debugRun) error {
	if err := r.dbg.Continue(1); err != nil {
		return err
	}
	select {
	case <-r.mainDone:
	case <-ctx.Done():
	}
	cancel()
	_, err := r.dbg.Wait()
	// yaegi's debugger lets go of the interpreter after its terminate
	// event; the next step's debugger must not be let go of with it.
	select {
	case <-r.terminated:
		waitDebuggerGone(d.s.yi)
	case <-time.After(100 * time.Millisecond):
		// Goroutines the step started still run under this debugger.
	}
	return err
}

// sourcePath returns the path the front end names code by.
func (d *debugger) sourcePath(code string) string {
	return filepath.Join(d.dir, strconv.FormatUint(uint64(murmur2([]byte(code), debugHashSeed)), 10)) + debugSuffix
}

// cellPath returns the source path of cell n; d.mu is held.
func (d *debugger) cellPath(n int) string {
	if p, ok := d.paths[n]; ok {
		return p
	}
	i := len(d.cells) - 1
	for i >= 0 && d.cells[i].n != n {
		i--
	}
	if i < 0 {
		return ""
	}
	code := d.cells[i].code
	p := d.sourcePath(code)
	d.paths[n] = p
	d.sources[p] = code
	return p
}

// DebugRequest answers one request of the Jupyter debug protocol (the
// content of a debug_request: a Debug Adapter Protocol request) with the
// content of the debug_reply. The protocol's events (stopped, continued,
// thread ...) go to events, as the content of debug_event messages, from
// any goroutine, until the next request replaces it. It may be called
// while a cell runs: that is how a front end inspects a stopped cell.
func (s *Session) DebugRequest(request []byte, events func(event []byte)) []byte {
	d := s.dbg
	var req struct {
		Seq       int             `json:"seq"`
		Command   string          `json:"command"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(request, &req); err != nil {
		return d.response(0, "", nil, fmt.Errorf("the debug request is not JSON: %v", err))
	}
	d.mu.Lock()
	d.events = events
	d.mu.Unlock()
	var args map[string]any
	if len(req.Arguments) > 0 {
		_ = json.Unmarshal(req.Arguments, &args)
	}
	body, err := d.handle(req.Command, args)
	return d.response(req.Seq, req.Command, body, err)
}

func (d *debugger) response(seq int, command string, body any, err error) []byte {
	d.mu.Lock()
	d.seq++
	r := map[string]any{"type": "response", "seq": d.seq, "request_seq": seq, "command": command, "success": err == nil}
	d.mu.Unlock()
	if err != nil {
		r["message"] = err.Error()
		body = map[string]any{"error": map[string]any{"id": 1, "format": err.Error()}}
	}
	if body == nil {
		body = map[string]any{}
	}
	r["body"] = body
	b, _ := json.Marshal(r)
	return b
}

// emit sends a protocol event.
func (d *debugger) emit(event string, body any) {
	d.mu.Lock()
	d.seq++
	e := map[string]any{"type": "event", "seq": d.seq, "event": event, "body": body}
	send := d.events
	d.mu.Unlock()
	if send == nil {
		return
	}
	b, _ := json.Marshal(e)
	send(b)
}

func (d *debugger) handle(command string, args map[string]any) (any, error) {
	switch command {
	case "initialize":
		d.mu.Lock()
		d.started = true
		d.mu.Unlock()
		d.s.dbgOn.Store(true)
		go d.emit("initialized", map[string]any{})
		return map[string]any{
			"supportsConfigurationDoneRequest": true,
			"supportsEvaluateForHovers":        false,
			"supportsConditionalBreakpoints":   false,
			"supportsSetVariable":              false,
			"supportsStepBack":                 false,
			"supportsDelayedStackTraceLoading": false,
			"exceptionBreakpointFilters": []map[string]any{
				{"filter": "panic", "label": "Go panics", "default": false},
			},
		}, nil
	case "attach":
		d.mu.Lock()
		d.started = true
		d.rebind = len(d.binds) > 0
		d.mu.Unlock()
		d.s.dbgOn.Store(true)
		return nil, nil
	case "configurationDone", "modules", "terminate":
		return map[string]any{}, nil
	case "disconnect":
		d.disconnect()
		return nil, nil
	case "debugInfo":
		return d.debugInfo(), nil
	case "dumpCell":
		code, _ := args["code"].(string)
		p := d.sourcePath(code)
		d.mu.Lock()
		d.sources[p] = code
		d.mu.Unlock()
		if err := os.MkdirAll(d.dir, 0o700); err == nil {
			_ = os.WriteFile(p, []byte(code), 0o600)
		}
		return map[string]any{"sourcePath": p}, nil
	case "setBreakpoints":
		return d.setBreakpoints(args), nil
	case "setExceptionBreakpoints":
		filters, _ := args["filters"].([]any)
		d.mu.Lock()
		d.exceptions = len(filters) > 0
		d.mu.Unlock()
		return map[string]any{"breakpoints": []any{}}, nil
	case "threads":
		return map[string]any{"threads": d.threads()}, nil
	case "stackTrace":
		return d.stackTrace(intArg(args, "threadId"))
	case "scopes":
		return d.scopes(intArg(args, "frameId"))
	case "variables":
		d.mu.Lock()
		f := d.refs[intArg(args, "variablesReference")]
		d.mu.Unlock()
		if f == nil {
			return nil, fmt.Errorf("no variables under reference %d: the program has moved on since they were shown", intArg(args, "variablesReference"))
		}
		return map[string]any{"variables": d.listed(f())}, nil
	case "continue":
		return map[string]any{"allThreadsContinued": false}, d.resume(intArg(args, "threadId"), 0)
	case "next":
		return nil, d.resume(intArg(args, "threadId"), yaegi.DebugStepOver)
	case "stepIn":
		return nil, d.resume(intArg(args, "threadId"), yaegi.DebugStepInto)
	case "stepOut":
		return nil, d.resume(intArg(args, "threadId"), yaegi.DebugStepOut)
	case "pause":
		return nil, d.pause(intArg(args, "threadId"))
	case "evaluate":
		return d.evaluate(args)
	case "source":
		src, _ := args["source"].(map[string]any)
		p, _ := src["path"].(string)
		d.mu.Lock()
		code, ok := d.sources[p]
		d.mu.Unlock()
		if !ok {
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, fmt.Errorf("source unavailable: %s is not a cell of this session", p)
			}
			code = string(b)
		}
		return map[string]any{"content": code, "mimeType": "text/x-go"}, nil
	case "inspectVariables":
		return map[string]any{"variables": d.listed(d.globals())}, nil
	case "richInspectVariables":
		return d.richInspect(args)
	}
	return nil, fmt.Errorf("the gotensor debugger does not support the %q request", command)
}

func intArg(args map[string]any, name string) int {
	f, _ := args[name].(float64)
	return int(f)
}

func (d *debugger) debugInfo() map[string]any {
	d.mu.Lock()
	defer d.mu.Unlock()
	bps := []map[string]any{}
	for _, p := range slices.Sorted(maps.Keys(d.breakpoints)) {
		lines := []map[string]any{}
		for _, l := range d.breakpoints[p] {
			lines = append(lines, map[string]any{"line": l})
		}
		bps = append(bps, map[string]any{"source": p, "breakpoints": lines})
	}
	stopped := append([]int{}, slices.Sorted(maps.Keys(d.stops))...)
	return map[string]any{
		"isStarted":      d.started,
		"hashMethod":     "Murmur2",
		"hashSeed":       debugHashSeed,
		"tmpFilePrefix":  d.dir + string(filepath.Separator),
		"tmpFileSuffix":  debugSuffix,
		"breakpoints":    bps,
		"stoppedThreads": stopped,
		"richRendering":  true,
		"exceptionPaths": []string{"Go panics"},
	}
}

// disconnect ends the debug session: breakpoints go, stopped goroutines go
// on, and cells run without the debugger again.
func (d *debugger) disconnect() {
	d.s.dbgOn.Store(false)
	if c := d.s.comp; c != nil {
		c.mu.Lock()
		c.debugged = false // a next attach declares the functions compiled since
		c.mu.Unlock()
	}
	d.mu.Lock()
	d.started = false
	d.breakpoints = map[string][]int{}
	d.exceptions = false
	run := d.run
	d.mu.Unlock()
	if run != nil {
		d.mu.Lock()
		d.applyBreakpoints()
		d.mu.Unlock()
	}
	d.mu.Lock()
	gids := make([]int, 0, len(d.stops))
	for g := range d.stops {
		gids = append(gids, g)
	}
	d.mu.Unlock()
	for _, g := range gids {
		_ = d.resume(g, 0)
	}
}

func (d *debugger) setBreakpoints(args map[string]any) map[string]any {
	src, _ := args["source"].(map[string]any)
	p, _ := src["path"].(string)
	list, _ := args["breakpoints"].([]any)
	var lines []int
	out := []map[string]any{}
	d.mu.Lock()
	code, known := d.sources[p]
	for i, b := range list {
		bm, _ := b.(map[string]any)
		l := intArg(bm, "line")
		lines = append(lines, l)
		ok := l >= 1 && (!known || l <= strings.Count(code, "\n")+1)
		bp := map[string]any{"id": i + 1, "verified": ok, "line": l, "source": map[string]any{"path": p}}
		if !ok {
			bp["message"] = fmt.Sprintf("line %d is not in the cell", l)
		}
		out = append(out, bp)
	}
	if len(lines) == 0 {
		delete(d.breakpoints, p)
	} else {
		d.breakpoints[p] = lines
	}
	if d.run != nil {
		d.applyBreakpoints()
	}
	d.mu.Unlock()
	return map[string]any{"breakpoints": out}
}

// applyBreakpoints sets the breakpoints on the steps of the cells they
// name, and clears them from the cells that lost theirs. d.mu is held.
func (d *debugger) applyBreakpoints() {
	fset := d.s.yi.FileSet()
	for _, c := range d.cells {
		if len(d.breakpoints[d.cellPath(c.n)]) > 0 {
			d.armed[c.n] = true
		}
	}
	for n := range d.armed {
		lines := map[int]bool{}
		for _, l := range d.breakpoints[d.cellPath(n)] {
			lines[plan.Line(n, l)] = true
		}
		for _, st := range d.ran {
			if st.n == n {
				markLines(fset, st.prog, lines)
			}
		}
		if len(lines) == 0 {
			delete(d.armed, n)
		}
	}
}

// markLines marks every node of prog on one of lines as a breakpoint, and
// unmarks the others. yaegi's Debugger.SetBreakpoints marks only the first
// node of a line, which the planner's code may never run (the assignment
// of "x = f()" runs as the call's), and readies each node it looks at to
// run, which panics on some that never run; so this walks the nodes
// itself, in yaegi v0.16.1's terms (node.child, node.pos, node.debug and
// nodeDebugData.breakOnLine), and leaves prog as it is when they differ.
func markLines(fset *token.FileSet, prog *yaegi.Program, lines map[int]bool) {
	root := reflect.ValueOf(prog).Elem().FieldByName("root")
	if !root.IsValid() || root.Kind() != reflect.Pointer || root.IsNil() {
		return
	}
	nodeType := root.Type().Elem()
	child, ok1 := nodeType.FieldByName("child")
	pos, ok2 := nodeType.FieldByName("pos")
	dbg, ok3 := nodeType.FieldByName("debug")
	if !ok1 || !ok2 || !ok3 || pos.Type != reflect.TypeOf(token.Pos(0)) || dbg.Type.Kind() != reflect.Pointer {
		return
	}
	brk, ok := dbg.Type.Elem().FieldByName("breakOnLine")
	if !ok || brk.Type.Kind() != reflect.Bool {
		return
	}
	var walk func(n unsafe.Pointer)
	walk = func(n unsafe.Pointer) {
		p := *(*token.Pos)(unsafe.Add(n, pos.Offset))
		on := p.IsValid() && lines[fset.Position(p).Line]
		dp := (*unsafe.Pointer)(unsafe.Add(n, dbg.Offset))
		if *dp == nil && on {
			*dp = reflect.New(dbg.Type.Elem()).UnsafePointer()
		}
		if *dp != nil {
			*(*bool)(unsafe.Add(*dp, brk.Offset)) = on
		}
		for _, c := range *(*[]unsafe.Pointer)(unsafe.Add(n, child.Offset)) {
			if c != nil {
				walk(c)
			}
		}
	}
	walk(root.UnsafePointer())
}

// execute runs a compiled step under yaegi's debugger: Session.exec calls
// it instead of Execute while a front end is attached.
func (d *debugger) execute(prog *yaegi.Program) (reflect.Value, error) {
	ctx := context.Background()
	if c := d.s.cur.Load(); c != nil && c.ctx != nil {
		ctx = c.ctx
	}
	if err := d.rebindFuncs(ctx); err != nil {
		return reflect.Value{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &debugRun{mainDone: make(chan struct{}), terminated: make(chan struct{})}
	r.dbg = d.s.yi.Debug(ctx, prog, func(e *yaegi.DebugEvent) { d.event(r, e) }, &yaegi.DebugOptions{GoRoutineStartAt1: true})
	d.shareMain(r.dbg)
	d.mu.Lock()
	d.run = r
	d.applyBreakpoints()
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		if d.run == r {
			d.run = nil
		}
		// Goroutines still stopped when the step ends (the cell was
		// interrupted) are let go with it.
		for g, st := range d.stops {
			if st.evt != nil {
				delete(d.stops, g)
			}
		}
		clear(d.steps)
		d.mu.Unlock()
	}()
	return reflect.Value{}, d.wait(ctx, cancel, r)
}

// shareMain makes every yaegi debugger of the session use one state for
// the cell's goroutine. yaegi's Interpreter.Debug makes a new one for each
// program, and a frame keeps the state of the debugger that made it: a
// function value made by an earlier step (a cell's function, which the
// cell calls through its variable) would run with the state of a debugger
// that has ended, and neither stop nor step as asked. So the new
// debugger's goroutine 1 becomes the first debugger's, with the new one's
// channel. It works on yaegi v0.16.1's fields (Debugger.gLive,
// debugRoutine, Interpreter.frame.debug.g) and does nothing when they
// differ.
func (d *debugger) shareMain(dbg *yaegi.Debugger) {
	defer func() { recover() }()
	live := settable(reflect.ValueOf(dbg).Elem().FieldByName("gLive"))
	newG := live.MapIndex(reflect.ValueOf(1))
	if !newG.IsValid() || newG.Kind() != reflect.Pointer {
		return
	}
	if !d.mainG.IsValid() {
		d.mainG = newG
		return
	}
	p, n := d.mainG.Elem(), newG.Elem()
	for _, f := range []string{"resume", "mode", "running", "fDepth", "fStep"} {
		settable(p.FieldByName(f)).Set(settable(n.FieldByName(f)))
	}
	live.SetMapIndex(reflect.ValueOf(1), d.mainG)
	root := reflect.ValueOf(d.s.yi).Elem().FieldByName("frame").Elem()
	settable(root.FieldByName("debug").Elem().FieldByName("g")).Set(d.mainG)
}

// settable returns v, an addressable field, as a value that can be set.
func settable(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// waitDebuggerGone waits, at most 100 ms, until yaegi v0.16.1's
// Interpreter.debugger field is nil again: its debugger clears the field
// after the terminate event, in its own goroutine.
func waitDebuggerGone(yi *yaegi.Interpreter) {
	f := reflect.ValueOf(yi).Elem().FieldByName("debugger")
	if !f.IsValid() || f.Kind() != reflect.Pointer {
		time.Sleep(time.Millisecond)
		return
	}
	p := (*unsafe.Pointer)(unsafe.Pointer(f.UnsafeAddr()))
	for i := 0; i < 10000 && *p != nil; i++ {
		time.Sleep(10 * time.Microsecond)
	}
}

// event receives yaegi's debugger events, in the goroutine they concern.
func (d *debugger) event(r *debugRun, e *yaegi.DebugEvent) {
	switch e.Reason() {
	case yaegi.DebugTerminate:
		close(r.terminated)
		return
	case yaegi.DebugEnterGoRoutine:
		if g := e.GoRoutine(); g != 1 {
			d.emit("thread", map[string]any{"reason": "started", "threadId": g})
		}
		return
	case yaegi.DebugExitGoRoutine:
		g := e.GoRoutine()
		if g == 1 {
			close(r.mainDone)
			return
		}
		d.emit("thread", map[string]any{"reason": "exited", "threadId": g})
		return
	}
	g := e.GoRoutine()
	line, depth := 0, e.FrameDepth()
	if fr := e.Frames(0, 1); len(fr) > 0 {
		line = fr[0].Position().Line
	}
	d.mu.Lock()
	st := d.steps[g]
	d.mu.Unlock()
	if !d.s.dbgOn.Load() {
		// The front end has gone: nobody would let the goroutine go on.
		d.mu.Lock()
		delete(d.steps, g)
		d.mu.Unlock()
		go r.dbg.Continue(g)
		return
	}
	if st != nil {
		if !d.stepDone(st, line, depth) {
			mode := st.mode
			if mode != yaegi.DebugStepInto {
				mode = yaegi.DebugStepOver
			}
			go d.step(r.dbg, g, mode)
			return
		}
		if st.mode == debugContinue && e.Reason() != yaegi.DebugBreak {
			// Off the line it stopped on: on to the next breakpoint.
			d.mu.Lock()
			delete(d.steps, g)
			d.mu.Unlock()
			go r.dbg.Continue(g)
			return
		}
	}
	reason := "step"
	switch e.Reason() {
	case yaegi.DebugBreak:
		reason = "breakpoint"
	case yaegi.DebugPause:
		reason = "pause"
	case yaegi.DebugEntry:
		reason = "entry"
	}
	d.mu.Lock()
	delete(d.steps, g)
	d.stops[g] = &debugStop{evt: e, reason: reason}
	d.mu.Unlock()
	d.emit("stopped", map[string]any{"reason": reason, "threadId": g, "allThreadsStopped": false})
}

// debugContinue is the step a continue request takes first: off the line
// the goroutine stopped on, whose every node holds the breakpoint, before
// it runs on freely.
const debugContinue = yaegi.DebugEventReason(-1)

// stepDone reports whether a step that started at st ends at line and
// depth: on another line of a cell, or in another frame.
func (d *debugger) stepDone(st *stepping, line, depth int) bool {
	if _, _, ok := plan.Position(line); !ok {
		return false // the planner's code around the cell
	}
	return line != st.line || depth != st.depth
}

// step asks goroutine g, stopped in yaegi's debugger, to step; it waits
// for the goroutine to be parked (yaegi refuses a step while it runs).
func (d *debugger) step(dbg *yaegi.Debugger, g int, mode yaegi.DebugEventReason) {
	for i := 0; i < 2000; i++ {
		if err := dbg.Step(g, mode); err != yaegi.ErrRunning {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// resume lets stopped goroutine g go on: continue for mode 0, else a step.
func (d *debugger) resume(gid int, mode yaegi.DebugEventReason) error {
	d.mu.Lock()
	st, ok := d.stops[gid]
	run := d.run
	if ok {
		delete(d.stops, gid)
		d.frames = map[int]*debugFrame{}
		d.refs = map[int]func() []dapVariable{}
	}
	var line, depth int
	if mode == 0 {
		mode = debugContinue
	}
	if ok && st.evt != nil {
		depth = st.evt.FrameDepth()
		if fr := st.evt.Frames(0, 1); len(fr) > 0 {
			line = fr[0].Position().Line
		}
		d.steps[gid] = &stepping{mode: mode, line: line, depth: depth}
	}
	d.mu.Unlock()
	if !ok {
		return fmt.Errorf("thread %d is not stopped", gid)
	}
	// Before the goroutine goes on: its next stop must not be overtaken.
	d.emit("continued", map[string]any{"threadId": gid, "allThreadsContinued": false})
	switch {
	case st.resume != nil:
		close(st.resume)
	case run == nil:
		return fmt.Errorf("thread %d has ended", gid)
	case mode == debugContinue:
		d.step(run.dbg, gid, yaegi.DebugStepOver)
	default:
		d.step(run.dbg, gid, mode)
	}
	return nil
}

func (d *debugger) pause(g int) error {
	d.mu.Lock()
	run := d.run
	d.mu.Unlock()
	if run == nil {
		return fmt.Errorf("no cell is running")
	}
	if g == 0 {
		for _, gr := range run.dbg.GoRoutines() {
			run.dbg.Interrupt(gr.ID(), yaegi.DebugPause)
		}
		return nil
	}
	if !run.dbg.Interrupt(g, yaegi.DebugPause) {
		return fmt.Errorf("thread %d is not running", g)
	}
	return nil
}

func (d *debugger) threads() []map[string]any {
	d.mu.Lock()
	run := d.run
	d.mu.Unlock()
	out := []map[string]any{}
	if run == nil {
		return append(out, map[string]any{"id": 1, "name": "goroutine 1 (the cell)"})
	}
	for _, g := range run.dbg.GoRoutines() {
		name := fmt.Sprintf("goroutine %d", g.ID())
		if g.ID() == 1 {
			name += " (the cell)"
		}
		out = append(out, map[string]any{"id": g.ID(), "name": name})
	}
	return out
}

// cellName strips the planner's names off a function's: _gtf3_f is the
// cell's f, _gtmain its main, init the cell's statements.
func cellName(name string) string {
	name = bodyName.ReplaceAllString(name, "")
	switch name {
	case "_gtmain":
		return "main"
	case "init", "<init>":
		return "<cell>"
	}
	return name
}

func (d *debugger) stackTrace(g int) (any, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	st, ok := d.stops[g]
	if !ok {
		return nil, fmt.Errorf("thread %d is not stopped", g)
	}
	var frames []*debugFrame
	if st.evt != nil {
		for _, f := range st.evt.Frames(0, st.evt.FrameDepth()) {
			pos := f.Position()
			cell, line, ok := plan.Position(pos.Line)
			if !ok {
				continue // the planner's code around the cell
			}
			frames = append(frames, &debugFrame{gid: g, frame: f, cell: cell, line: line, name: cellName(f.Name()), source: d.cellPath(cell)})
		}
		if n := len(frames); g == 1 && (n == 0 || frames[n-1].name != "<cell>") {
			// A function called through its variable runs in a frame
			// whose parent is where the function value was made, not its
			// caller: the cell's statement that runs stands for the rest.
			if line := *d.s.intr.line; line > 0 {
				cell := d.s.cells % plan.CellsWrap
				frames = append(frames, &debugFrame{gid: g, cell: cell, line: line, name: "<cell>", source: d.cellPath(cell)})
			}
		}
	} else {
		frames = d.panicFrames(g)
	}
	out := []map[string]any{}
	for _, f := range frames {
		d.nextID++
		d.frames[d.nextID] = f
		m := map[string]any{"id": d.nextID, "name": f.name, "line": f.line, "column": 1}
		if f.source != "" {
			m["source"] = map[string]any{"path": f.source, "name": filepath.Base(f.source)}
		}
		out = append(out, m)
	}
	return map[string]any{"stackFrames": out, "totalFrames": len(out)}, nil
}

// panicFrames returns the frames of a panic: the cell's statement and the
// functions it went through, as the panic's traceback names them. d.mu is
// held.
func (d *debugger) panicFrames(g int) []*debugFrame {
	var out []*debugFrame
	d.s.traceMu.Lock()
	trace := append([]string(nil), d.s.trace...)
	d.s.traceMu.Unlock()
	for _, l := range trace {
		m := panicLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		name := cellName(strings.TrimPrefix(m[2], "main."))
		var cell, line int
		if name == "<cell>" {
			// The function the cell's statements run in: the statement
			// is the one the planner's _gtLine names.
			cell, line = d.s.cells%plan.CellsWrap, *d.s.intr.line
		} else {
			pos := cellPos.FindStringSubmatch(m[1])
			if pos == nil {
				continue
			}
			gl, _ := strconv.Atoi(pos[1])
			var ok bool
			if cell, line, ok = plan.Position(gl); !ok {
				continue
			}
		}
		if n := len(out); n > 0 && out[n-1].name == name && out[n-1].line == line {
			continue
		}
		out = append(out, &debugFrame{gid: g, cell: cell, line: line, name: name, source: d.cellPath(cell)})
	}
	return out
}

func (d *debugger) scopes(id int) (any, error) {
	d.mu.Lock()
	f, ok := d.frames[id]
	d.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no frame %d: ask for the stack trace again", id)
	}
	locals := d.ref(func() []dapVariable { return frameLocals(f) })
	if f.name == "<cell>" {
		// JupyterLab shows the first scope: at a cell's top level, as at
		// a Python module's, its locals are the session's variables (the
		// frame's own, a loop's say, over those of the same name).
		locals = d.ref(func() []dapVariable { return merged(frameLocals(f), d.globals()) })
	}
	globals := d.ref(d.globals)
	return map[string]any{"scopes": []map[string]any{
		{"name": "Locals", "variablesReference": locals, "expensive": false},
		{"name": "Globals", "variablesReference": globals, "expensive": false},
	}}, nil
}

// ref keeps list under a new variablesReference.
func (d *debugger) ref(list func() []dapVariable) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.nextID++
	d.refs[d.nextID] = list
	return d.nextID
}

// frameLocals returns the variables of a stopped frame, the planner's own
// left out.
func frameLocals(f *debugFrame) []dapVariable {
	if f.frame == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []dapVariable
	for _, sc := range f.frame.Scopes() {
		for _, v := range sc.Variables() {
			if v.Name == "_" || strings.HasPrefix(v.Name, "_gt") || seen[v.Name] || !v.Value.IsValid() {
				continue
			}
			seen[v.Name] = true
			out = append(out, dapVariable{Name: v.Name, v: v.Value})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// merged returns the variables of a and those of b that no variable of a
// shadows, sorted by name.
func merged(a, b []dapVariable) []dapVariable {
	seen := map[string]bool{}
	out := append([]dapVariable(nil), a...)
	for _, v := range a {
		seen[v.Name] = true
	}
	for _, v := range b {
		if !seen[v.Name] {
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// userNames returns the names of the session and of the running cell that
// the interpreter has under other names (see plan.Decl.Interp), by those.
func (d *debugger) userNames() map[string]string {
	users := map[string]string{}
	for _, name := range d.s.plan.Names() {
		if yn := d.s.plan.InterpName(name); yn != name {
			users[yn] = name
		}
	}
	if c := d.s.cur.Load(); c != nil && c.p != nil {
		for _, decl := range c.p.Decls {
			if (decl.Kind == plan.DeclVar || decl.Kind == plan.DeclFunc) && decl.Interp != "" {
				users[decl.Interp] = decl.Name
			}
		}
	}
	return users
}

// interpOnly matches the names the planner gives the cells' names that
// the interpreter has as imports (data_gt3). It is compiled on first use.
var interpOnly = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[\pL_][\pL\pN_]*_gt[0-9]+$`) })

// globals returns the session's variables: those cells declared, and those
// the running cell is declaring.
func (d *debugger) globals() []dapVariable {
	users := d.userNames()
	var out []dapVariable
	for name, v := range d.s.yi.Globals() {
		if strings.HasPrefix(name, "_") || !v.IsValid() {
			continue // the planner's
		}
		if user, ok := users[name]; ok {
			name = user
		} else if interpOnly().MatchString(name) {
			continue // a name the planner gave, no longer the session's
		}
		switch d.s.plan.Lookup(name).(type) {
		case *types.Var:
		case nil:
			if v.Kind() == reflect.Func {
				continue // a function the running cell declares
			}
		default:
			continue
		}
		out = append(out, dapVariable{Name: name, v: v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// listed fills in the values, types and children of vars.
func (d *debugger) listed(vars []dapVariable) []dapVariable {
	out := make([]dapVariable, len(vars))
	for i, v := range vars {
		out[i] = d.describe(v.Name, v.v)
	}
	return out
}

// maxChildren bounds the elements a variable shows.
const maxChildren = 100

// describe formats a value for the variables panel: a tensor by its shape,
// dtype and device; structs, slices, maps and pointers expand.
func (d *debugger) describe(name string, v reflect.Value) dapVariable {
	v = deref(v)
	out := dapVariable{Name: name, EvaluateName: name, v: v}
	if !v.IsValid() {
		out.Value, out.Type = "nil", "nil"
		return out
	}
	out.Type = v.Type().String()
	if v.CanInterface() {
		if t, ok := v.Interface().(*tensor.Tensor); ok && t != nil {
			out.Type = "*tensor.Tensor"
			out.Value = tensorSummary(t)
			out.VariablesReference = d.ref(func() []dapVariable {
				return []dapVariable{
					{Name: "shape", v: reflect.ValueOf(t.Shape())},
					{Name: "dtype", v: reflect.ValueOf(t.DType().String())},
					{Name: "device", v: reflect.ValueOf(t.Device().String())},
				}
			})
			return out
		}
	}
	out.Value = short(v)
	switch v.Kind() {
	case reflect.Struct:
		if v.NumField() > 0 {
			out.VariablesReference = d.ref(func() []dapVariable {
				var c []dapVariable
				for i := 0; i < v.NumField() && i < maxChildren; i++ {
					c = append(c, dapVariable{Name: v.Type().Field(i).Name, v: v.Field(i)})
				}
				return c
			})
		}
	case reflect.Slice, reflect.Array:
		if v.Len() > 0 {
			out.VariablesReference = d.ref(func() []dapVariable {
				var c []dapVariable
				for i := 0; i < v.Len() && i < maxChildren; i++ {
					c = append(c, dapVariable{Name: strconv.Itoa(i), v: v.Index(i)})
				}
				return c
			})
		}
	case reflect.Map:
		if v.Len() > 0 {
			out.VariablesReference = d.ref(func() []dapVariable {
				var c []dapVariable
				it := v.MapRange()
				for it.Next() && len(c) < maxChildren {
					c = append(c, dapVariable{Name: short(it.Key()), v: it.Value()})
				}
				sort.Slice(c, func(i, j int) bool { return c[i].Name < c[j].Name })
				return c
			})
		}
	case reflect.Pointer:
		if !v.IsNil() && v.Elem().Kind() == reflect.Struct {
			e := v.Elem()
			out.VariablesReference = d.ref(func() []dapVariable {
				var c []dapVariable
				for i := 0; i < e.NumField() && i < maxChildren; i++ {
					c = append(c, dapVariable{Name: e.Type().Field(i).Name, v: e.Field(i)})
				}
				return c
			})
		}
	}
	return out
}

// deref unwraps interfaces.
func deref(v reflect.Value) reflect.Value {
	for v.IsValid() && v.Kind() == reflect.Interface {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	return v
}

// short formats v in at most 200 bytes.
func short(v reflect.Value) (s string) {
	defer func() {
		if recover() != nil {
			s = "<" + v.Type().String() + ">"
		}
	}()
	switch {
	case v.Kind() == reflect.Func:
		if v.IsNil() {
			return "nil"
		}
		return v.Type().String()
	case v.Kind() == reflect.String:
		s = strconv.Quote(v.String())
	case v.CanInterface():
		s = fmt.Sprintf("%v", v.Interface())
	default:
		s = fmt.Sprintf("%v", v)
	}
	if len(s) > 200 {
		s = s[:197] + "..."
	}
	return s
}

// lookup finds a variable by name: in the frame frameID when given, else
// among the session's variables.
func (d *debugger) lookup(name string, frameID int) (reflect.Value, bool) {
	d.mu.Lock()
	f := d.frames[frameID]
	d.mu.Unlock()
	if f != nil {
		for _, v := range frameLocals(f) {
			if v.Name == name {
				return v.v, true
			}
		}
	}
	for _, v := range d.globals() {
		if v.Name == name {
			return v.v, true
		}
	}
	return reflect.Value{}, false
}

// evaluate answers the value of a variable by name: yaegi cannot evaluate
// an expression in a stopped frame.
func (d *debugger) evaluate(args map[string]any) (any, error) {
	expr, _ := args["expression"].(string)
	expr = strings.TrimSpace(expr)
	if !token.IsIdentifier(expr) {
		return nil, fmt.Errorf("the gotensor debugger cannot evaluate expressions (yaegi evaluates nothing in a stopped frame): give a variable's name, or look in the variables panel")
	}
	v, ok := d.lookup(expr, intArg(args, "frameId"))
	if !ok {
		return nil, fmt.Errorf("no variable %s in the frame or the session", expr)
	}
	dv := d.describe(expr, v)
	return map[string]any{"result": dv.Value, "type": dv.Type, "variablesReference": dv.VariablesReference}, nil
}

// richInspect answers richInspectVariables: the variable's rich view, as
// the cell's result would show it; a tensor of an image's shape ([1, H, W]
// or [3, H, W], H and W at least 8) as a PNG image.
func (d *debugger) richInspect(args map[string]any) (any, error) {
	name, _ := args["variableName"].(string)
	empty := map[string]any{"data": map[string]any{}, "metadata": map[string]any{}}
	if !token.IsIdentifier(name) {
		return empty, nil
	}
	v, ok := d.lookup(name, intArg(args, "frameId"))
	v = deref(v)
	if !ok || !v.IsValid() || !v.CanInterface() {
		return empty, nil
	}
	b := richBundle(v.Interface())
	meta := map[string]any{}
	for k, m := range b.Metadata {
		if _, ok := b.Data[k]; ok {
			meta[k] = m
		}
	}
	return map[string]any{"data": b.Data, "metadata": meta}, nil
}

// richBundle renders x for the debugger's rich view.
func richBundle(x any) (b display.Bundle) {
	defer func() {
		if r := recover(); r != nil {
			b = display.Text(fmt.Sprintf("%v", x))
		}
	}()
	if t, ok := x.(*tensor.Tensor); ok && t != nil {
		if s := t.Shape(); len(s) == 3 && (s[0] == 1 || s[0] == 3) && s[1] >= 8 && s[2] >= 8 {
			return display.ImageBundle(t)
		}
	}
	return display.Render(x)
}

// stopOnPanic, with the exception breakpoint on, stops the cell's
// goroutine on a panic of the running step until the front end lets it go
// on; the panic then ends the cell as it does without the debugger.
func (d *debugger) stopOnPanic(e *Error) {
	d.mu.Lock()
	if !d.exceptions {
		d.mu.Unlock()
		return
	}
	st := &debugStop{reason: "exception", panic: e, resume: make(chan struct{})}
	d.stops[1] = st
	d.mu.Unlock()
	d.emit("stopped", map[string]any{"reason": "exception", "threadId": 1, "allThreadsStopped": false, "description": "panic", "text": e.Name + ": " + e.Value})
	ctx := context.Background()
	if c := d.s.cur.Load(); c != nil && c.ctx != nil {
		ctx = c.ctx
	}
	select {
	case <-st.resume:
	case <-ctx.Done():
		d.mu.Lock()
		delete(d.stops, 1)
		d.mu.Unlock()
	}
}

// staleFuncError is the error of a cell that calls, under the debugger, a
// function value made before the debugger was attached: yaegi's debugger
// fails on it with a nil pointer dereference.
func staleFuncError() *Error {
	msg := "the cell calls a function value made before the debugger was attached (a closure kept in a variable, or a method held in an interface), which yaegi's debugger cannot run: run the cell that made it again, or turn the debugger off"
	return &Error{Name: "DebuggerError", Value: msg, Traceback: []string{"DebuggerError: " + msg}}
}
