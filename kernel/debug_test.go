package kernel

import (
	"encoding/json"
	"reflect"
	"testing"
)

// fakeDebugger is fakeInterp with a debugger that answers every request
// with its command and sends one event named after it.
type fakeDebugger struct{ fakeInterp }

func (fakeDebugger) DebugRequest(request []byte, events func([]byte)) []byte {
	var req map[string]any
	json.Unmarshal(request, &req)
	ev, _ := json.Marshal(map[string]any{"type": "event", "seq": 1, "event": "seen", "body": map[string]any{"command": req["command"]}})
	events(ev)
	b, _ := json.Marshal(map[string]any{"type": "response", "seq": 2, "request_seq": req["seq"], "command": req["command"], "success": true, "body": map[string]any{}})
	return b
}

func TestDebugRequest(t *testing.T) {
	c := startKernel(t, fakeDebugger{})
	info := content(t, c.reply(c.shellIn, c.send(c.shell, "kernel_info_request", map[string]any{})))
	if info["debugger"] != true || !reflect.DeepEqual(info["supported_features"], []any{"debugger"}) {
		t.Errorf("kernel_info_reply debugger %v, supported_features %v; want true, [debugger]", info["debugger"], info["supported_features"])
	}
	id := c.send(c.control, "debug_request", map[string]any{"type": "request", "seq": 7, "command": "initialize", "arguments": map[string]any{}})
	r := c.reply(c.controlIn, id)
	got := content(t, r)
	if r.Header.MsgType != "debug_reply" || got["command"] != "initialize" || got["request_seq"] != 7.0 || got["success"] != true {
		t.Errorf("reply %s %v", r.Header.MsgType, got)
	}
	ev := content(t, c.waitFor(id, "debug_event"))
	if ev["event"] != "seen" || ev["body"].(map[string]any)["command"] != "initialize" {
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
