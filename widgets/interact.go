package widgets

import (
	"fmt"
	"reflect"
	"sync"

	"github.com/gotensor/gotensor/display"
)

// valuer is a control whose value Interact passes to the function.
type valuer interface {
	Widget
	interactValue() any
	interactKey() string // the attribute whose changes call the function again
}

func (s *IntSlider) interactValue() any   { return s.Value() }
func (s *IntSlider) interactKey() string  { return "value" }
func (s *FloatSlider) interactValue() any { return s.Value() }
func (s *FloatSlider) interactKey() string {
	return "value"
}
func (d *Dropdown) interactValue() any  { return d.Value() }
func (d *Dropdown) interactKey() string { return "index" }
func (c *Checkbox) interactValue() any  { return c.Value() }
func (c *Checkbox) interactKey() string { return "value" }
func (t *Text) interactValue() any      { return t.Value() }
func (t *Text) interactKey() string     { return "value" }

// Interactive is the widget Interact returns: the controls of a function's
// parameters above the output of its latest call (a VBox).
type Interactive struct {
	*model
	fn       reflect.Value
	controls []valuer
	out      *Output

	mu        sync.Mutex
	scheduled bool // a call is posted and has not started
}

// Interact shows a control for each of f's parameters and calls f with
// their values: once when the widget is shown, and again whenever a value
// changes. What f prints and displays, and the values it returns (a
// *plot.Plot, a tensor, an error: shown as display.Show shows them),
// replace the previous call's in the widget's output area. A change made
// while a cell runs calls f at the cell's next loop iteration (see the
// package documentation); changes that arrive faster than f runs are
// taken together.
//
// Each control is one of this package's IntSlider, FloatSlider, Dropdown,
// Checkbox or Text, or a value that stands for one, as ipywidgets'
// interact abbreviates: an int v gives a slider over [-v, 3v] (over [0, 1]
// for 0), a float64 likewise, a bool a checkbox, a string a
// text field and a []string a dropdown of its items. A control's value is
// converted to its parameter's type (a slider of whole numbers may feed a
// float64 parameter).
//
//	widgets.Interact(func(freq float64, n int) *plot.Plot {
//		return display.LinePlot("sine", display.Series{Y: wave(freq, n)})
//	}, widgets.NewFloatSlider("freq", 0.5, 5, 1), 100)
//
// Interact panics when f is not a function, when the number of controls
// is not f's number of parameters, or when a control's value cannot be
// converted to its parameter's type.
func Interact(f any, controls ...any) *Interactive {
	fn := reflect.ValueOf(f)
	if fn.Kind() != reflect.Func || fn.IsNil() {
		panic(fmt.Sprintf("widgets: Interact: f is a %T, not a function", f))
	}
	t := fn.Type()
	if t.IsVariadic() || t.NumIn() != len(controls) {
		panic(fmt.Sprintf("widgets: Interact: f takes %d parameters and %d controls were given: give one control (or value) per parameter", t.NumIn(), len(controls)))
	}
	cs := make([]valuer, len(controls))
	for i, c := range controls {
		cs[i] = control(i, c)
		v := reflect.ValueOf(cs[i].interactValue())
		if p := t.In(i); !convertible(v.Type(), p) {
			panic(fmt.Sprintf("widgets: Interact: parameter %d of f is a %s, and control %d gives a %s: give a control of a convertible type", i+1, p, i+1, v.Type()))
		}
	}
	out := NewOutput()
	kids := make([]Widget, 0, len(cs)+1)
	for _, c := range cs {
		kids = append(kids, c)
	}
	kids = append(kids, out)
	box := newBox("VBoxModel", "VBoxView", kids)
	box.state["_dom_classes"] = []any{"widget-interact"}
	it := &Interactive{model: box, fn: fn, controls: cs, out: out}
	box.text = func(map[string]any) string { return fmt.Sprintf("interactive(%s, %d controls)", t, len(cs)) }
	for _, c := range cs {
		if mc, ok := c.(modeler); ok {
			mc.base().watch(c.interactKey(), func(any) { it.request() })
		}
	}
	box.adopted = it.Update
	return it
}

// control returns the i-th control of Interact: c itself, or the control
// an abbreviation stands for.
func control(i int, c any) valuer {
	switch c := c.(type) {
	case valuer:
		return c
	case int:
		lo, hi := abbreviatedRange(float64(c))
		return NewIntSlider("", int(lo), int(hi), c)
	case float64:
		lo, hi := abbreviatedRange(c)
		return NewFloatSlider("", lo, hi, c)
	case bool:
		return NewCheckbox("", c)
	case string:
		return NewText("", c)
	case []string:
		if len(c) == 0 {
			panic(fmt.Sprintf("widgets: Interact: control %d is an empty list of options", i+1))
		}
		return NewDropdown("", c, c[0])
	}
	panic(fmt.Sprintf("widgets: Interact: control %d is a %T: give an IntSlider, FloatSlider, Dropdown, Checkbox or Text, or an int, float64, bool, string or []string", i+1, c))
}

// abbreviatedRange is the range of the slider a number stands for in
// Interact: [-v, 3v] for v > 0, [3v, -v] for v < 0, [0, 1] for 0.
func abbreviatedRange(v float64) (lo, hi float64) {
	switch {
	case v > 0:
		return -v, 3 * v
	case v < 0:
		return 3 * v, -v
	}
	return 0, 1
}

// Output returns the widget's output area.
func (it *Interactive) Output() *Output { return it.out }

// Controls returns the controls, one per parameter of the function.
func (it *Interactive) Controls() []Widget {
	ws := make([]Widget, len(it.controls))
	for i, c := range it.controls {
		ws[i] = c
	}
	return ws
}

// request arranges a call of the function with the controls' values:
// through the session's safe point when a session opened the widget (a
// call posted and not started yet takes later changes too), else now.
func (it *Interactive) request() {
	it.mu.Lock()
	mgr := it.mgr
	if mgr == nil {
		it.mu.Unlock()
		it.Update()
		return
	}
	if it.scheduled {
		it.mu.Unlock()
		return
	}
	it.scheduled = true
	it.mu.Unlock()
	mgr.host.Post(func() {
		it.mu.Lock()
		it.scheduled = false
		it.mu.Unlock()
		it.Update()
	})
}

// Update calls the function now with the controls' values, its output
// replacing the previous call's once the new call shows something.
func (it *Interactive) Update() {
	t := it.fn.Type()
	args := make([]reflect.Value, len(it.controls))
	for i, c := range it.controls {
		args[i] = reflect.ValueOf(c.interactValue()).Convert(t.In(i))
	}
	it.out.Capture(func() {
		sink{it.out}.ClearOutput(true)
		for _, r := range it.fn.Call(args) {
			if isNil(r) {
				continue
			}
			display.Show(r.Interface())
		}
	})
}

// convertible reports whether a control's value of type from may be
// passed for a parameter of type to: a number for a number, a bool for a
// bool, a string for a string (never a number for a string, which Go
// would convert to a rune), or any value for an interface it implements.
func convertible(from, to reflect.Type) bool {
	if to.Kind() == reflect.Interface {
		return from.Implements(to)
	}
	kind := func(k reflect.Kind) int {
		switch {
		case k >= reflect.Int && k <= reflect.Float64:
			return 1
		case k == reflect.Bool:
			return 2
		case k == reflect.String:
			return 3
		}
		return 0
	}
	return kind(from.Kind()) != 0 && kind(from.Kind()) == kind(to.Kind()) && from.ConvertibleTo(to)
}

// isNil reports whether a result is nil (a nil error, pointer, slice...).
func isNil(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer, reflect.Slice, reflect.Map, reflect.Func, reflect.Chan:
		return v.IsNil()
	}
	return false
}
