package widgets

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gotensor/gotensor/display"
)

// Versions of the protocol and of the front end's model modules that this
// package speaks: ipywidgets 8's.
const (
	// ProtocolVersion is the version of the Jupyter widget messaging
	// protocol, sent in the metadata of every comm_open.
	ProtocolVersion = "2.1.0"
	// ControlProtocolVersion is the version of the protocol of the
	// jupyter.widget.control comm.
	ControlProtocolVersion = "1.0.0"

	// Target is the comm target of widget models.
	Target = "jupyter.widget"
	// ControlTarget is the comm target on which a front end asks for
	// every widget's state at once.
	ControlTarget = "jupyter.widget.control"

	// ViewMIME is the MIME type of a widget's view in a display bundle.
	ViewMIME = "application/vnd.jupyter.widget-view+json"
	// StateMIME is the key of the widget state that a notebook's metadata
	// saves (metadata.widgets), as nbconvert and JupyterLab save it.
	StateMIME = "application/vnd.jupyter.widget-state+json"

	baseModule     = "@jupyter-widgets/base"
	baseVersion    = "2.0.0"
	controlsModule = "@jupyter-widgets/controls"
	controlsVer    = "2.0.0"
	outputModule   = "@jupyter-widgets/output"
	outputVersion  = "1.0.0"
)

// Widget is a control shown in a notebook: a value of one of this
// package's types (*IntSlider, *Button, *VBox, ...). A widget is shown by
// display.Show(w), or as the cell's value.
type Widget interface {
	// ModelID returns the id of the widget's model, which is the id of its
	// comm: how a front end and the kernel name the widget.
	ModelID() string
}

// model is the kernel's side of one widget model: its state as JSON values
// (numbers as float64, binary attributes as []byte), the models it refers
// to, and the callbacks its changes run. Every widget type holds one.
type model struct {
	id string

	mu       sync.Mutex
	mgr      *Manager // the session's; nil for a widget no session has opened
	state    map[string]any
	refs     []*model                 // models this one refers to (layout, style, children): opened first
	watchers map[string][]func(v any) // attribute → callbacks of its changes
	changed  func(key string, v any)  // the widget type's own reaction to a change (before watchers)
	// react is the widget type's reaction to a custom message, run when
	// it arrives (a click is counted at once); customs are the callbacks
	// of custom messages, run at the session's safe point.
	react   func(content map[string]any) bool
	customs []func(content map[string]any)
	adopted func() // run once a session has opened the model
	text    func(state map[string]any) string
	closed  bool
}

// newModel returns a model of the given model and view names with state
// (the attributes besides the names) and the models it refers to.
func newModel(module, version, name, view string, state map[string]any, refs ...*model) *model {
	s := map[string]any{
		"_model_module":         module,
		"_model_module_version": version,
		"_model_name":           name,
		"_view_module":          module,
		"_view_module_version":  version,
		"_view_name":            view,
	}
	if view == "" {
		s["_view_name"] = nil
	}
	for k, v := range state {
		s[k] = v
	}
	return &model{id: newID(), state: s, refs: refs}
}

// newDOMModel returns a model of @jupyter-widgets/controls with its layout
// and, when styleName is not empty, its style model, as ipywidgets makes
// them: each widget has its own.
func newDOMModel(name, view, styleName string, state map[string]any, refs ...*model) *model {
	layout := newLayout()
	s := map[string]any{
		"_dom_classes": []any{},
		"layout":       ref(layout),
		"tabbable":     nil,
		"tooltip":      nil,
	}
	refs = append([]*model{layout}, refs...)
	if styleName != "" {
		style := newStyle(styleName)
		s["style"] = ref(style)
		refs = append(refs, style)
	}
	for k, v := range state {
		s[k] = v
	}
	return newModel(controlsModule, controlsVer, name, view, s, refs...)
}

// newLayout returns a LayoutModel with every CSS attribute unset.
func newLayout() *model {
	s := map[string]any{}
	for _, k := range layoutKeys {
		s[k] = nil
	}
	m := newModel(baseModule, baseVersion, "LayoutModel", "LayoutView", s)
	return m
}

// layoutKeys are the attributes of a LayoutModel.
var layoutKeys = []string{
	"align_content", "align_items", "align_self", "border_bottom", "border_left", "border_right",
	"border_top", "bottom", "display", "flex", "flex_flow", "grid_area", "grid_auto_columns",
	"grid_auto_flow", "grid_auto_rows", "grid_column", "grid_gap", "grid_row", "grid_template_areas",
	"grid_template_columns", "grid_template_rows", "height", "justify_content", "justify_items",
	"left", "margin", "max_height", "max_width", "min_height", "min_width", "object_fit",
	"object_position", "order", "overflow", "padding", "right", "top", "visibility", "width",
}

// styles holds the attributes of the style models, besides their names.
var styles = map[string]map[string]any{
	"SliderStyleModel":      {"description_width": "", "handle_color": nil},
	"DescriptionStyleModel": {"description_width": ""},
	"CheckboxStyleModel":    {"background": nil, "description_width": ""},
	"TextStyleModel":        {"background": nil, "description_width": "", "font_size": nil, "text_color": nil},
	"ButtonStyleModel": {"button_color": nil, "font_family": nil, "font_size": nil, "font_style": nil,
		"font_variant": nil, "font_weight": nil, "text_color": nil, "text_decoration": nil},
	"LabelStyleModel": {"background": nil, "description_width": "", "font_family": nil, "font_size": nil,
		"font_style": nil, "font_variant": nil, "font_weight": nil, "text_color": nil, "text_decoration": nil},
	"HTMLStyleModel":     {"background": nil, "description_width": "", "font_size": nil, "text_color": nil},
	"ProgressStyleModel": {"bar_color": nil, "description_width": ""},
}

// newStyle returns a style model of the given name.
func newStyle(name string) *model {
	attrs, ok := styles[name]
	if !ok {
		panic("widgets: no style model " + name)
	}
	s := map[string]any{}
	for k, v := range attrs {
		s[k] = v
	}
	m := newModel(controlsModule, controlsVer, name, "StyleView", s)
	m.state["_view_module"] = baseModule
	return m
}

// ref is the JSON form of a reference to another model.
func ref(m *model) string { return "IPY_MODEL_" + m.id }

// ModelID returns the id of the widget's model.
func (m *model) ModelID() string { return m.id }

// get returns the value of attribute key.
func (m *model) get(key string) any {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state[key]
}

// set changes attributes from the kernel's side: the front end is told
// (when a session has opened the model) and the callbacks watching them
// run in the caller, as ipywidgets runs its observers.
func (m *model) set(kv ...any) {
	changes := map[string]any{}
	m.mu.Lock()
	for i := 0; i+1 < len(kv); i += 2 {
		k := kv[i].(string)
		if !equalJSON(m.state[k], kv[i+1]) {
			m.state[k] = kv[i+1]
			changes[k] = kv[i+1]
		}
	}
	mgr := m.mgr
	m.mu.Unlock()
	if len(changes) == 0 {
		return
	}
	if mgr != nil {
		mgr.update(m, changes)
	}
	m.notify(changes)
}

// apply takes a state update from the front end: the attributes change at
// once (so a running loop reads the new value), and the callbacks to run
// are returned.
func (m *model) apply(state map[string]any) (run func()) {
	changes := map[string]any{}
	m.mu.Lock()
	for k, v := range state {
		if strings.HasPrefix(k, "_") {
			continue // the model and view names never change
		}
		if old, ok := m.state[k]; ok && equalJSON(old, v) {
			continue
		}
		m.state[k] = v
		changes[k] = v
	}
	m.mu.Unlock()
	if len(changes) == 0 {
		return nil
	}
	return func() { m.notify(changes) }
}

// notify runs the widget's reaction and the watchers of changed
// attributes, in a fixed order.
func (m *model) notify(changes map[string]any) {
	keys := make([]string, 0, len(changes))
	for k := range changes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		m.mu.Lock()
		react := m.changed
		ws := slices.Clone(m.watchers[k])
		m.mu.Unlock()
		if react != nil {
			react(k, changes[k])
		}
		for _, w := range ws {
			w(changes[k])
		}
	}
}

// watch adds f to the callbacks of key's changes.
func (m *model) watch(key string, f func(v any)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.watchers == nil {
		m.watchers = map[string][]func(any){}
	}
	m.watchers[key] = append(m.watchers[key], f)
}

// onCustom sets the widget type's reaction to custom messages.
func (m *model) onCustom(f func(content map[string]any) bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.react = f
}

// watchCustom adds f to the callbacks of custom messages.
func (m *model) watchCustom(f func(content map[string]any)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.customs = append(m.customs, f)
}

// customMessage takes a custom message from the front end: the widget's
// reaction runs at once, and the callbacks to run are returned.
func (m *model) customMessage(content map[string]any) (run func()) {
	m.mu.Lock()
	react := m.react
	cs := slices.Clone(m.customs)
	m.mu.Unlock()
	if react != nil {
		react(content)
	}
	if len(cs) == 0 {
		return nil
	}
	return func() {
		for _, c := range cs {
			c(content)
		}
	}
}

// snapshot returns a copy of the state.
func (m *model) snapshot() map[string]any {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := make(map[string]any, len(m.state))
	for k, v := range m.state {
		s[k] = v
	}
	return s
}

// Bundle returns the widget's display bundle, which display.Show and a
// cell's value show: the widget's view for front ends with a widget
// manager (JupyterLab), and a line of text for the others (Notebook 6, a
// console, a notebook saved without its widgets). Outside a notebook
// session only the text.
func (m *model) Bundle() display.Bundle {
	m.mu.Lock()
	opened := m.mgr != nil && !m.closed
	adopted := m.adopted
	m.mu.Unlock()
	if !opened && adopted != nil {
		// Outside a notebook session: do what opening would.
		m.mu.Lock()
		m.adopted = nil
		m.mu.Unlock()
		adopted()
	}
	b := display.Text(m.describe())
	if opened {
		b.Data[ViewMIME] = map[string]any{"version_major": 2, "version_minor": 0, "model_id": m.id}
	}
	return b
}

// String returns the widget's text form, as ipywidgets' repr:
// IntSlider(value=3, description="epochs", min=1, max=10).
func (m *model) String() string { return m.describe() }

// describe returns the widget's text form, as ipywidgets' repr:
// IntSlider(value=3, description='epochs', max=10).
func (m *model) describe() string {
	s := m.snapshot()
	if m.text != nil {
		return m.text(s)
	}
	name := strings.TrimSuffix(fmt.Sprint(s["_model_name"]), "Model")
	var parts []string
	for _, k := range []string{"value", "description", "options", "index", "min", "max"} {
		if v, ok := s[k]; ok && v != nil && v != "" {
			parts = append(parts, k+"="+reprJSON(v))
		}
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

// reprJSON formats a JSON value the way Python's repr would show it.
func reprJSON(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("%q", v)
	case float64:
		return formatNumber(v)
	case bool:
		if v {
			return "True"
		}
		return "False"
	case []byte:
		return fmt.Sprintf("<%d bytes>", len(v))
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = reprJSON(x)
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	return fmt.Sprint(v)
}

// Close closes the widget: its views disappear from the notebook and it
// stops answering the front end. Closing twice is harmless.
func (m *model) Close() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	mgr := m.mgr
	m.mu.Unlock()
	if mgr != nil {
		mgr.close(m)
	}
}
