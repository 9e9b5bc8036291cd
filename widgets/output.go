package widgets

import (
	"sync"

	"github.com/gotensor/gotensor/display"
)

// Output is an area of outputs inside a widget (ipywidgets' Output):
// what a function prints and displays while Capture runs it goes there
// instead of into the cell. The outputs are the widget's state, so they
// are saved with the notebook's widgets.
type Output struct {
	*model

	omu     sync.Mutex
	outs    []any          // nbformat outputs
	ids     map[string]int // display id → index in outs
	clear   bool           // a clear_output(wait) waits for the next output
	ownerMu sync.Mutex     // one Capture at a time
}

// NewOutput returns an empty output area.
//
//	out := widgets.NewOutput()
//	display.Show(out)
//	out.Capture(func() { fmt.Println("inside the widget") })
func NewOutput() *Output {
	m := newModel(outputModule, outputVersion, "OutputModel", "OutputView", map[string]any{
		"_dom_classes": []any{}, "msg_id": "", "outputs": []any{}, "tabbable": nil, "tooltip": nil,
	})
	layout := newLayout()
	m.state["layout"] = ref(layout)
	m.refs = []*model{layout}
	o := &Output{model: m, ids: map[string]int{}}
	m.text = func(s map[string]any) string {
		n := 0
		if l, ok := s["outputs"].([]any); ok {
			n = len(l)
		}
		return "Output(outputs=" + formatNumber(float64(n)) + ")"
	}
	return o
}

// Capture runs f with what it prints (fmt.Print*, os.Stdout) and displays
// (display.Show, a live plot) going into the widget, after what the widget
// holds already. Outside a notebook session it just runs f.
func (o *Output) Capture(f func()) {
	o.ownerMu.Lock()
	defer o.ownerMu.Unlock()
	o.mu.Lock()
	mgr := o.mgr
	o.mu.Unlock()
	if mgr == nil {
		f()
		return
	}
	mgr.host.Capture(sink{o}, f)
	mgr.flush()
}

// Clear removes every output.
func (o *Output) Clear() {
	o.omu.Lock()
	o.outs, o.ids, o.clear = nil, map[string]int{}, false
	o.omu.Unlock()
	o.publish()
}

// AppendStdout adds text to the widget's standard output.
func (o *Output) AppendStdout(text string) { sink{o}.Stream("stdout", text) }

// AppendDisplay adds v, rendered as display.Show renders it.
func (o *Output) AppendDisplay(v any) { sink{o}.Display(display.Render(v), "", false) }

// Len returns the number of outputs the widget holds.
func (o *Output) Len() int {
	o.omu.Lock()
	defer o.omu.Unlock()
	return len(o.outs)
}

// publish sends the outputs as the widget's state.
func (o *Output) publish() {
	o.omu.Lock()
	outs := make([]any, len(o.outs))
	copy(outs, o.outs)
	o.omu.Unlock()
	o.set("outputs", outs)
}

// sink is an Output widget as the Outputs a capture writes to. Outputs
// follow the Jupyter front ends: consecutive text on one stream is one
// output, an update of a display id replaces that output, and a clear
// with wait clears when the next output arrives.
type sink struct{ o *Output }

func (s sink) Stream(name, text string) {
	if text == "" {
		return
	}
	o := s.o
	o.omu.Lock()
	o.takeClearLocked()
	if n := len(o.outs); n > 0 {
		if last, ok := o.outs[n-1].(map[string]any); ok && last["output_type"] == "stream" && last["name"] == name {
			o.outs[n-1] = map[string]any{"output_type": "stream", "name": name, "text": last["text"].(string) + text}
			o.omu.Unlock()
			o.publish()
			return
		}
	}
	o.outs = append(o.outs, map[string]any{"output_type": "stream", "name": name, "text": text})
	o.omu.Unlock()
	o.publish()
}

func (s sink) Display(b display.Bundle, id string, update bool) {
	o := s.o
	meta := b.Metadata
	if meta == nil {
		meta = map[string]any{}
	}
	out := map[string]any{"output_type": "display_data", "data": b.Data, "metadata": meta}
	o.omu.Lock()
	if i, ok := o.ids[id]; update && id != "" && ok && i < len(o.outs) {
		o.outs[i] = out
	} else if !update {
		o.takeClearLocked()
		if id != "" {
			o.ids[id] = len(o.outs)
		}
		o.outs = append(o.outs, out)
	} else {
		o.omu.Unlock()
		return // an update of an output the widget does not hold
	}
	o.omu.Unlock()
	o.publish()
}

func (s sink) ClearOutput(wait bool) {
	o := s.o
	o.omu.Lock()
	if wait {
		o.clear = true
		o.omu.Unlock()
		return
	}
	o.outs, o.ids, o.clear = nil, map[string]int{}, false
	o.omu.Unlock()
	o.publish()
}

// takeClearLocked carries out a clear that waited for this output.
func (o *Output) takeClearLocked() {
	if o.clear {
		o.outs, o.ids, o.clear = nil, map[string]int{}, false
	}
}
