package kernel_test

import (
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/gotensor/gotensor/kernel"
	"github.com/gotensor/gotensor/kernel/debugtest"
)

// TestDebugAdapter checks the protocol's plumbing against JupyterLab's
// expectations: initialize merges the language's capabilities and is
// followed by the initialized event; debugInfo names cells by murmur2
// with ipykernel's seed; dumpCell gives the path JupyterLab computes from
// debugInfo; setBreakpoints verifies lines against the dumped cell and
// shows up in debugInfo; source gives a dumped cell back; responses and
// events share one rising sequence; an unknown command fails.
func TestDebugAdapter(t *testing.T) {
	seen := make(chan []int, 4)
	c := debugtest.NewClient(t, kernel.NewDebugAdapter(kernel.NewFakeDebugger(seen)), 16)

	r := c.Request("initialize", map[string]any{"clientID": "test", "adapterID": "", "pathFormat": "path", "linesStartAt1": true})
	if r["success"] != true || r["body"].(map[string]any)["supportsConfigurationDoneRequest"] != true {
		t.Errorf("initialize: %v, want the language's capabilities", r)
	}
	var names []string
	var seqs []float64
	for len(names) < 2 {
		select {
		case e := <-c.Events:
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

	info := c.Body("debugInfo", nil)
	if info["isStarted"] != true || info["hashMethod"] != "Murmur2" || info["hashSeed"] != float64(0xC70F6907) {
		t.Errorf("debugInfo %v: want started, Murmur2 with ipykernel's seed 3339675911", info)
	}
	code := "x := 1\ny := 2\n"
	want := info["tmpFilePrefix"].(string) + strconv.FormatUint(uint64(kernel.Murmur2([]byte(code), 0xC70F6907)), 10) + info["tmpFileSuffix"].(string)
	path := c.Body("dumpCell", map[string]any{"code": code})["sourcePath"]
	if path != want {
		t.Errorf("dumpCell path %v, want %s (tmpFilePrefix + murmur2 + tmpFileSuffix)", path, want)
	}

	bps := c.Body("setBreakpoints", map[string]any{"source": map[string]any{"path": path}, "breakpoints": []any{map[string]any{"line": 2}, map[string]any{"line": 9}}})
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
	info = c.Body("debugInfo", nil)
	wantBps := []any{map[string]any{"source": path, "breakpoints": []any{map[string]any{"line": 2.0}, map[string]any{"line": 9.0}}}}
	if !reflect.DeepEqual(info["breakpoints"], wantBps) {
		t.Errorf("debugInfo breakpoints %v, want %v", info["breakpoints"], wantBps)
	}

	if got := c.Body("source", map[string]any{"source": map[string]any{"path": path}})["content"]; got != code {
		t.Errorf("source %q, want %q", got, code)
	}
	if r := c.Request("frobnicate", nil); r["success"] != false || r["message"] == "" {
		t.Errorf("unknown command: %v, want a failed response with a message", r)
	}

	c.Body("disconnect", nil)
	if info := c.Body("debugInfo", nil); info["isStarted"] != false || len(info["breakpoints"].([]any)) != 0 {
		t.Errorf("debugInfo after disconnect %v, want not started, no breakpoints", info)
	}
}
