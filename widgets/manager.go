package widgets

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/gotensor/gotensor/display"
)

// Host is the notebook session a Manager belongs to: what the Manager
// needs from it. The kernel's session (package interp) implements it.
type Host interface {
	// Send sends a comm message to the front end, as a child of the
	// request the session is handling: the running cell's execute_request,
	// else the last request it handled.
	Send(m Message)
	// Post runs f at the session's next safe point: on the running cell's
	// goroutine at its next loop iteration or interrupt check, or at once
	// when no cell runs. Callbacks of the front end's changes run there,
	// so that they never race with the cell.
	Post(f func())
	// Capture runs f with what the session prints and displays going to
	// to instead of the cell's output.
	Capture(to Outputs, f func())
}

// Outputs receives what a cell prints and displays; an Output widget
// makes one of itself for Host.Capture.
type Outputs interface {
	display.Publisher
	// Stream writes text to the "stdout" or "stderr" stream.
	Stream(name, text string)
}

// Message is one comm message between the kernel and a front end
// (comm_open, comm_msg or comm_close), as Jupyter's protocol carries it.
type Message struct {
	Type     string          // "comm_open", "comm_msg" or "comm_close"
	ID       string          // the comm_id: a widget's model id
	Target   string          // the target_name of a comm_open
	Data     json.RawMessage // the content's data
	Metadata map[string]any  // the message's metadata
	Buffers  [][]byte        // binary frames
}

// updateInterval is the shortest time between two updates the kernel sends
// for changes made in code (a progress bar set every step): changes in
// between are merged and sent together, at most 20 updates a second.
var updateInterval = 50 * time.Millisecond

// Manager holds the widgets of one notebook session: it opens their comms,
// answers the front end's messages (state updates, state requests, clicks)
// and keeps their state for the notebook's metadata. The kernel's session
// makes one and opens each widget that a cell makes; notebooks never need
// it. A Manager is safe for concurrent use.
type Manager struct {
	host Host

	mu       sync.Mutex
	models   map[string]*model
	controls map[string]bool // open jupyter.widget.control comms

	// Updates made in code and not sent yet, merged by model (see
	// updateInterval).
	pending map[*model]map[string]any
	order   []*model // pending's models, in the order of their first change
	timer   *time.Timer
}

// NewManager returns the Manager of a session.
func NewManager(h Host) *Manager {
	return &Manager{host: h, models: map[string]*model{}, controls: map[string]bool{}, pending: map[*model]map[string]any{}}
}

// modeler is implemented by every widget type of this package.
type modeler interface{ base() *model }

func (m *model) base() *model { return m }

// Adopt opens w in the front end (a comm_open with its state), after the
// models it refers to (its layout and style, a box's children). A widget
// opened before, closed, or not of this package is left as it is. The
// session adopts every widget that a cell makes.
func (mg *Manager) Adopt(w Widget) {
	mw, ok := w.(modeler)
	if !ok || mw == nil {
		return
	}
	mg.open(mw.base())
}

func (mg *Manager) open(m *model) {
	if m == nil {
		return
	}
	m.mu.Lock()
	if m.mgr != nil || m.closed {
		m.mu.Unlock()
		return
	}
	m.mgr = mg
	refs := m.refs
	m.mu.Unlock()
	for _, r := range refs {
		mg.open(r)
	}
	state, paths, buffers := removeBuffers(m.snapshot())
	mg.mu.Lock()
	mg.models[m.id] = m
	mg.mu.Unlock()
	mg.host.Send(Message{
		Type:     "comm_open",
		ID:       m.id,
		Target:   Target,
		Data:     mustJSON(map[string]any{"state": state, "buffer_paths": pathsJSON(paths)}),
		Metadata: map[string]any{"version": ProtocolVersion},
		Buffers:  buffers,
	})
	m.mu.Lock()
	hook := m.adopted
	m.adopted = nil
	m.mu.Unlock()
	if hook != nil {
		hook()
	}
}

// Open handles the front end's comm_open and reports whether the target
// is one of the Manager's: the jupyter.widget.control comm, on which a
// front end asks for every widget's state. A front end cannot make a
// kernel widget (a comm_open to jupyter.widget): Open refuses it.
func (mg *Manager) Open(msg Message, reply func(Message)) bool {
	if msg.Target != ControlTarget {
		return false
	}
	mg.mu.Lock()
	mg.controls[msg.ID] = true
	mg.mu.Unlock()
	return true
}

// Handle handles the front end's comm_msg, replying through reply (whose
// messages have the comm_msg as their parent), and reports whether the
// comm is one of the Manager's. A state update changes the widget's
// values at once and is echoed back (echo_update, protocol 2.1); the
// callbacks it triggers (OnChange, OnClick, Interact's function) are
// posted to the Host's next safe point. request_state is answered with the
// whole state, the control comm's request_states with every widget's.
func (mg *Manager) Handle(msg Message, reply func(Message)) bool {
	mg.mu.Lock()
	m := mg.models[msg.ID]
	control := mg.controls[msg.ID]
	mg.mu.Unlock()
	if m == nil && !control {
		return false
	}
	var data struct {
		Method      string          `json:"method"`
		State       map[string]any  `json:"state"`
		BufferPaths [][]any         `json:"buffer_paths"`
		Content     json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(msg.Data, &data); err != nil {
		return true // a malformed message to a known comm: nothing to do
	}
	if control {
		if data.Method == "request_states" {
			mg.flush()
			data, buffers := mg.updateStates()
			reply(Message{Type: "comm_msg", ID: msg.ID, Data: data, Buffers: buffers})
		}
		return true
	}
	switch data.Method {
	case "update":
		if data.State == nil {
			return true
		}
		if err := putBuffers(data.State, data.BufferPaths, msg.Buffers); err != nil {
			return true
		}
		echo, paths, buffers := removeBuffers(data.State)
		reply(Message{Type: "comm_msg", ID: m.id, Buffers: buffers,
			Data: mustJSON(map[string]any{"method": "echo_update", "state": echo, "buffer_paths": pathsJSON(paths)})})
		mg.supersede(m, data.State)
		if run := m.apply(data.State); run != nil {
			mg.host.Post(run)
		}
	case "request_state":
		mg.flush()
		state, paths, buffers := removeBuffers(m.snapshot())
		reply(Message{Type: "comm_msg", ID: m.id, Buffers: buffers,
			Data: mustJSON(map[string]any{"method": "update", "state": state, "buffer_paths": pathsJSON(paths)})})
	case "custom":
		var content map[string]any
		json.Unmarshal(data.Content, &content)
		if run := m.customMessage(content); run != nil {
			mg.host.Post(run)
		}
	}
	return true
}

// Closed handles the front end's comm_close: the widget is closed (its
// comm is gone).
func (mg *Manager) Closed(id string) {
	mg.mu.Lock()
	m := mg.models[id]
	delete(mg.models, id)
	delete(mg.controls, id)
	mg.mu.Unlock()
	if m != nil {
		m.mu.Lock()
		m.closed = true
		m.mu.Unlock()
	}
}

// Comms returns the Manager's open comms, comm id → target name, those of
// target only when it is not empty (comm_info_request).
func (mg *Manager) Comms(target string) map[string]string {
	mg.mu.Lock()
	defer mg.mu.Unlock()
	out := map[string]string{}
	if target == "" || target == Target {
		for id := range mg.models {
			out[id] = Target
		}
	}
	if target == "" || target == ControlTarget {
		for id := range mg.controls {
			out[id] = ControlTarget
		}
	}
	return out
}

// State returns the state of the open widgets as a notebook saves it in
// its metadata, under metadata.widgets[StateMIME]: the widget state
// schema's version 2, with binary values base64-encoded, as nbconvert
// --execute stores it (ipywidgets' get_manager_state).
func (mg *Manager) State() map[string]any {
	mg.flush()
	states := map[string]any{}
	for _, m := range mg.open_() {
		s := m.snapshot()
		state, paths, buffers := removeBuffers(s)
		e := map[string]any{
			"model_name":           s["_model_name"],
			"model_module":         s["_model_module"],
			"model_module_version": s["_model_module_version"],
			"state":                state,
		}
		if len(buffers) > 0 {
			bs := make([]any, len(buffers))
			for i, b := range buffers {
				bs[i] = map[string]any{"encoding": "base64", "path": paths[i], "data": base64.StdEncoding.EncodeToString(b)}
			}
			e["buffers"] = bs
		}
		states[m.id] = e
	}
	return map[string]any{"version_major": 2, "version_minor": 0, "state": states}
}

// open_ returns the open models, sorted by id.
func (mg *Manager) open_() []*model {
	mg.mu.Lock()
	defer mg.mu.Unlock()
	ms := make([]*model, 0, len(mg.models))
	for _, m := range mg.models {
		ms = append(ms, m)
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].id < ms[j].id })
	return ms
}

// updateStates returns the data of the control comm's update_states: every
// open widget's state, with its binary values as buffers at paths
// [model id, "state", attribute...].
func (mg *Manager) updateStates() (json.RawMessage, [][]byte) {
	states := map[string]any{}
	for _, m := range mg.open_() {
		s := m.snapshot()
		states[m.id] = map[string]any{
			"model_name":           s["_model_name"],
			"model_module":         s["_model_module"],
			"model_module_version": s["_model_module_version"],
			"state":                s,
		}
	}
	out, paths, buffers := removeBuffers(states)
	return mustJSON(map[string]any{"method": "update_states", "states": out, "buffer_paths": pathsJSON(paths)}), buffers
}

// update sends the changes made in code to a model, merged with others
// made within updateInterval.
func (mg *Manager) update(m *model, changes map[string]any) {
	mg.mu.Lock()
	if mg.models[m.id] == nil {
		mg.mu.Unlock()
		return // closed
	}
	p, ok := mg.pending[m]
	if !ok {
		p = map[string]any{}
		mg.pending[m] = p
		mg.order = append(mg.order, m)
	}
	for k, v := range changes {
		p[k] = v
	}
	if mg.timer != nil {
		mg.mu.Unlock()
		return // the timer sends it
	}
	mg.timer = time.AfterFunc(updateInterval, mg.tick)
	mg.mu.Unlock()
	mg.flush() // the first change of a quiet spell goes at once
}

// tick is the update timer: it sends what was merged, and stops when
// nothing was.
func (mg *Manager) tick() {
	mg.mu.Lock()
	if len(mg.order) == 0 {
		mg.timer = nil
		mg.mu.Unlock()
		return
	}
	mg.timer = time.AfterFunc(updateInterval, mg.tick)
	mg.mu.Unlock()
	mg.flush()
}

// flush sends the pending updates now.
func (mg *Manager) flush() {
	mg.mu.Lock()
	order, pending := mg.order, mg.pending
	mg.order, mg.pending = nil, map[*model]map[string]any{}
	mg.mu.Unlock()
	for _, m := range order {
		state, paths, buffers := removeBuffers(pending[m])
		mg.host.Send(Message{Type: "comm_msg", ID: m.id, Buffers: buffers,
			Data: mustJSON(map[string]any{"method": "update", "state": state, "buffer_paths": pathsJSON(paths)})})
	}
}

// Flush sends the changes made in code that are waiting for their turn
// (see the updates' throttle) now. The session calls it when a cell ends.
func (mg *Manager) Flush() { mg.flush() }

// supersede drops the kernel's pending changes of the attributes that the
// front end has just changed: the front end's value is the newer.
func (mg *Manager) supersede(m *model, state map[string]any) {
	mg.mu.Lock()
	defer mg.mu.Unlock()
	if p, ok := mg.pending[m]; ok {
		for k := range state {
			delete(p, k)
		}
	}
}

// send sends a message on m's comm, after m's pending updates.
func (mg *Manager) send(m *model, data map[string]any, buffers [][]byte) {
	mg.flush()
	mg.host.Send(Message{Type: "comm_msg", ID: m.id, Data: mustJSON(data), Buffers: buffers})
}

// close closes m's comm.
func (mg *Manager) close(m *model) {
	mg.flush()
	mg.mu.Lock()
	_, open := mg.models[m.id]
	delete(mg.models, m.id)
	mg.mu.Unlock()
	if open {
		mg.host.Send(Message{Type: "comm_close", ID: m.id, Data: json.RawMessage("{}")})
	}
}

// pathsJSON returns buffer paths as JSON values, never null.
func pathsJSON(paths [][]any) []any {
	out := make([]any, len(paths))
	for i, p := range paths {
		out[i] = p
	}
	return out
}

// mustJSON encodes v, whose values this package made.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("widgets: encoding a message: %v", err))
	}
	return b
}
