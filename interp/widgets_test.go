package interp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gotensor/gotensor/kernel"
	"github.com/gotensor/gotensor/widgets"
)

// commRecorder is a recorder that also records comm messages, as the
// kernel's output carries them.
type commRecorder struct {
	recorder
	cmu   sync.Mutex
	comms []kernel.CommMessage
}

func (r *commRecorder) Comm(m kernel.CommMessage) {
	r.cmu.Lock()
	defer r.cmu.Unlock()
	r.comms = append(r.comms, m)
}

// messages returns the comm messages recorded.
func (r *commRecorder) messages() []kernel.CommMessage {
	r.cmu.Lock()
	defer r.cmu.Unlock()
	return append([]kernel.CommMessage(nil), r.comms...)
}

// opened returns the model ids of the comm_opens recorded, by model name.
func (r *commRecorder) opened(t *testing.T) map[string]string {
	t.Helper()
	ids := map[string]string{}
	for _, m := range r.messages() {
		if m.Type != "comm_open" {
			continue
		}
		var d struct {
			State map[string]any `json:"state"`
		}
		if err := json.Unmarshal(m.Data, &d); err != nil {
			t.Fatal(err)
		}
		ids[d.State["_model_name"].(string)] = m.ID
	}
	return ids
}

// waitText waits until the named stream holds want.
func (r *commRecorder) waitText(t *testing.T, name, want string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(r.text(name), want) {
		if time.Now().After(deadline) {
			t.Fatalf("%s never held %q; it holds %q", name, want, r.text(name))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func widgetMsg(id, data string) kernel.CommMessage {
	return kernel.CommMessage{Type: "comm_msg", ID: id, Data: json.RawMessage(data)}
}

// TestWidgetsLive checks live control, and is meant to run under -race
// too: a cell's loop reads a slider's value while the front end changes
// it; the change's callback runs on the cell's goroutine, at a loop
// iteration, while the cell runs (it writes a variable the loop reads,
// which the race detector checks); a click ends the loop and the cell
// ends normally with its state kept; a change between cells runs its
// callback at once.
func TestWidgetsLive(t *testing.T) {
	s := newSession(t)
	out := &commRecorder{}
	ctx := context.Background()
	if _, err := s.Execute(ctx, `
lr := widgets.NewFloatSlider("lr", 0, 1, 0.5)
stop := widgets.NewButton("Stop")
seen, changes, steps := 0.0, 0, 0
lr.OnChange(func(v float64) {
	seen, changes = v, changes+1
	fmt.Println("changed", v)
})
display.Show(widgets.NewHBox(lr, stop))`, out); err != nil {
		t.Fatal(err)
	}
	ids := out.opened(t)
	for _, name := range []string{"FloatSliderModel", "ButtonModel", "HBoxModel", "LayoutModel", "SliderStyleModel", "ButtonStyleModel"} {
		if ids[name] == "" {
			t.Errorf("no comm_open of a %s: %v", name, ids)
		}
	}
	if len(out.displays) != 1 || out.displays[0].Data[widgets.ViewMIME] == nil {
		t.Fatalf("displays %v", out.displays)
	}

	cell := &commRecorder{}
	done := make(chan error, 1)
	go func() {
		_, err := s.Execute(ctx, `
got := 0.0
for stop.Clicks() == 0 {
	steps++
	if seen > 0 {
		got = lr.Value()
	}
}
fmt.Println("stopped after", changes, "change")`, cell)
		done <- err
	}()
	time.Sleep(50 * time.Millisecond) // let the loop start (not required)
	front := &commRecorder{}
	if !s.CommMsg(ctx, widgetMsg(ids["FloatSliderModel"], `{"method":"update","state":{"value":0.25},"buffer_paths":[]}`), front) {
		t.Fatal("the slider's comm is unknown")
	}
	if len(front.messages()) != 1 || !strings.Contains(string(front.messages()[0].Data), "echo_update") {
		t.Errorf("the update's replies: %v", front.messages())
	}
	// The callback prints in the running cell, so it ran at a loop
	// iteration.
	cell.waitText(t, "stdout", "changed 0.25")
	select {
	case err := <-done:
		t.Fatalf("the cell ended before the click: %v", err)
	default:
	}
	s.CommMsg(ctx, widgetMsg(ids["ButtonModel"], `{"method":"custom","content":{"event":"click"}}`), front)
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the stopped cell: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the Stop button did not end the cell")
	}
	cell.waitText(t, "stdout", "stopped after 1 change")
	res, _ := mustRun(t, s, `fmt.Sprint(seen, changes, got, steps > 0, stop.Clicks())`)
	if res != "0.25 1 0.25 true 1" {
		t.Errorf("after the cell: %s", res)
	}

	// Between cells the callback runs at once, printing to the message's
	// output.
	between := &commRecorder{}
	s.CommMsg(ctx, widgetMsg(ids["FloatSliderModel"], `{"method":"update","state":{"value":0.75}}`), between)
	between.waitText(t, "stdout", "changed 0.75")
	if res, _ := mustRun(t, s, `fmt.Sprint(seen, changes)`); res != "0.75 2" {
		t.Errorf("after a change between cells: %s", res)
	}
	if s.CommMsg(ctx, widgetMsg("no-such-comm", `{"method":"request_state"}`), between) {
		t.Error("a message to an unknown comm was taken")
	}
	if info := s.CommInfo("jupyter.widget"); info[ids["ButtonModel"]] != "jupyter.widget" {
		t.Errorf("CommInfo = %v", info)
	}
}

// TestWidgetsInteract checks Interact in a session: the first call's value
// in the output area, a change between cells calling the function again,
// a panic of the function shown in the output area without ending
// anything, and the state a headless run saves.
func TestWidgetsInteract(t *testing.T) {
	s := newSession(t)
	out := &commRecorder{}
	ctx := context.Background()
	if _, err := s.Execute(ctx, `
n := widgets.NewIntSlider("n", 0, 10, 3)
it := widgets.Interact(func(n int) int {
	if n == 7 {
		panic("seven")
	}
	fmt.Println("n is", n)
	return n * n
}, n)
it`, out); err != nil {
		t.Fatal(err)
	}
	ids := out.opened(t)
	outputs := func() string {
		res, _ := mustRun(t, s, `o := it.Output(); fmt.Sprint(o.Len())`)
		_ = res
		raw, _ := json.Marshal(s.WidgetState()["state"].(map[string]any)[ids["OutputModel"]])
		return string(raw)
	}
	if o := outputs(); !strings.Contains(o, `"text":"n is 3\n"`) || !strings.Contains(o, `"text/plain":"9"`) {
		t.Errorf("first call's outputs: %s", o)
	}
	s.CommMsg(ctx, widgetMsg(ids["IntSliderModel"], `{"method":"update","state":{"value":4}}`), &commRecorder{})
	if o := outputs(); !strings.Contains(o, `"text/plain":"16"`) || strings.Contains(o, `"9"`) {
		t.Errorf("after the change: %s", o)
	}
	s.CommMsg(ctx, widgetMsg(ids["IntSliderModel"], `{"method":"update","state":{"value":7}}`), &commRecorder{})
	if o := outputs(); !strings.Contains(o, "seven") || !strings.Contains(o, "stderr") {
		t.Errorf("after a panic: %s", o)
	}
	if res, _ := mustRun(t, s, `n.Value()`); res != "7" {
		t.Errorf("the session after the panic: %s", res)
	}
}

// TestCompiledWidgetsLive is TestWidgetsLive with compiled cells: the
// widgets are made by a compiled cell (so the session adopts them: the
// front end is told of them), the loop is a compiled top-level loop, and
// the slider's callback, a compiled closure, runs at the loop's stop
// check.
func TestCompiledWidgetsLive(t *testing.T) {
	s := newCompiledSession(t)
	out := &commRecorder{}
	ctx := context.Background()
	if _, err := s.Execute(ctx, `
func note(v float64) string { return fmt.Sprint("changed ", v) }
lr := widgets.NewFloatSlider("lr", 0, 1, 0.5)
stop := widgets.NewButton("Stop")
seen, changes := 0.0, 0
lr.OnChange(func(v float64) {
	seen, changes = v, changes+1
	fmt.Println(note(v))
})
display.Show(widgets.NewHBox(lr, stop))`, out); err != nil {
		t.Fatal(err)
	}
	ids := out.opened(t)
	if ids["FloatSliderModel"] == "" || ids["ButtonModel"] == "" {
		t.Fatalf("the compiled cell's widgets were not opened: %v", ids)
	}
	cell := &commRecorder{}
	done := make(chan error, 1)
	go func() {
		_, err := s.Execute(ctx, "steps := 0\nfor stop.Clicks() == 0 {\n\tsteps++\n}\nfmt.Println(\"stopped after\", changes, \"change\")", cell)
		done <- err
	}()
	time.Sleep(200 * time.Millisecond)
	front := &commRecorder{}
	s.CommMsg(ctx, widgetMsg(ids["FloatSliderModel"], `{"method":"update","state":{"value":0.25},"buffer_paths":[]}`), front)
	cell.waitText(t, "stdout", "changed 0.25")
	s.CommMsg(ctx, widgetMsg(ids["ButtonModel"], `{"method":"custom","content":{"event":"click"}}`), front)
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the stopped cell: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the Stop button did not end the compiled loop")
	}
	cell.waitText(t, "stdout", "stopped after 1 change")
	if res, _ := mustRun(t, s, "fmt.Sprint(seen, changes, steps > 0)"); res != "0.25 1 true" {
		t.Errorf("after the cell: %s", res)
	}
}

// TestCompiledCellReachesInterpretedWidgets: widgets made by an interpreted
// cell, then set by a compiled loop (the notebook's steering cells). The
// pointer to the interpreter's variable has a type (**widgets.FloatProgress)
// that the kernel binary never spells, so it exists twice: in the cell's
// plugin and where reflect makes it.
func TestCompiledCellReachesInterpretedWidgets(t *testing.T) {
	s := newCompiledSession(t)
	mustRun(t, s, `p := widgets.NewFloatProgress("batches", 0, 3)`)
	mustRun(t, s, "for i := 0; i <= 3; i++ {\n\tp.SetValue(float64(i))\n}")
	if res, _ := mustRun(t, s, "p.Value()"); res != "3" {
		t.Fatalf("p.Value() = %s after the compiled loop set it to 3", res)
	}
}

// TestCompiledLoopSeesCallbackWrites: a compiled top-level loop keeps the
// variables it uses in locals; a widget's callback that runs at the
// loop's stop check changes one (stopNow), and the loop sees the change,
// as a Go loop polling a variable does.
func TestCompiledLoopSeesCallbackWrites(t *testing.T) {
	s := newCompiledSession(t)
	out := &commRecorder{}
	ctx := context.Background()
	if _, err := s.Execute(ctx, "stopNow, n := false, 0\nb := widgets.NewButton(\"Stop\")\nb.OnClick(func() { stopNow = true })\ndisplay.Show(b)", out); err != nil {
		t.Fatal(err)
	}
	ids := out.opened(t)
	cell := &commRecorder{}
	done := make(chan error, 1)
	loop, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		_, err := s.Execute(loop, "for !stopNow {\n\tn++\n}", cell)
		done <- err
	}()
	time.Sleep(200 * time.Millisecond)
	s.CommMsg(ctx, widgetMsg(ids["ButtonModel"], `{"method":"custom","content":{"event":"click"}}`), &commRecorder{})
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the loop: %v", err)
		}
	case <-time.After(60 * time.Second):
		cancel()
		t.Fatal("the loop did not see the callback's write to stopNow")
	}
	if res, _ := mustRun(t, s, "fmt.Sprint(stopNow, n > 0)"); res != "true true" {
		t.Errorf("after the loop: %s", res)
	}
}
