package kernel

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A DebugAdapter answers the Jupyter debug protocol for a Debugger: the
// plumbing that is the same for every language, as xeus's xdebugger_base
// is. It reads each request's envelope (seq, command, arguments), numbers
// responses and events, names cells' sources, keeps the breakpoints and
// the dumped cells, answers Jupyter's additions to the Debug Adapter
// Protocol (debugInfo, dumpCell) and source, and dispatches every request
// through one table of handlers by command: its own and the language's.
//
// Where both have a handler for a command (initialize, attach,
// disconnect, debugInfo, setBreakpoints), the adapter's part runs first,
// then the language's, and the response's body has the fields of both.
// A command neither has fails with a message that says so.
//
// A kernel makes one DebugAdapter for its Interpreter's Debugger; a test
// of a language's debugger may drive one directly.
type DebugAdapter struct {
	d    Debugger
	dir  string // where dumpCell writes cells: debugInfo's tmpFilePrefix
	once sync.Once
	own  map[string]DebugHandler // the adapter's handlers
	lang map[string]DebugHandler // the language's, from Debugger.DebugHandlers

	mu          sync.Mutex
	events      func([]byte)
	seq         int
	started     bool
	breakpoints map[string][]int  // source path → breakpoint lines
	sources     map[string]string // source path → code, of dumped and named cells
}

// debugHashSeed is the seed of the murmur2 hash that names cells, the one
// ipykernel uses.
const debugHashSeed = 0xC70F6907

// debugSuffix ends a cell's source path. The language's own would do as
// well; JupyterLab shows it in the debugger's panels.
const debugSuffix = ".go"

// NewDebugAdapter returns the adapter of d. It asks d for its handlers at
// the first request.
func NewDebugAdapter(d Debugger) *DebugAdapter {
	a := &DebugAdapter{
		d:           d,
		dir:         filepath.Join(os.TempDir(), "gotensor_"+strconv.Itoa(os.Getpid())),
		breakpoints: map[string][]int{},
		sources:     map[string]string{},
	}
	a.own = map[string]DebugHandler{
		"initialize":        a.initialize,
		"attach":            a.attach,
		"disconnect":        a.disconnect,
		"configurationDone": noBody,
		"modules":           noBody,
		"terminate":         noBody,
		"debugInfo":         a.debugInfo,
		"dumpCell":          a.dumpCell,
		"setBreakpoints":    a.setBreakpoints,
		"source":            a.source,
	}
	return a
}

// Request answers one request of the Jupyter debug protocol (the content
// of a debug_request: a Debug Adapter Protocol request) with the content
// of the debug_reply. The protocol's events (stopped, continued, thread
// ...) go to events, as the content of debug_event messages, from any
// goroutine, until the next request replaces it. It may be called while a
// cell runs: that is how a front end inspects a stopped cell.
func (a *DebugAdapter) Request(request []byte, events func(event []byte)) []byte {
	a.once.Do(func() { a.lang = a.d.DebugHandlers(a) })
	var req struct {
		Seq       int             `json:"seq"`
		Command   string          `json:"command"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(request, &req); err != nil {
		return a.response(0, "", nil, fmt.Errorf("the debug request is not JSON: %v", err))
	}
	a.mu.Lock()
	a.events = events
	a.mu.Unlock()
	var args map[string]any
	if len(req.Arguments) > 0 {
		_ = json.Unmarshal(req.Arguments, &args)
	}
	body, err := a.handle(req.Command, args)
	resp := a.response(req.Seq, req.Command, body, err)
	if req.Command == "initialize" && err == nil {
		// The protocol's initialized event follows the response: its
		// seq is later, and it goes out while the kernel sends the
		// response.
		go a.Emit("initialized", map[string]any{})
	}
	return resp
}

// handle runs the handlers of command: the adapter's, then the
// language's, their bodies merged.
func (a *DebugAdapter) handle(command string, args map[string]any) (map[string]any, error) {
	own, lang := a.own[command], a.lang[command]
	if own == nil && lang == nil {
		return nil, fmt.Errorf("this kernel's debugger does not support the %q request", command)
	}
	body := map[string]any{}
	for _, h := range []DebugHandler{own, lang} {
		if h == nil {
			continue
		}
		b, err := h(args)
		if err != nil {
			return nil, err
		}
		maps.Copy(body, b)
	}
	return body, nil
}

// noBody answers a request that needs nothing done.
func noBody(map[string]any) (map[string]any, error) { return nil, nil }

func (a *DebugAdapter) response(seq int, command string, body map[string]any, err error) []byte {
	a.mu.Lock()
	a.seq++
	r := map[string]any{"type": "response", "seq": a.seq, "request_seq": seq, "command": command, "success": err == nil}
	a.mu.Unlock()
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

// Emit sends a protocol event (stopped, continued, thread ...) with body
// to the front end. It is safe to call from any goroutine; before the
// first request it sends nothing.
func (a *DebugAdapter) Emit(event string, body any) {
	a.mu.Lock()
	a.seq++
	e := map[string]any{"type": "event", "seq": a.seq, "event": event, "body": body}
	send := a.events
	a.mu.Unlock()
	if send == nil {
		return
	}
	b, _ := json.Marshal(e)
	send(b)
}

// SourcePath returns the path the front end names a cell of code by:
// debugInfo's tmpFilePrefix, the murmur2 hash of the code and
// tmpFileSuffix, as JupyterLab computes it. The adapter keeps code under
// that path for source requests and to check breakpoints' lines.
func (a *DebugAdapter) SourcePath(code string) string {
	p := a.sourcePath(code)
	a.mu.Lock()
	a.sources[p] = code
	a.mu.Unlock()
	return p
}

func (a *DebugAdapter) sourcePath(code string) string {
	return filepath.Join(a.dir, strconv.FormatUint(uint64(murmur2([]byte(code), debugHashSeed)), 10)) + debugSuffix
}

// Breakpoints returns the lines of the breakpoints the front end set in
// the source at path, nil when there are none.
func (a *DebugAdapter) Breakpoints(path string) []int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.breakpoints[path])
}

// initialize starts the debug session; Request announces it with the
// initialized event, once the response is out. The language's handler
// gives the capabilities.
func (a *DebugAdapter) initialize(map[string]any) (map[string]any, error) {
	a.mu.Lock()
	a.started = true
	a.mu.Unlock()
	return nil, nil // Request sends the initialized event
}

// attach starts the debug session.
func (a *DebugAdapter) attach(map[string]any) (map[string]any, error) {
	a.mu.Lock()
	a.started = true
	a.mu.Unlock()
	return nil, nil
}

// disconnect ends the debug session: the breakpoints go. The language's
// handler lets stopped threads go on.
func (a *DebugAdapter) disconnect(map[string]any) (map[string]any, error) {
	a.mu.Lock()
	a.started = false
	a.breakpoints = map[string][]int{}
	a.mu.Unlock()
	return nil, nil
}

// debugInfo answers Jupyter's debugInfo: how cells are named, whether the
// session is started, the breakpoints. The language's handler adds the
// stopped threads and what it renders.
func (a *DebugAdapter) debugInfo(map[string]any) (map[string]any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	bps := []map[string]any{}
	for _, p := range slices.Sorted(maps.Keys(a.breakpoints)) {
		lines := []map[string]any{}
		for _, l := range a.breakpoints[p] {
			lines = append(lines, map[string]any{"line": l})
		}
		bps = append(bps, map[string]any{"source": p, "breakpoints": lines})
	}
	return map[string]any{
		"isStarted":      a.started,
		"hashMethod":     "Murmur2",
		"hashSeed":       debugHashSeed,
		"tmpFilePrefix":  a.dir + string(filepath.Separator),
		"tmpFileSuffix":  debugSuffix,
		"breakpoints":    bps,
		"stoppedThreads": []int{},
	}, nil
}

// dumpCell answers Jupyter's dumpCell: the cell's code is written to its
// source path, which the response gives.
func (a *DebugAdapter) dumpCell(args map[string]any) (map[string]any, error) {
	code, _ := args["code"].(string)
	p := a.SourcePath(code)
	if err := os.MkdirAll(a.dir, 0o700); err == nil {
		_ = os.WriteFile(p, []byte(code), 0o600)
	}
	return map[string]any{"sourcePath": p}, nil
}

// setBreakpoints keeps the breakpoints of one source, replacing its
// earlier ones; a line outside a known cell is not verified. The
// language's handler sets them in what runs.
func (a *DebugAdapter) setBreakpoints(args map[string]any) (map[string]any, error) {
	src, _ := args["source"].(map[string]any)
	p, _ := src["path"].(string)
	list, _ := args["breakpoints"].([]any)
	var lines []int
	out := []map[string]any{}
	a.mu.Lock()
	defer a.mu.Unlock()
	code, known := a.sources[p]
	for i, b := range list {
		bm, _ := b.(map[string]any)
		l := IntArg(bm, "line")
		lines = append(lines, l)
		ok := l >= 1 && (!known || l <= strings.Count(code, "\n")+1)
		bp := map[string]any{"id": i + 1, "verified": ok, "line": l, "source": map[string]any{"path": p}}
		if !ok {
			bp["message"] = fmt.Sprintf("line %d is not in the cell", l)
		}
		out = append(out, bp)
	}
	if len(lines) == 0 {
		delete(a.breakpoints, p)
	} else {
		a.breakpoints[p] = lines
	}
	return map[string]any{"breakpoints": out}, nil
}

// source answers the source of a cell the session dumped or named, or of
// a file.
func (a *DebugAdapter) source(args map[string]any) (map[string]any, error) {
	src, _ := args["source"].(map[string]any)
	p, _ := src["path"].(string)
	a.mu.Lock()
	code, ok := a.sources[p]
	a.mu.Unlock()
	if !ok {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("source unavailable: %s is not a cell of this session", p)
		}
		code = string(b)
	}
	return map[string]any{"content": code, "mimeType": "text/x-go"}, nil
}

// IntArg returns the number args holds under name (JSON numbers decode
// as float64), or 0.
func IntArg(args map[string]any, name string) int {
	f, _ := args[name].(float64)
	return int(f)
}
