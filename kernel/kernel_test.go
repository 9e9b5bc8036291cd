package kernel

import (
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/gotensor/gotensor/protocol"
)

func TestKernelInfo(t *testing.T) {
	c := startKernel(t, fakeInterp{})
	for _, ch := range []struct {
		sock zmq4.Socket
		in   chan *protocol.Message
	}{{c.shell, c.shellIn}, {c.control, c.controlIn}} {
		id := c.send(ch.sock, "kernel_info_request", map[string]any{})
		r := c.reply(ch.in, id)
		if *r.ParentHeader != c.sent[id] {
			t.Errorf("reply parent = %+v, want %+v", r.ParentHeader, c.sent[id])
		}
		if r.Header.MsgType != "kernel_info_reply" || r.Header.Version != "5.3" || r.Header.Session == c.session.ID {
			t.Errorf("reply header %+v", r.Header)
		}
		got := content(t, r)
		want := map[string]any{
			"status": "ok", "protocol_version": "5.3",
			"implementation": "gotensor", "implementation_version": "0.1.0",
			"language_info": map[string]any{
				"name": "go", "version": "1.26", "mimetype": "text/x-go", "file_extension": ".go",
				"pygments_lexer": "go", "codemirror_mode": "go",
			},
			"banner":             "gotensor test",
			"help_links":         []any{map[string]any{"text": "Go", "url": "https://go.dev/doc"}},
			"debugger":           false,
			"supported_features": []any{},
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("kernel_info_reply =\n%v\nwant\n%v", got, want)
		}
		out := c.outputs(id)
		if s := types(out); !slices.Equal(s, []string{"status:busy", "status:idle"}) {
			t.Errorf("iopub = %v, want busy, idle", s)
		}
		for _, m := range out {
			if *m.ParentHeader != c.sent[id] {
				t.Errorf("iopub parent = %+v, want %+v", m.ParentHeader, c.sent[id])
			}
		}
	}
}

// TestPagePayload checks that what a cell pages comes back in its
// execute_reply as the messaging specification's "page" payload, and that a
// cell that pages nothing has an empty payload.
func TestPagePayload(t *testing.T) {
	c := startKernel(t, fakeInterp{})
	reply, _ := c.execute("page first\npage func Println(a ...any)", nil)
	want := []any{map[string]any{"source": "page", "data": map[string]any{"text/plain": "func Println(a ...any)"}, "start": 0.0}}
	if reply["status"] != "ok" || !reflect.DeepEqual(reply["payload"], want) {
		t.Errorf("reply = %v, want payload %v", reply, want)
	}
	if reply, _ := c.execute("print x", nil); !reflect.DeepEqual(reply["payload"], []any{}) {
		t.Errorf("a cell that pages nothing: payload %v", reply["payload"])
	}
}

func TestIPCTransport(t *testing.T) {
	c := startKernelOn(t, fakeInterp{}, "ipc")
	if r, _ := c.execute("print over ipc\nvalue 1", nil); r["status"] != "ok" {
		t.Errorf("execute over ipc: %v", r)
	}
}

// TestReady checks that Config.Ready is called once, after the first
// answer, however many requests follow.
func TestReady(t *testing.T) {
	var calls atomic.Int32
	c := startKernelOn(t, fakeInterp{}, "tcp", func(cfg *Config) { cfg.Ready = func() { calls.Add(1) } })
	// startKernel has had kernel_info_reply and an idle status: Ready is
	// called right after that status, on the kernel's side.
	for deadline := time.Now().Add(timeout); calls.Load() == 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	for range 3 {
		if r, _ := c.execute("value 1", nil); r["status"] != "ok" {
			t.Fatalf("execute: %v", r)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("Ready was called %d times, want once", n)
	}
}

func TestExecute(t *testing.T) {
	c := startKernel(t, fakeInterp{})

	reply, out := c.execute("print hi\neprint oops\nvalue 42", nil)
	if reply["status"] != "ok" || reply["execution_count"] != 1.0 {
		t.Errorf("reply = %v", reply)
	}
	if !reflect.DeepEqual(reply["user_expressions"], map[string]any{}) || !reflect.DeepEqual(reply["payload"], []any{}) {
		t.Errorf("reply user_expressions/payload = %v", reply)
	}
	want := []string{"status:busy", "execute_input", "stream", "stream", "execute_result", "status:idle"}
	if s := types(out); !slices.Equal(s, want) {
		t.Fatalf("iopub = %v, want %v", s, want)
	}
	if got := content(t, out[1]); got["code"] != "print hi\neprint oops\nvalue 42" || got["execution_count"] != 1.0 {
		t.Errorf("execute_input = %v", got)
	}
	if got := content(t, out[2]); got["name"] != "stdout" || got["text"] != "hi\n" {
		t.Errorf("stream = %v", got)
	}
	if got := content(t, out[3]); got["name"] != "stderr" || got["text"] != "oops\n" {
		t.Errorf("stream = %v", got)
	}
	wantResult := map[string]any{
		"execution_count": 1.0,
		"data":            map[string]any{"text/plain": "42", "text/html": "<b>42</b>"},
		"metadata":        map[string]any{"text/html": map[string]any{"isolated": true}},
	}
	if got := content(t, out[4]); !reflect.DeepEqual(got, wantResult) {
		t.Errorf("execute_result = %v, want %v", got, wantResult)
	}
	for _, m := range out {
		if h := *m.ParentHeader; h != c.sent[h.MsgID] || h.MsgType != "execute_request" {
			t.Errorf("%s parent = %+v", m.Header.MsgType, m.ParentHeader)
		}
		if !strings.HasPrefix(m.Header.Date, "20") || !strings.HasSuffix(m.Header.Date, "Z") {
			t.Errorf("date %q", m.Header.Date)
		}
	}

	// A cell with no value has no execute_result; the count goes on.
	reply, out = c.execute("print x", nil)
	if reply["execution_count"] != 2.0 || slices.Contains(types(out), "execute_result") {
		t.Errorf("second run: reply %v, iopub %v", reply, types(out))
	}

	// Silent: nothing but busy and idle, and no count.
	reply, out = c.execute("print secret\nvalue 7", map[string]any{"silent": true})
	if reply["status"] != "ok" || reply["execution_count"] != 2.0 {
		t.Errorf("silent reply = %v", reply)
	}
	if s := types(out); !slices.Equal(s, []string{"status:busy", "status:idle"}) {
		t.Errorf("silent iopub = %v", s)
	}

	// store_history false: output, but no count and no history.
	reply, out = c.execute("value 8", map[string]any{"store_history": false})
	if reply["execution_count"] != 2.0 || content(t, out[1])["execution_count"] != 2.0 {
		t.Errorf("store_history false: reply %v, execute_input %v", reply, content(t, out[1]))
	}
	reply, _ = c.execute("value 9", nil)
	if reply["execution_count"] != 3.0 {
		t.Errorf("count after store_history false = %v, want 3", reply["execution_count"])
	}
}

func TestExecuteError(t *testing.T) {
	c := startKernel(t, fakeInterp{})
	reply, out := c.execute("print before\nfail bad thing", nil)
	want := map[string]any{
		"status": "error", "execution_count": 1.0,
		"ename": "FakeError", "evalue": "bad thing",
		"traceback": []any{"cell line 1", "FakeError: bad thing"},
	}
	if !reflect.DeepEqual(reply, want) {
		t.Errorf("reply = %v, want %v", reply, want)
	}
	if s := types(out); !slices.Equal(s, []string{"status:busy", "execute_input", "stream", "error", "status:idle"}) {
		t.Fatalf("iopub = %v", s)
	}
	if got := content(t, out[3]); got["ename"] != "FakeError" || got["evalue"] != "bad thing" || len(got["traceback"].([]any)) != 2 {
		t.Errorf("error = %v", got)
	}

	// A plain error and an interpreter panic become error replies too, and
	// the kernel lives on.
	reply, _ = c.execute("goerror plain", nil)
	if reply["ename"] != "Error" || reply["evalue"] != "plain" {
		t.Errorf("plain error reply = %v", reply)
	}
	reply, _ = c.execute("panic", nil)
	if reply["status"] != "error" || reply["ename"] != "InternalError" || !strings.Contains(reply["evalue"].(string), "exploded") {
		t.Errorf("panic reply = %v", reply)
	}
	if reply, _ = c.execute("value ok", nil); reply["status"] != "ok" || reply["execution_count"] != 4.0 {
		t.Errorf("after panic: %v", reply)
	}
}

func TestStopOnError(t *testing.T) {
	c := startKernel(t, fakeInterp{})
	send := func(code string, stop bool) string {
		return c.send(c.shell, "execute_request", map[string]any{"code": code, "stop_on_error": stop, "store_history": true})
	}
	// The failing cell sleeps, so the next two are queued when it fails.
	a, b, i, d := send("sleep\nfail first", true), send("value b", true), c.send(c.shell, "is_complete_request", map[string]any{"code": "x"}), send("value d", true)
	if r := content(t, c.reply(c.shellIn, a)); r["status"] != "error" {
		t.Errorf("A: %v", r)
	}
	for _, id := range []string{b, d} {
		if r := content(t, c.reply(c.shellIn, id)); r["status"] != "aborted" {
			t.Errorf("queued execute_request: %v, want aborted", r)
		}
		if s := types(c.outputs(id)); !slices.Equal(s, []string{"status:busy", "status:idle"}) {
			t.Errorf("aborted iopub = %v", s)
		}
	}
	// Only execute_requests are aborted.
	if r := content(t, c.reply(c.shellIn, i)); r["status"] != "complete" {
		t.Errorf("queued is_complete_request: %v", r)
	}
	// The queue is clear again.
	if r, _ := c.execute("value e", nil); r["status"] != "ok" || r["execution_count"] != 2.0 {
		t.Errorf("after abort: %v", r)
	}

	// stop_on_error false keeps the queue.
	a, b = send("sleep\nfail again", false), send("value f", true)
	if r := content(t, c.reply(c.shellIn, a)); r["status"] != "error" {
		t.Errorf("A: %v", r)
	}
	if r := content(t, c.reply(c.shellIn, b)); r["status"] != "ok" {
		t.Errorf("B after stop_on_error false: %v", r)
	}
}

func TestInterrupt(t *testing.T) {
	c := startKernel(t, fakeInterp{})
	for _, how := range []string{"interrupt_request", "SIGINT"} {
		start := time.Now()
		id := c.send(c.shell, "execute_request", map[string]any{"code": "block", "stop_on_error": true})
		c.waitFor(id, "execute_input") // the cell is running
		queued := c.send(c.shell, "execute_request", map[string]any{"code": "value q"})
		time.Sleep(20 * time.Millisecond)
		if how == "SIGINT" {
			if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
		} else {
			ir := c.reply(c.controlIn, c.send(c.control, "interrupt_request", map[string]any{}))
			if ir.Header.MsgType != "interrupt_reply" || content(t, ir)["status"] != "ok" {
				t.Errorf("interrupt reply %s %v", ir.Header.MsgType, content(t, ir))
			}
		}
		r := content(t, c.reply(c.shellIn, id))
		if r["status"] != "error" || r["ename"] != "Interrupted" {
			t.Errorf("%s: interrupted cell reply = %v", how, r)
		}
		// An interrupt is an error: the queued cell is aborted, as in Jupyter.
		if r := content(t, c.reply(c.shellIn, queued)); r["status"] != "aborted" {
			t.Errorf("%s: queued cell = %v, want aborted", how, r)
		}
		t.Logf("%s: interrupted after %v", how, time.Since(start))
	}
	// The interpreter still runs cells.
	if r, _ := c.execute("value after", nil); r["status"] != "ok" {
		t.Errorf("after interrupt: %v", r)
	}
	// An interrupt with no cell running is answered too.
	if ir := c.reply(c.controlIn, c.send(c.control, "interrupt_request", map[string]any{})); content(t, ir)["status"] != "ok" {
		t.Errorf("idle interrupt: %v", content(t, ir))
	}
}

func TestHistory(t *testing.T) {
	c := startKernel(t, fakeInterp{})
	for _, code := range []string{"value a", "print b", "value a", "value c"} {
		c.execute(code, nil)
	}
	c.execute("value hidden", map[string]any{"store_history": false})
	c.execute("value silent", map[string]any{"silent": true})

	hist := func(req map[string]any) []any {
		t.Helper()
		r := content(t, c.reply(c.shellIn, c.send(c.shell, "history_request", req)))
		if r["status"] != "ok" {
			t.Fatalf("history_request %v: %v", req, r)
		}
		return r["history"].([]any)
	}
	item := func(line int, input any) []any { return []any{0.0, float64(line), input} }
	for _, tc := range []struct {
		req  map[string]any
		want []any
	}{
		{map[string]any{"hist_access_type": "tail", "n": 2, "output": false, "raw": true},
			[]any{item(3, "value a"), item(4, "value c")}},
		{map[string]any{"hist_access_type": "tail", "n": 100, "output": true, "raw": true},
			[]any{item(1, []any{"value a", "a"}), item(2, []any{"print b", nil}), item(3, []any{"value a", "a"}), item(4, []any{"value c", "c"})}},
		{map[string]any{"hist_access_type": "search", "pattern": "value*", "raw": true},
			[]any{item(1, "value a"), item(3, "value a"), item(4, "value c")}},
		{map[string]any{"hist_access_type": "search", "pattern": "value*", "unique": true, "raw": true},
			[]any{item(3, "value a"), item(4, "value c")}},
		{map[string]any{"hist_access_type": "search", "pattern": "*[bc]", "n": 1, "raw": true},
			[]any{item(4, "value c")}},
		{map[string]any{"hist_access_type": "search", "pattern": "Value*", "raw": true},
			[]any{}},
		{map[string]any{"hist_access_type": "range", "session": 0, "start": 2, "stop": 4, "raw": true},
			[]any{item(2, "print b"), item(3, "value a")}},
		{map[string]any{"hist_access_type": "range", "session": 0, "start": -2, "raw": true},
			[]any{item(3, "value a"), item(4, "value c")}},
		{map[string]any{"hist_access_type": "range", "session": 3, "start": 1, "raw": true},
			[]any{}},
	} {
		if got := hist(tc.req); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v:\n got %v\nwant %v", tc.req, got, tc.want)
		}
	}
}

func TestComplete(t *testing.T) {
	c := startKernel(t, fakeInterp{})
	code := "x := 1\nfmt.Pr"
	r := content(t, c.reply(c.shellIn, c.send(c.shell, "complete_request", map[string]any{"code": code, "cursor_pos": 13})))
	want := map[string]any{"status": "ok", "matches": []any{"Printf", "Println"}, "cursor_start": 11.0, "cursor_end": 13.0, "metadata": map[string]any{}}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("complete_reply = %v, want %v", r, want)
	}
	r = content(t, c.reply(c.shellIn, c.send(c.shell, "complete_request", map[string]any{"code": "x", "cursor_pos": 1})))
	if !reflect.DeepEqual(r["matches"], []any{}) || r["cursor_start"] != 1.0 {
		t.Errorf("empty complete_reply = %v", r)
	}

	r = content(t, c.reply(c.shellIn, c.send(c.shell, "inspect_request", map[string]any{"code": "fmt.Println", "cursor_pos": 5, "detail_level": 0})))
	want = map[string]any{"status": "ok", "found": true, "data": map[string]any{"text/plain": "func Println(a ...any) (n int, err error)"}, "metadata": map[string]any{}}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("inspect_reply = %v, want %v", r, want)
	}
	r = content(t, c.reply(c.shellIn, c.send(c.shell, "inspect_request", map[string]any{"code": "x", "cursor_pos": 1})))
	if r["found"] != false || !reflect.DeepEqual(r["data"], map[string]any{}) {
		t.Errorf("not-found inspect_reply = %v", r)
	}

	for code, want := range map[string]map[string]any{
		"for {":  {"status": "incomplete", "indent": "\t"},
		"x := 1": {"status": "complete"},
		"f())":   {"status": "invalid"},
		"":       {"status": "unknown"},
	} {
		r := content(t, c.reply(c.shellIn, c.send(c.shell, "is_complete_request", map[string]any{"code": code})))
		if !reflect.DeepEqual(r, want) {
			t.Errorf("is_complete %q = %v, want %v", code, r, want)
		}
	}
}

func TestDisplayOutputs(t *testing.T) {
	c := startKernel(t, fakeInterp{})
	_, out := c.execute("display bar\ndisplay -\nclear", nil)
	want := []string{"status:busy", "execute_input", "display_data", "update_display_data", "display_data", "display_data", "clear_output", "status:idle"}
	if s := types(out); !slices.Equal(s, want) {
		t.Fatalf("iopub = %v, want %v", s, want)
	}
	for i, w := range []map[string]any{
		{"data": map[string]any{"text/plain": "shown"}, "metadata": map[string]any{}, "transient": map[string]any{"display_id": "bar"}},
		{"data": map[string]any{"text/plain": "updated"}, "metadata": map[string]any{}, "transient": map[string]any{"display_id": "bar"}},
		{"data": map[string]any{"text/plain": "shown"}, "metadata": map[string]any{}},
		{"data": map[string]any{"text/plain": "updated"}, "metadata": map[string]any{}}, // an update without id is a new output
		{"wait": true},
	} {
		if got := content(t, out[2+i]); !reflect.DeepEqual(got, w) {
			t.Errorf("output %d (%s) = %v, want %v", i, out[2+i].Header.MsgType, got, w)
		}
	}
}

func TestStdin(t *testing.T) {
	c := startKernel(t, fakeInterp{})
	id := c.send(c.shell, "execute_request", map[string]any{"code": "input Name? ", "allow_stdin": true})
	ir := c.reply(c.stdinIn, id)
	if ir.Header.MsgType != "input_request" {
		t.Fatalf("stdin got %s", ir.Header.MsgType)
	}
	if got := content(t, ir); got["prompt"] != "Name? " || got["password"] != false {
		t.Errorf("input_request = %v", got)
	}
	m, _ := c.session.NewMessage("input_reply", ir, map[string]any{"value": "gopher"})
	m.Identities = nil
	c.sendMsg(c.stdin, m)
	if r := content(t, c.reply(c.shellIn, id)); r["status"] != "ok" {
		t.Errorf("reply = %v", r)
	}
	res := c.waitFor(id, "execute_result")
	if got := content(t, res)["data"]; !reflect.DeepEqual(got, map[string]any{"text/plain": "gopher"}) {
		t.Errorf("value = %v", got)
	}

	// Without allow_stdin, Input fails at once.
	r, _ := c.execute("input Name?", map[string]any{"allow_stdin": false})
	if r["status"] != "error" || !strings.Contains(r["evalue"].(string), "allow_stdin") {
		t.Errorf("input without stdin: %v", r)
	}

	// An interrupt ends a wait for input.
	id = c.send(c.shell, "execute_request", map[string]any{"code": "input never", "allow_stdin": true})
	c.reply(c.stdinIn, id)
	c.reply(c.controlIn, c.send(c.control, "interrupt_request", map[string]any{}))
	if r := content(t, c.reply(c.shellIn, id)); r["status"] != "error" {
		t.Errorf("interrupted input: %v", r)
	}
}

func TestComms(t *testing.T) {
	c := startKernel(t, fakeInterp{})
	r := content(t, c.reply(c.shellIn, c.send(c.shell, "comm_info_request", map[string]any{})))
	if !reflect.DeepEqual(r, map[string]any{"status": "ok", "comms": map[string]any{}}) {
		t.Errorf("comm_info_reply = %v", r)
	}
	id := c.send(c.shell, "comm_open", map[string]any{"comm_id": "c-1", "target_name": "jupyter.widget", "data": map[string]any{}})
	out := c.outputs(id)
	if s := types(out); !slices.Equal(s, []string{"status:busy", "comm_close", "status:idle"}) {
		t.Fatalf("iopub = %v", s)
	}
	if got := content(t, out[1]); !reflect.DeepEqual(got, map[string]any{"comm_id": "c-1", "data": map[string]any{}}) {
		t.Errorf("comm_close = %v", got)
	}
	// A comm_msg to a comm the kernel does not have is answered with
	// comm_close, as comm_open to an unknown target is; comm_close is
	// not answered.
	for _, tc := range []struct {
		typ  string
		want []string
	}{
		{"comm_msg", []string{"status:busy", "comm_close", "status:idle"}},
		{"comm_close", []string{"status:busy", "status:idle"}},
	} {
		id := c.send(c.shell, tc.typ, map[string]any{"comm_id": "c-1", "data": map[string]any{}})
		c.noReply(c.shellIn, id, 50*time.Millisecond)
		if s := types(c.outputs(id)); !slices.Equal(s, tc.want) {
			t.Errorf("%s iopub = %v, want %v", tc.typ, s, tc.want)
		}
	}
}

func TestBadMessages(t *testing.T) {
	c := startKernel(t, fakeInterp{})

	// A forged execute_request: signed with another key.
	forger, _ := protocol.NewSigner(protocol.SchemeHMACSHA256, []byte("wrong key"))
	m, _ := c.session.NewMessage("execute_request", nil, map[string]any{"code": "print evil"})
	frames, _ := m.Encode(forger)
	c.sendFrames(c.shell, frames)
	// The same, unsigned.
	frames, _ = m.Encode(nil)
	c.sendFrames(c.shell, frames)
	// Garbage, a truncated message, bad JSON, an unknown type.
	c.sendFrames(c.shell, [][]byte{[]byte("hello")})
	c.sendFrames(c.shell, frames[:3])
	bad := [][]byte{[]byte(protocol.Delimiter), nil, []byte(`{"msg_type":`), []byte("{}"), []byte("{}"), []byte("{}")}
	bad[1] = c.signer.Sign(bad[2:6]...)
	c.sendFrames(c.shell, bad)
	c.sendFrames(c.control, [][]byte{})
	unknown := c.send(c.shell, "frobnicate_request", map[string]any{})
	// A known type with content of the wrong shape is answered with an error.
	wrong := c.send(c.shell, "complete_request", map[string]any{"code": 5})

	if r := content(t, c.reply(c.shellIn, wrong)); r["status"] != "error" {
		t.Errorf("wrong-shape complete_request: %v", r)
	}
	if r, out := c.execute("value alive", nil); r["status"] != "ok" || r["execution_count"] != 1.0 {
		t.Errorf("after bad messages: %v %v", r, types(out))
	}
	c.noReply(c.shellIn, unknown, 10*time.Millisecond)
	c.noReply(c.shellIn, m.Header.MsgID, 10*time.Millisecond)
	for len(c.iopub) > 0 {
		if m := <-c.iopub; m.Header.MsgType == "stream" {
			t.Errorf("a forged message ran: %s", m.Content)
		}
	}
}

func TestFlood(t *testing.T) {
	c := startKernel(t, fakeInterp{})
	var ids []string
	for range 300 {
		ids = append(ids, c.send(c.shell, "kernel_info_request", map[string]any{}))
	}
	for _, id := range ids {
		c.reply(c.shellIn, id)
	}
}

func TestHeartbeat(t *testing.T) {
	c := startKernel(t, fakeInterp{})
	for _, typ := range []zmq4.SocketType{zmq4.Req, zmq4.Dealer} {
		var hb zmq4.Socket
		if typ == zmq4.Req {
			hb = zmq4.NewReq(t.Context())
		} else {
			hb = zmq4.NewDealer(t.Context())
		}
		defer hb.Close()
		if err := hb.Dial(c.conn.Endpoint(c.conn.HBPort)); err != nil {
			t.Fatal(err)
		}
		for _, ping := range [][][]byte{{[]byte("ping")}, {[]byte("a"), {}, []byte("b")}} {
			if typ == zmq4.Req && len(ping) > 1 {
				continue
			}
			if err := hb.Send(zmq4.NewMsgFrom(ping...)); err != nil {
				t.Fatal(err)
			}
			got := make(chan zmq4.Msg, 1)
			go func() { m, _ := hb.Recv(); got <- m }()
			select {
			case m := <-got:
				if !reflect.DeepEqual(m.Frames, ping) {
					t.Errorf("%s: echo = %q, want %q", typ, m.Frames, ping)
				}
			case <-time.After(timeout):
				t.Fatalf("%s: no heartbeat echo", typ)
			}
		}
	}
}

func TestShutdown(t *testing.T) {
	for _, tc := range []struct {
		channel string
		restart bool
	}{{"control", true}, {"shell", false}} {
		c := startKernel(t, fakeInterp{})
		sock, in := c.control, c.controlIn
		if tc.channel == "shell" {
			sock, in = c.shell, c.shellIn
		}
		id := c.send(sock, "shutdown_request", map[string]any{"restart": tc.restart})
		r := c.reply(in, id)
		if r.Header.MsgType != "shutdown_reply" || !reflect.DeepEqual(content(t, r), map[string]any{"status": "ok", "restart": tc.restart}) {
			t.Errorf("%s: reply %s %v", tc.channel, r.Header.MsgType, content(t, r))
		}
		if s := types(c.outputs(id)); !slices.Equal(s, []string{"status:busy", "shutdown_reply", "status:idle"}) {
			t.Errorf("%s: iopub = %v", tc.channel, s)
		}
		select {
		case restart := <-c.done:
			if restart != tc.restart {
				t.Errorf("%s: serve returned restart=%v, want %v", tc.channel, restart, tc.restart)
			}
			c.done <- restart // for the cleanup
		case <-time.After(timeout):
			t.Fatalf("%s: kernel still running after shutdown_request", tc.channel)
		}
	}
}
