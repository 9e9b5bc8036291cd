package kernel

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
	"time"
)

// fakeDebugger is fakeInterp with a debugger whose language side answers
// initialize with one capability and threads with one thread, sends an
// event named "seen" for each, and records the breakpoints it was told
// of.
type fakeDebugger struct {
	fakeInterp
	seen chan []int // the breakpoints of /cell.go at each setBreakpoints
}

func (f fakeDebugger) DebugHandlers(a *DebugAdapter) map[string]DebugHandler {
	return map[string]DebugHandler{
		"initialize": func(map[string]any) (map[string]any, error) {
			a.Emit("seen", map[string]any{"command": "initialize"})
			return map[string]any{"supportsConfigurationDoneRequest": true}, nil
		},
		"threads": func(map[string]any) (map[string]any, error) {
			a.Emit("seen", map[string]any{"command": "threads"})
			return map[string]any{"threads": []any{map[string]any{"id": 1, "name": "main"}}}, nil
		},
		"setBreakpoints": func(args map[string]any) (map[string]any, error) {
			src, _ := args["source"].(map[string]any)
			p, _ := src["path"].(string)
			if f.seen != nil {
				f.seen <- a.Breakpoints(p)
			}
			return nil, nil
		},
	}
}

func TestDebugRequest(t *testing.T) {
	c := startKernel(t, fakeDebugger{})
	info := content(t, c.reply(c.shellIn, c.send(c.shell, "kernel_info_request", map[string]any{})))
	if info["debugger"] != true || !reflect.DeepEqual(info["supported_features"], []any{"debugger"}) {
		t.Errorf("kernel_info_reply debugger %v, supported_features %v; want true, [debugger]", info["debugger"], info["supported_features"])
	}
	id := c.send(c.control, "debug_request", map[string]any{"type": "request", "seq": 7, "command": "threads", "arguments": map[string]any{}})
	r := c.reply(c.controlIn, id)
	got := content(t, r)
	if r.Header.MsgType != "debug_reply" || got["command"] != "threads" || got["request_seq"] != 7.0 || got["success"] != true {
		t.Errorf("reply %s %v", r.Header.MsgType, got)
	}
	ev := content(t, c.waitFor(id, "debug_event"))
	if ev["event"] != "seen" || ev["body"].(map[string]any)["command"] != "threads" {
		t.Errorf("debug_event %v", ev)
	}
}

func TestDebugRequestWithoutDebugger(t *testing.T) {
	c := startKernel(t, fakeInterp{})
	id := c.send(c.control, "debug_request", map[string]any{"type": "request", "seq": 3, "command": "initialize"})
	got := content(t, c.reply(c.controlIn, id))
	if got["success"] != false || got["request_seq"] != 3.0 || got["command"] != "initialize" {
		t.Errorf("reply %v, want a failed response", got)
	}
}

// adapterClient drives a DebugAdapter as JupyterLab does, and collects
// its events.
type adapterClient struct {
	t      *testing.T
	a      *DebugAdapter
	seq    int
	events chan map[string]any
}

func (c *adapterClient) req(command string, args map[string]any) map[string]any {
	c.t.Helper()
	c.seq++
	b, _ := json.Marshal(map[string]any{"type": "request", "seq": c.seq, "command": command, "arguments": args})
	out := c.a.Request(b, func(e []byte) {
		var m map[string]any
		if err := json.Unmarshal(e, &m); err != nil {
			c.t.Errorf("event is not JSON: %s", e)
		}
		c.events <- m
	})
	var r map[string]any
	if err := json.Unmarshal(out, &r); err != nil {
		c.t.Fatalf("%s: response is not JSON: %s", command, out)
	}
	// The Debug Adapter Protocol's Response: type, seq, request_seq,
	// success, command, and a body.
	if r["type"] != "response" || r["command"] != command || r["request_seq"] != float64(c.seq) {
		c.t.Errorf("%s: response %v does not answer request %d", command, r, c.seq)
	}
	if _, ok := r["body"].(map[string]any); !ok {
		c.t.Errorf("%s: response %v has no body", command, r)
	}
	return r
}

func (c *adapterClient) body(command string, args map[string]any) map[string]any {
	c.t.Helper()
	r := c.req(command, args)
	if r["success"] != true {
		c.t.Fatalf("%s %v: %v", command, args, r)
	}
	return r["body"].(map[string]any)
}

// TestDebugAdapter checks the protocol's plumbing against JupyterLab's
// expectations: initialize merges the language's capabilities and is
// followed by the initialized event; debugInfo names cells by murmur2
// with ipykernel's seed; dumpCell gives the path JupyterLab computes from
// debugInfo; setBreakpoints verifies lines against the dumped cell and
// shows up in debugInfo; source gives a dumped cell back; responses and
// events share one rising sequence; an unknown command fails.
func TestDebugAdapter(t *testing.T) {
	seen := make(chan []int, 4)
	c := &adapterClient{t: t, a: NewDebugAdapter(fakeDebugger{seen: seen}), events: make(chan map[string]any, 16)}

	r := c.req("initialize", map[string]any{"clientID": "test", "adapterID": "", "pathFormat": "path", "linesStartAt1": true})
	if r["success"] != true || r["body"].(map[string]any)["supportsConfigurationDoneRequest"] != true {
		t.Errorf("initialize: %v, want the language's capabilities", r)
	}
	var names []string
	var seqs []float64
	for len(names) < 2 {
		select {
		case e := <-c.events:
			names = append(names, e["event"].(string))
			seqs = append(seqs, e["seq"].(float64))
		case <-time.After(10 * time.Second):
			t.Fatalf("events after initialize: %v, want seen and initialized", names)
		}
	}
	if !reflect.DeepEqual(names, []string{"seen", "initialized"}) {
		t.Errorf("events after initialize: %v, want [seen initialized]", names)
	}
	if !(seqs[0] < r["seq"].(float64) && r["seq"].(float64) < seqs[1]) {
		t.Errorf("seq: event %v, response %v, event %v: want one rising sequence", seqs[0], r["seq"], seqs[1])
	}

	info := c.body("debugInfo", nil)
	if info["isStarted"] != true || info["hashMethod"] != "Murmur2" || info["hashSeed"] != float64(0xC70F6907) {
		t.Errorf("debugInfo %v: want started, Murmur2 with ipykernel's seed 3339675911", info)
	}
	code := "x := 1\ny := 2\n"
	want := info["tmpFilePrefix"].(string) + strconv.FormatUint(uint64(murmur2([]byte(code), 0xC70F6907)), 10) + info["tmpFileSuffix"].(string)
	path := c.body("dumpCell", map[string]any{"code": code})["sourcePath"]
	if path != want {
		t.Errorf("dumpCell path %v, want %s (tmpFilePrefix + murmur2 + tmpFileSuffix)", path, want)
	}

	bps := c.body("setBreakpoints", map[string]any{"source": map[string]any{"path": path}, "breakpoints": []any{map[string]any{"line": 2}, map[string]any{"line": 9}}})
	var verified []any
	for _, b := range bps["breakpoints"].([]any) {
		verified = append(verified, b.(map[string]any)["verified"])
	}
	if !reflect.DeepEqual(verified, []any{true, false}) {
		t.Errorf("setBreakpoints lines 2 and 9 of a 3-line cell: verified %v, want [true false]", verified)
	}
	if got := <-seen; !reflect.DeepEqual(got, []int{2, 9}) {
		t.Errorf("the language's setBreakpoints saw %v, want [2 9]", got)
	}
	info = c.body("debugInfo", nil)
	wantBps := []any{map[string]any{"source": path, "breakpoints": []any{map[string]any{"line": 2.0}, map[string]any{"line": 9.0}}}}
	if !reflect.DeepEqual(info["breakpoints"], wantBps) {
		t.Errorf("debugInfo breakpoints %v, want %v", info["breakpoints"], wantBps)
	}

	if got := c.body("source", map[string]any{"source": map[string]any{"path": path}})["content"]; got != code {
		t.Errorf("source %q, want %q", got, code)
	}
	if r := c.req("frobnicate", nil); r["success"] != false || r["message"] == "" {
		t.Errorf("unknown command: %v, want a failed response with a message", r)
	}

	c.body("disconnect", nil)
	if info := c.body("debugInfo", nil); info["isStarted"] != false || len(info["breakpoints"].([]any)) != 0 {
		t.Errorf("debugInfo after disconnect %v, want not started, no breakpoints", info)
	}
}
