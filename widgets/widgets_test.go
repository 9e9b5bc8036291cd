package widgets

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gotensor/gotensor/display"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// fakeHost records what a Manager sends and posts; Capture sends
// display.Show's outputs to the capture's target, as a session does.
type fakeHost struct {
	mu     sync.Mutex
	sent   []Message
	posted []func()
}

func (h *fakeHost) Send(m Message) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sent = append(h.sent, m)
}

func (h *fakeHost) Post(f func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.posted = append(h.posted, f)
}

func (h *fakeHost) Capture(to Outputs, f func()) {
	restore := display.SetPublisher(to)
	defer restore()
	f()
}

// runPosted runs the posted callbacks, and those they post, as a
// session's safe point does.
func (h *fakeHost) runPosted() {
	for {
		h.mu.Lock()
		if len(h.posted) == 0 {
			h.mu.Unlock()
			return
		}
		f := h.posted[0]
		h.posted = h.posted[1:]
		h.mu.Unlock()
		f()
	}
}

// take returns the messages sent since the last take.
func (h *fakeHost) take() []Message {
	h.mu.Lock()
	defer h.mu.Unlock()
	m := h.sent
	h.sent = nil
	return m
}

// decoded is a message's data as JSON values.
func decoded(t *testing.T, m Message) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(m.Data, &v); err != nil {
		t.Fatalf("%s data %s: %v", m.Type, m.Data, err)
	}
	return v
}

// replies collects the messages a Handle call replies with.
type replies []Message

func (r *replies) add(m Message) { *r = append(*r, m) }

func newHosted(t *testing.T) (*fakeHost, *Manager) {
	t.Helper()
	h := &fakeHost{}
	return h, NewManager(h)
}

// TestBuffers checks removeBuffers and putBuffers on the example of the
// protocol's specification (messages.md, "Instantiating a widget object"):
// buffer_paths [["x"], ["y", "z", 0]] name state["x"] and
// state["y"]["z"][0]; a buffer in a list leaves null there, one under a
// key leaves no key.
func TestBuffers(t *testing.T) {
	x, z := []byte{1, 2}, []byte{3}
	state := map[string]any{"x": x, "y": map[string]any{"z": []any{z, "keep"}}, "w": 1.0}
	out, paths, buffers := removeBuffers(state)
	wantOut := map[string]any{"y": map[string]any{"z": []any{nil, "keep"}}, "w": 1.0}
	if !reflect.DeepEqual(out, wantOut) {
		t.Errorf("state without buffers = %v, want %v", out, wantOut)
	}
	wantPaths := [][]any{{"x"}, {"y", "z", 0.0}}
	if !reflect.DeepEqual(paths, wantPaths) || !reflect.DeepEqual(buffers, [][]byte{x, z}) {
		t.Errorf("paths %v buffers %v, want %v and [x z]", paths, buffers, wantPaths)
	}
	if _, ok := state["x"]; !ok || state["y"].(map[string]any)["z"].([]any)[0] == nil {
		t.Error("removeBuffers changed its argument")
	}
	// Through JSON, as the wire carries it, and back.
	var wire struct {
		State map[string]any `json:"state"`
		Paths [][]any        `json:"buffer_paths"`
	}
	raw, _ := json.Marshal(map[string]any{"state": out, "buffer_paths": paths})
	if err := json.Unmarshal(raw, &wire); err != nil {
		t.Fatal(err)
	}
	if err := putBuffers(wire.State, wire.Paths, buffers); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(wire.State, state) {
		t.Errorf("put back: %v, want %v", wire.State, state)
	}
	for _, bad := range [][]any{{}, {"nope", "x"}, {"y", "z", 5.0}, {"w", "x"}} {
		if err := putBuffers(map[string]any{"y": map[string]any{"z": []any{nil}}, "w": 1.0}, [][]any{bad}, [][]byte{{0}}); err == nil {
			t.Errorf("path %v: no error", bad)
		}
	}
}

// TestOpen checks a widget's comm_open against the protocol: target
// jupyter.widget, the version in the message's metadata, the six model
// and view names in the state, references to its layout and style as
// "IPY_MODEL_<id>", opened first, and its display bundle.
func TestOpen(t *testing.T) {
	h, mg := newHosted(t)
	s := NewIntSlider("epochs", 1, 10, 3)
	mg.Adopt(s)
	msgs := h.take()
	if len(msgs) != 3 {
		t.Fatalf("%d messages, want 3 (layout, style, slider)", len(msgs))
	}
	names := map[string]string{}
	for _, m := range msgs {
		if m.Type != "comm_open" || m.Target != "jupyter.widget" || m.Metadata["version"] != "2.1.0" {
			t.Errorf("message %s target %q metadata %v", m.Type, m.Target, m.Metadata)
		}
		d := decoded(t, m)
		st := d["state"].(map[string]any)
		names[m.ID] = st["_model_name"].(string)
		if !reflect.DeepEqual(d["buffer_paths"], []any{}) {
			t.Errorf("buffer_paths %v", d["buffer_paths"])
		}
	}
	last := decoded(t, msgs[2])["state"].(map[string]any)
	want := map[string]any{
		"_model_module": "@jupyter-widgets/controls", "_model_module_version": "2.0.0", "_model_name": "IntSliderModel",
		"_view_module": "@jupyter-widgets/controls", "_view_module_version": "2.0.0", "_view_name": "IntSliderView",
		"description": "epochs", "min": 1.0, "max": 10.0, "value": 3.0, "step": 1.0, "readout_format": "d",
	}
	for k, v := range want {
		if last[k] != v {
			t.Errorf("state[%s] = %v, want %v", k, last[k], v)
		}
	}
	if names[strings.TrimPrefix(last["layout"].(string), "IPY_MODEL_")] != "LayoutModel" ||
		names[strings.TrimPrefix(last["style"].(string), "IPY_MODEL_")] != "SliderStyleModel" {
		t.Errorf("layout %v style %v do not name the models opened before (%v)", last["layout"], last["style"], names)
	}
	if msgs[2].ID != s.ModelID() {
		t.Errorf("comm id %s, model id %s", msgs[2].ID, s.ModelID())
	}
	b := s.Bundle()
	view := map[string]any{"version_major": 2, "version_minor": 0, "model_id": s.ModelID()}
	if !reflect.DeepEqual(b.Data[ViewMIME], view) {
		t.Errorf("view = %v, want %v", b.Data[ViewMIME], view)
	}
	if got := b.Data["text/plain"]; got != `IntSlider(value=3, description="epochs", min=1, max=10)` {
		t.Errorf("text = %v", got)
	}
	mg.Adopt(s) // twice: nothing more
	if n := len(h.take()); n != 0 {
		t.Errorf("adopting again sent %d messages", n)
	}
	if d := NewIntSlider("x", 0, 1, 0).Bundle(); d.Data[ViewMIME] != nil {
		t.Error("a widget no session opened has a view")
	}
}

// TestUpdateFromFrontEnd checks an update from the front end: the value
// changes at once, the update is echoed back (echo_update, protocol 2.1)
// through the reply, and the OnChange callback waits for the Host's safe
// point.
func TestUpdateFromFrontEnd(t *testing.T) {
	h, mg := newHosted(t)
	s := NewFloatSlider("lr", 0, 1, 0.5)
	mg.Adopt(s)
	h.take()
	var got []float64
	s.OnChange(func(v float64) { got = append(got, v) })
	var r replies
	ok := mg.Handle(Message{Type: "comm_msg", ID: s.ModelID(),
		Data: json.RawMessage(`{"method":"update","state":{"value":0.25},"buffer_paths":[]}`)}, r.add)
	if !ok || s.Value() != 0.25 {
		t.Fatalf("handled %v, value %v", ok, s.Value())
	}
	if len(got) != 0 {
		t.Error("OnChange ran before the safe point")
	}
	if len(r) != 1 {
		t.Fatalf("%d replies, want the echo", len(r))
	}
	if d := decoded(t, r[0]); d["method"] != "echo_update" || !reflect.DeepEqual(d["state"], map[string]any{"value": 0.25}) {
		t.Errorf("echo = %v", d)
	}
	h.runPosted()
	if !reflect.DeepEqual(got, []float64{0.25}) {
		t.Errorf("OnChange got %v", got)
	}
	if len(h.take()) != 0 {
		t.Error("the front end's change was sent back as an update")
	}
	// The model and view names never change.
	mg.Handle(Message{ID: s.ModelID(), Data: json.RawMessage(`{"method":"update","state":{"_model_name":"X"}}`)}, r.add)
	if s.get("_model_name") != "FloatSliderModel" {
		t.Error("the front end renamed the model")
	}
	if mg.Handle(Message{ID: "nope", Data: json.RawMessage(`{"method":"update","state":{}}`)}, r.add) {
		t.Error("a message to an unknown comm was handled")
	}
}

// TestRequestState checks request_state (answered with an update of the
// whole state) and the control comm's request_states (update_states with
// each widget's model name, module, version and state, binary values as
// buffers at [id, "state", key]).
func TestRequestState(t *testing.T) {
	h, mg := newHosted(t)
	c := NewCheckbox("augment", true)
	img := NewImage([]byte("\x89PNG fake"))
	mg.Adopt(c)
	mg.Adopt(img)
	h.take()
	var r replies
	mg.Handle(Message{ID: c.ModelID(), Data: json.RawMessage(`{"method":"request_state"}`)}, r.add)
	if len(r) != 1 {
		t.Fatalf("%d replies", len(r))
	}
	d := decoded(t, r[0])
	st := d["state"].(map[string]any)
	if d["method"] != "update" || st["value"] != true || st["_model_name"] != "CheckboxModel" {
		t.Errorf("request_state answer %v", d)
	}
	r = nil
	mg.Handle(Message{ID: img.ModelID(), Data: json.RawMessage(`{"method":"request_state"}`)}, r.add)
	if d := decoded(t, r[0]); !reflect.DeepEqual(d["buffer_paths"], []any{[]any{"value"}}) || string(r[0].Buffers[0]) != "\x89PNG fake" {
		t.Errorf("image state: paths %v buffers %q", d["buffer_paths"], r[0].Buffers)
	}

	if !mg.Open(Message{Type: "comm_open", ID: "ctl", Target: ControlTarget}, nil) {
		t.Fatal("the control comm was refused")
	}
	if mg.Open(Message{Type: "comm_open", ID: "w", Target: Target}, nil) {
		t.Error("a front end made a kernel widget")
	}
	r = nil
	mg.Handle(Message{ID: "ctl", Data: json.RawMessage(`{"method":"request_states"}`)}, r.add)
	d = decoded(t, r[0])
	states := d["states"].(map[string]any)
	if d["method"] != "update_states" || len(states) != 5 {
		t.Fatalf("update_states: method %v, %d states (want 5: 2 widgets, 2 layouts, 1 style)", d["method"], len(states))
	}
	e := states[c.ModelID()].(map[string]any)
	if e["model_name"] != "CheckboxModel" || e["model_module"] != "@jupyter-widgets/controls" || e["model_module_version"] != "2.0.0" ||
		e["state"].(map[string]any)["value"] != true {
		t.Errorf("checkbox in update_states: %v", e)
	}
	if !reflect.DeepEqual(d["buffer_paths"], []any{[]any{img.ModelID(), "state", "value"}}) || len(r[0].Buffers) != 1 {
		t.Errorf("update_states buffer_paths %v, %d buffers", d["buffer_paths"], len(r[0].Buffers))
	}
	comms := mg.Comms("")
	if len(comms) != 6 || comms["ctl"] != ControlTarget || comms[c.ModelID()] != Target {
		t.Errorf("Comms = %v", comms)
	}
	if n := len(mg.Comms(ControlTarget)); n != 1 {
		t.Errorf("control comms: %d", n)
	}
}

// TestClick checks a button's click (a custom message {"event": "click"}):
// counted at once, its OnClick callback at the safe point.
func TestClick(t *testing.T) {
	h, mg := newHosted(t)
	b := NewButton("Stop")
	mg.Adopt(b)
	clicked := 0
	b.OnClick(func() { clicked++ })
	var r replies
	for range 2 {
		mg.Handle(Message{ID: b.ModelID(), Data: json.RawMessage(`{"method":"custom","content":{"event":"click"}}`)}, r.add)
	}
	if b.Clicks() != 2 || clicked != 0 {
		t.Errorf("before the safe point: Clicks %d, callbacks %d", b.Clicks(), clicked)
	}
	h.runPosted()
	if clicked != 2 {
		t.Errorf("OnClick ran %d times, want 2", clicked)
	}
	mg.Handle(Message{ID: b.ModelID(), Data: json.RawMessage(`{"method":"custom","content":{"event":"other"}}`)}, r.add)
	h.runPosted()
	if b.Clicks() != 2 || clicked != 2 {
		t.Errorf("another custom message counted as a click")
	}
}

// TestSetValue checks changes made in code: the callbacks run in the
// caller, the first update goes at once and later ones within the interval
// are merged into one update; an update from the front end drops the
// kernel's pending value of that attribute; Close sends comm_close.
func TestSetValue(t *testing.T) {
	h, mg := newHosted(t)
	old := updateInterval
	updateInterval = time.Hour
	defer func() { updateInterval = old }()
	p := NewFloatProgress("epoch", 0, 10)
	mg.Adopt(p)
	h.take()
	var seen []float64
	p.watch("value", func(v any) { seen = append(seen, toFloat(v)) })
	for i := 1; i <= 5; i++ {
		p.SetValue(float64(i))
	}
	if !reflect.DeepEqual(seen, []float64{1, 2, 3, 4, 5}) {
		t.Errorf("callbacks saw %v", seen)
	}
	msgs := h.take()
	if len(msgs) != 1 || decoded(t, msgs[0])["state"].(map[string]any)["value"] != 1.0 {
		t.Fatalf("at once: %d messages", len(msgs))
	}
	mg.Flush()
	msgs = h.take()
	if len(msgs) != 1 || decoded(t, msgs[0])["state"].(map[string]any)["value"] != 5.0 {
		t.Fatalf("flushed: %v", msgs)
	}
	p.SetValue(6) // pending behind the interval
	p.SetValue(7)
	var r replies
	mg.Handle(Message{ID: p.ModelID(), Data: json.RawMessage(`{"method":"update","state":{"value":9}}`)}, r.add)
	mg.Flush()
	for _, m := range h.take() {
		if v := decoded(t, m)["state"].(map[string]any)["value"]; v == 7.0 {
			t.Error("the kernel's older value was sent after the front end's")
		}
	}
	if p.Value() != 9 {
		t.Errorf("value %v, want the front end's 9", p.Value())
	}
	p.Close()
	msgs = h.take()
	if len(msgs) != 1 || msgs[0].Type != "comm_close" || msgs[0].ID != p.ModelID() {
		t.Errorf("Close sent %v", msgs)
	}
	if mg.Handle(Message{ID: p.ModelID(), Data: json.RawMessage(`{"method":"request_state"}`)}, r.add) {
		t.Error("a closed widget answered")
	}
	p.Close()
	p.SetValue(1)
	if n := len(h.take()); n != 0 {
		t.Errorf("a closed widget sent %d messages", n)
	}
}

// TestSliders checks the sliders' ranges: values kept within them, the
// log slider's range in exponents of 10 (FloatLogSliderModel's min and max
// are exponents, its value is not), and the panics for empty ranges.
func TestSliders(t *testing.T) {
	s := NewIntSlider("n", 0, 10, 50)
	if s.Value() != 10 {
		t.Errorf("value above max kept: %d", s.Value())
	}
	s.SetValue(-3)
	if s.Value() != 0 {
		t.Errorf("SetValue below min: %d", s.Value())
	}
	for _, tc := range []struct{ lo, hi, step float64 }{{0, 0.9, 0.001}, {0, 1, 0.01}, {1, 5, 0.01}, {-10, 10, 0.1}, {2, 2, 0.1}} {
		if got := NewFloatSlider("", tc.lo, tc.hi, tc.lo).get("step"); math.Abs(got.(float64)-tc.step) > 1e-15 {
			t.Errorf("FloatSlider over [%g, %g]: step %v, want %g", tc.lo, tc.hi, got, tc.step)
		}
	}
	l := NewFloatLogSlider("lr", 1e-5, 1e-1, 1e-3)
	if l.get("min") != -5.0 || l.get("max") != -1.0 || l.Value() != 1e-3 || l.get("base") != 10.0 {
		t.Errorf("log slider state: min %v max %v value %v", l.get("min"), l.get("max"), l.Value())
	}
	l.SetValue(1)
	if math.Abs(l.Value()-0.1) > 1e-12 {
		t.Errorf("log slider SetValue(1) = %v, want its max 0.1", l.Value())
	}
	d := NewDropdown("arch", []string{"mlp", "cnn"}, "cnn")
	if d.Index() != 1 || d.Value() != "cnn" {
		t.Errorf("dropdown %d %q", d.Index(), d.Value())
	}
	for _, f := range []func(){
		func() { NewIntSlider("", 2, 1, 0) },
		func() { NewFloatLogSlider("", 0, 1, 0.5) },
		func() { NewDropdown("", []string{"a"}, "b") },
		func() { d.SetValue("rnn") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		}()
	}
}

// TestInteract checks Interact: the first call when the session opens the
// widget, its return value shown in the output area, controls given as
// widgets or as values, changes from the front end taken together in one
// call at the safe point, and the panics of misuse.
func TestInteract(t *testing.T) {
	h, mg := newHosted(t)
	var calls []string
	freq := NewFloatSlider("freq", 0, 10, 1)
	it := Interact(func(f float64, n int, label string) string {
		calls = append(calls, fmt.Sprintf("%g %d %s", f, n, label))
		return fmt.Sprintf("%s: %g×%d", label, f, n)
	}, freq, 4, "wave")
	if len(calls) != 0 {
		t.Fatal("f ran before the widget was shown")
	}
	mg.Adopt(it)
	if !reflect.DeepEqual(calls, []string{"1 4 wave"}) {
		t.Fatalf("calls %v", calls)
	}
	outs := it.Output().get("outputs").([]any)
	if len(outs) != 1 || outs[0].(map[string]any)["data"].(map[string]any)["text/plain"] != "wave: 1×4" {
		t.Errorf("outputs %v", outs)
	}
	n := it.Controls()[1].(*IntSlider)
	if n.get("min") != -4 || n.get("max") != 12 {
		t.Errorf("the abbreviation 4 made a slider over [%v, %v], want [-4, 12]", n.get("min"), n.get("max"))
	}
	var r replies
	for _, v := range []string{"2", "3", "5"} {
		mg.Handle(Message{ID: freq.ModelID(), Data: json.RawMessage(`{"method":"update","state":{"value":` + v + `}}`)}, r.add)
	}
	h.runPosted()
	if !reflect.DeepEqual(calls, []string{"1 4 wave", "5 4 wave"}) {
		t.Errorf("after three changes: calls %v", calls)
	}
	outs = it.Output().get("outputs").([]any)
	if len(outs) != 1 || outs[0].(map[string]any)["data"].(map[string]any)["text/plain"] != "wave: 5×4" {
		t.Errorf("outputs after the change: %v", outs)
	}
	for _, bad := range []func(){
		func() { Interact(3) },
		func() { Interact(func(int) {}) },
		func() { Interact(func(string) {}, NewIntSlider("", 0, 1, 0)) },
		func() { Interact(func(int) {}, struct{}{}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			bad()
		}()
	}
}

// TestOutputCapture checks the output area as the Jupyter front ends keep
// outputs: consecutive text on one stream is one output, a display with an
// id is replaced by its update, clear with wait clears at the next output.
func TestOutputCapture(t *testing.T) {
	_, mg := newHosted(t)
	o := NewOutput()
	mg.Adopt(o)
	s := sink{o}
	s.Stream("stdout", "a")
	s.Stream("stdout", "b\n")
	s.Stream("stderr", "c")
	s.Display(display.Text("one"), "d1", false)
	s.Display(display.Text("two"), "d1", true)
	outs := o.get("outputs").([]any)
	if len(outs) != 3 || outs[0].(map[string]any)["text"] != "ab\n" ||
		outs[2].(map[string]any)["data"].(map[string]any)["text/plain"] != "two" {
		t.Fatalf("outputs %v", outs)
	}
	s.ClearOutput(true)
	if o.Len() != 3 {
		t.Error("clear with wait cleared before the next output")
	}
	o.Capture(func() { display.Show("after") })
	outs = o.get("outputs").([]any)
	if len(outs) != 1 || outs[0].(map[string]any)["data"].(map[string]any)["text/plain"] != "after" {
		t.Errorf("after the clear: %v", outs)
	}
	o.Clear()
	if o.Len() != 0 {
		t.Error("Clear left outputs")
	}
}

// TestImageTensor checks an image drawn from a tensor: a PNG of the
// size display.Image gives a 28×28 image (112×112), which the widget's
// width and height take.
func TestImageTensor(t *testing.T) {
	img := NewImage(nil)
	img.SetTensor(tensor.Ones(1, 28, 28))
	c, err := png.DecodeConfig(bytes.NewReader(img.Value()))
	if err != nil || c.Width != 112 || c.Height != 112 {
		t.Fatalf("PNG %dx%d, %v", c.Width, c.Height, err)
	}
	if img.get("width") != "112" || img.get("height") != "112" || img.get("format") != "png" {
		t.Errorf("width %v height %v format %v", img.get("width"), img.get("height"), img.get("format"))
	}
}

// TestState checks the widget state a notebook saves: version 2.0 of the
// widget state schema, one entry per open widget with its model name,
// module and version, and binary values base64-encoded with their paths.
func TestState(t *testing.T) {
	_, mg := newHosted(t)
	img := NewImage([]byte{0x89, 'P', 'N', 'G'})
	mg.Adopt(img)
	st := mg.State()
	if st["version_major"] != 2 || st["version_minor"] != 0 {
		t.Errorf("version %v.%v", st["version_major"], st["version_minor"])
	}
	states := st["state"].(map[string]any)
	if len(states) != 2 {
		t.Fatalf("%d states, want the image and its layout", len(states))
	}
	e := states[img.ModelID()].(map[string]any)
	if e["model_name"] != "ImageModel" {
		t.Errorf("entry %v", e)
	}
	bufs := e["buffers"].([]any)
	b := bufs[0].(map[string]any)
	if b["encoding"] != "base64" || !reflect.DeepEqual(b["path"], []any{"value"}) ||
		b["data"] != base64.StdEncoding.EncodeToString([]byte{0x89, 'P', 'N', 'G'}) {
		t.Errorf("buffer %v", b)
	}
	if _, ok := e["state"].(map[string]any)["value"]; ok {
		t.Error("the binary value is also in the state")
	}
	raw, err := json.Marshal(st)
	if err != nil || !strings.Contains(string(raw), `"format":"png"`) {
		t.Errorf("state JSON %s: %v", raw, err)
	}
}
