package kernel

import (
	"reflect"
	"testing"
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
