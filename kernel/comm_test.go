package kernel

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gotensor/gotensor/protocol"
)

// commInterp is fakeInterp with one comm target, "echo": a comm_msg to an
// echo comm is answered on the comm with {"echo": data} and the message's
// buffers, after a pause of data's "sleep" milliseconds. The cell "count"
// has the number of comm messages handled as its value; the cell "open X"
// opens a comm X of target "echo" from the kernel.
type commInterp struct {
	fakeInterp
	mu      sync.Mutex
	comms   map[string]string
	handled int
}

func (f *commInterp) Execute(ctx context.Context, code string, out Output) (*Bundle, error) {
	var cmd, arg string
	fmt.Sscan(code, &cmd, &arg)
	switch cmd {
	case "count":
		f.mu.Lock()
		defer f.mu.Unlock()
		b := text(fmt.Sprint(f.handled))
		return &b, nil
	case "open":
		f.mu.Lock()
		f.comms[arg] = "echo"
		f.mu.Unlock()
		out.(CommOutput).Comm(CommMessage{Type: "comm_open", ID: arg, Target: "echo", Data: json.RawMessage(`{"state":{}}`),
			Metadata: map[string]any{"version": "2.1.0"}, Buffers: [][]byte{{1, 2, 3}}})
		return nil, nil
	}
	return f.fakeInterp.Execute(ctx, code, out)
}

func (f *commInterp) CommOpen(ctx context.Context, m CommMessage, out CommOutput) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if m.Target != "echo" {
		return false
	}
	f.comms[m.ID] = m.Target
	return true
}

func (f *commInterp) CommMsg(ctx context.Context, m CommMessage, out CommOutput) bool {
	f.mu.Lock()
	_, ok := f.comms[m.ID]
	f.mu.Unlock()
	if !ok {
		return false
	}
	var d struct{ Sleep int }
	json.Unmarshal(m.Data, &d)
	select {
	case <-time.After(time.Duration(d.Sleep) * time.Millisecond):
	case <-ctx.Done():
	}
	data, _ := json.Marshal(map[string]json.RawMessage{"echo": m.Data})
	out.Comm(CommMessage{Type: "comm_msg", ID: m.ID, Data: data, Buffers: m.Buffers})
	f.mu.Lock()
	f.handled++
	f.mu.Unlock()
	return true
}

func (f *commInterp) CommClose(ctx context.Context, m CommMessage, out CommOutput) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.comms, m.ID)
}

func (f *commInterp) CommInfo(target string) map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := map[string]string{}
	for id, t := range f.comms {
		if target == "" || t == target {
			m[id] = t
		}
	}
	return m
}

// TestCommsInterpreter checks the comm messages of an Interpreter that has
// comm targets: comm_open to its target and to another, comm_msg with
// buffers answered on iopub with the comm_msg as parent, comm_info with
// and without a target name, comm_close, and comms the kernel opens.
func TestCommsInterpreter(t *testing.T) {
	c := startKernel(t, &commInterp{comms: map[string]string{}})
	id := c.send(c.shell, "comm_open", map[string]any{"comm_id": "e-1", "target_name": "echo", "data": map[string]any{}})
	if s := types(c.outputs(id)); !slices.Equal(s, []string{"status:busy", "status:idle"}) {
		t.Errorf("comm_open to a target: iopub = %v", s)
	}
	id = c.send(c.shell, "comm_open", map[string]any{"comm_id": "x-1", "target_name": "nothing", "data": map[string]any{}})
	if s := types(c.outputs(id)); !slices.Equal(s, []string{"status:busy", "comm_close", "status:idle"}) {
		t.Errorf("comm_open to an unknown target: iopub = %v", s)
	}

	m, err := c.session.NewMessage("comm_msg", nil, map[string]any{"comm_id": "e-1", "data": map[string]any{"x": 1}})
	if err != nil {
		t.Fatal(err)
	}
	m.Buffers = [][]byte{[]byte("\x00bin")}
	c.sendMsg(c.shell, m)
	out := c.outputs(m.Header.MsgID)
	if s := types(out); !slices.Equal(s, []string{"status:busy", "comm_msg", "status:idle"}) {
		t.Fatalf("comm_msg iopub = %v", s)
	}
	want := map[string]any{"comm_id": "e-1", "data": map[string]any{"echo": map[string]any{"x": 1.0}}}
	if got := content(t, out[1]); !reflect.DeepEqual(got, want) {
		t.Errorf("echo = %v, want %v", got, want)
	}
	if b := out[1].Buffers; len(b) != 1 || string(b[0]) != "\x00bin" {
		t.Errorf("echo buffers = %q", b)
	}

	for target, want := range map[string]map[string]any{
		"":        {"e-1": map[string]any{"target_name": "echo"}},
		"echo":    {"e-1": map[string]any{"target_name": "echo"}},
		"another": {},
	} {
		r := content(t, c.reply(c.shellIn, c.send(c.shell, "comm_info_request", map[string]any{"target_name": target})))
		if !reflect.DeepEqual(r, map[string]any{"status": "ok", "comms": want}) {
			t.Errorf("comm_info_reply for %q = %v", target, r)
		}
	}

	reply, out := c.execute("open k-1", nil)
	if reply["status"] != "ok" {
		t.Fatalf("open: %v", reply)
	}
	i := slices.Index(types(out), "comm_open")
	if i < 0 {
		t.Fatalf("no comm_open in %v", types(out))
	}
	want = map[string]any{"comm_id": "k-1", "target_name": "echo", "data": map[string]any{"state": map[string]any{}}}
	if got := content(t, out[i]); !reflect.DeepEqual(got, want) {
		t.Errorf("comm_open = %v, want %v", got, want)
	}
	if out[i].Metadata["version"] != "2.1.0" || len(out[i].Buffers) != 1 {
		t.Errorf("comm_open metadata %v, buffers %q", out[i].Metadata, out[i].Buffers)
	}

	id = c.send(c.shell, "comm_close", map[string]any{"comm_id": "e-1", "data": map[string]any{}})
	c.outputs(id)
	r := content(t, c.reply(c.shellIn, c.send(c.shell, "comm_info_request", map[string]any{"target_name": "echo"})))
	if got := r["comms"].(map[string]any); len(got) != 1 || got["k-1"] == nil {
		t.Errorf("after comm_close: comms %v, want k-1 only", got)
	}
}

// TestCommBesideCell checks that comm messages are served while a cell
// runs: the answer comes before the cell ends, the comm's idle is followed
// by busy again on behalf of the cell, and an execute_request sent after a
// comm message runs once that message is handled.
func TestCommBesideCell(t *testing.T) {
	c := startKernel(t, &commInterp{comms: map[string]string{}})
	c.outputs(c.send(c.shell, "comm_open", map[string]any{"comm_id": "e-1", "target_name": "echo", "data": map[string]any{}}))

	cell := c.send(c.shell, "execute_request", map[string]any{"code": "block", "silent": false})
	c.waitFor(cell, "execute_input")
	msg := c.send(c.shell, "comm_msg", map[string]any{"comm_id": "e-1", "data": map[string]any{"during": true}})
	var seen []string
	deadline := time.After(timeout)
	for len(seen) < 4 {
		select {
		case m := <-c.iopub:
			p := m.ParentHeader
			if p == nil {
				continue
			}
			switch {
			case p.MsgID == msg:
				seen = append(seen, "comm:"+typeOf(t, m))
			case p.MsgID == cell && m.Header.MsgType == "status":
				seen = append(seen, "cell:"+typeOf(t, m))
			}
		case <-deadline:
			t.Fatalf("within %v: %v", timeout, seen)
		}
	}
	want := []string{"comm:status:busy", "comm:comm_msg", "comm:status:idle", "cell:status:busy"}
	if !slices.Equal(seen, want) {
		t.Errorf("while the cell runs: %v, want %v", seen, want)
	}
	c.reply(c.controlIn, c.send(c.control, "interrupt_request", map[string]any{}))
	if r := content(t, c.reply(c.shellIn, cell)); r["status"] != "error" {
		t.Errorf("interrupted cell: %v", r)
	}

	// A slow comm message, then a cell: the cell sees it handled.
	c.send(c.shell, "comm_msg", map[string]any{"comm_id": "e-1", "data": map[string]any{"sleep": 300}})
	_, out := c.execute("count", nil)
	i := slices.Index(types(out), "execute_result")
	if i < 0 || content(t, out[i])["data"].(map[string]any)["text/plain"] != "2" {
		t.Errorf("the cell after two comm messages: %v", types(out))
	}
}

// typeOf is types for one message.
func typeOf(t *testing.T, m *protocol.Message) string { return types([]*protocol.Message{m})[0] }
