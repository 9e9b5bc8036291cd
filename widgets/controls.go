package widgets

import (
	"fmt"
	"math"
	"strings"
	"sync/atomic"
)

// IntSlider is a slider of whole numbers (ipywidgets' IntSlider).
type IntSlider struct{ *model }

// NewIntSlider returns a slider from min to max, at value, in steps of 1,
// labelled description.
//
//	epochs := widgets.NewIntSlider("epochs", 1, 20, 3)
//	display.Show(epochs)
//	// in a later cell, or in a running loop:
//	n := epochs.Value()
//
// It panics when min > max.
func NewIntSlider(description string, min, max, value int) *IntSlider {
	if min > max {
		panic(fmt.Sprintf("widgets: NewIntSlider: min %d is above max %d", min, max))
	}
	return &IntSlider{newDOMModel("IntSliderModel", "IntSliderView", "SliderStyleModel", map[string]any{
		"behavior": "drag-tap", "continuous_update": true, "description": description,
		"description_allow_html": false, "disabled": false, "max": max, "min": min,
		"orientation": "horizontal", "readout": true, "readout_format": "d", "step": 1,
		"value": clampInt(value, min, max),
	})}
}

// Value returns the slider's value: the latest the user chose, also while
// a cell runs.
func (s *IntSlider) Value() int { return toInt(s.get("value")) }

// SetValue moves the slider to v (kept within its range) and runs the
// OnChange callbacks when the value changes.
func (s *IntSlider) SetValue(v int) {
	s.set("value", clampInt(v, toInt(s.get("min")), toInt(s.get("max"))))
}

// SetStep sets the slider's step and returns the slider.
func (s *IntSlider) SetStep(step int) *IntSlider {
	s.set("step", step)
	return s
}

// SetDisabled turns the slider off (true) or on for the user.
func (s *IntSlider) SetDisabled(disabled bool) { s.set("disabled", disabled) }

// OnChange makes f run with the new value whenever the value changes: in
// a running cell at its next loop iteration (see the package
// documentation), between cells at once.
func (s *IntSlider) OnChange(f func(value int)) {
	s.watch("value", func(v any) { f(toInt(v)) })
}

// FloatSlider is a slider of real numbers (ipywidgets' FloatSlider), or,
// made by NewFloatLogSlider, one whose position is the logarithm of its
// value (FloatLogSlider), for learning rates.
type FloatSlider struct {
	*model
	log bool
}

// NewFloatSlider returns a slider from min to max, at value, labelled
// description, in steps of the power of ten that makes 100 to 1000 of them
// (0.001 for [0, 0.9]), so that round values stay on the track. Its value
// shows with three significant digits.
//
//	dropout := widgets.NewFloatSlider("dropout", 0, 0.9, 0.1)
//
// It panics when min > max.
func NewFloatSlider(description string, min, max, value float64) *FloatSlider {
	if !(min <= max) {
		panic(fmt.Sprintf("widgets: NewFloatSlider: min %g is above max %g", min, max))
	}
	step := 0.1
	if max > min {
		step = math.Pow(10, math.Floor(math.Log10((max-min)/100)))
	}
	return &FloatSlider{model: newDOMModel("FloatSliderModel", "FloatSliderView", "SliderStyleModel", map[string]any{
		"behavior": "drag-tap", "continuous_update": true, "description": description,
		"description_allow_html": false, "disabled": false, "max": max, "min": min,
		"orientation": "horizontal", "readout": true, "readout_format": ".3g", "step": step,
		"value": math.Min(math.Max(value, min), max),
	})}
}

// NewFloatLogSlider returns a slider whose position is the base-10
// logarithm of its value, from min to max (both above 0), at value: each
// tenth of the track is one decade, the scale learning rates want. Its
// value shows with three significant digits.
//
//	lr := widgets.NewFloatLogSlider("learning rate", 1e-5, 1e-1, 1e-3)
//	opt.SetLR(lr.Value())
//
// It panics unless 0 < min <= max.
func NewFloatLogSlider(description string, min, max, value float64) *FloatSlider {
	if !(0 < min && min <= max) {
		panic(fmt.Sprintf("widgets: NewFloatLogSlider: the range [%g, %g] must be above 0 with min <= max", min, max))
	}
	return &FloatSlider{log: true, model: newDOMModel("FloatLogSliderModel", "FloatLogSliderView", "SliderStyleModel", map[string]any{
		"base": 10.0, "behavior": "drag-tap", "continuous_update": true, "description": description,
		"description_allow_html": false, "disabled": false, "max": log10(max), "min": log10(min),
		"orientation": "horizontal", "readout": true, "readout_format": ".3g", "step": 0.1,
		"value": math.Min(math.Max(value, min), max),
	})}
}

// Value returns the slider's value: the latest the user chose, also while
// a cell runs.
func (s *FloatSlider) Value() float64 { return toFloat(s.get("value")) }

// SetValue moves the slider to v (kept within its range) and runs the
// OnChange callbacks when the value changes.
func (s *FloatSlider) SetValue(v float64) {
	lo, hi := toFloat(s.get("min")), toFloat(s.get("max"))
	if s.log {
		lo, hi = math.Pow(10, lo), math.Pow(10, hi)
	}
	s.set("value", math.Min(math.Max(v, lo), hi))
}

// SetStep sets the slider's step and returns the slider; for a log
// slider the step is in decades (0.1 by default).
func (s *FloatSlider) SetStep(step float64) *FloatSlider {
	s.set("step", step)
	return s
}

// SetReadoutFormat sets how the value is shown, a d3-format
// specification such as ".2f" or ".1e", and returns the slider.
func (s *FloatSlider) SetReadoutFormat(format string) *FloatSlider {
	s.set("readout_format", format)
	return s
}

// SetDisabled turns the slider off (true) or on for the user.
func (s *FloatSlider) SetDisabled(disabled bool) { s.set("disabled", disabled) }

// OnChange makes f run with the new value whenever the value changes: in
// a running cell at its next loop iteration (see the package
// documentation), between cells at once.
func (s *FloatSlider) OnChange(f func(value float64)) {
	s.watch("value", func(v any) { f(toFloat(v)) })
}

// Dropdown is a choice among labels (ipywidgets' Dropdown).
type Dropdown struct{ *model }

// NewDropdown returns a dropdown of options with value chosen, labelled
// description.
//
//	arch := widgets.NewDropdown("model", []string{"mlp", "cnn"}, "cnn")
//	if arch.Value() == "cnn" { ... }
//
// It panics when value is not one of options.
func NewDropdown(description string, options []string, value string) *Dropdown {
	labels := make([]any, len(options))
	index := -1
	for i, o := range options {
		labels[i] = o
		if o == value && index < 0 {
			index = i
		}
	}
	if index < 0 {
		panic(fmt.Sprintf("widgets: NewDropdown: %q is not one of the options %q", value, options))
	}
	return &Dropdown{newDOMModel("DropdownModel", "DropdownView", "DescriptionStyleModel", map[string]any{
		"_options_labels": labels, "description": description, "description_allow_html": false,
		"disabled": false, "index": index,
	})}
}

// Index returns the index of the chosen option, or -1 when none is.
func (d *Dropdown) Index() int {
	v := d.get("index")
	if v == nil {
		return -1
	}
	return toInt(v)
}

// Value returns the chosen option's label ("" when none is chosen).
func (d *Dropdown) Value() string {
	i := d.Index()
	labels, _ := d.get("_options_labels").([]any)
	if i < 0 || i >= len(labels) {
		return ""
	}
	s, _ := labels[i].(string)
	return s
}

// SetValue chooses the option labelled value; it panics when there is
// none.
func (d *Dropdown) SetValue(value string) {
	labels, _ := d.get("_options_labels").([]any)
	for i, l := range labels {
		if l == value {
			d.set("index", i)
			return
		}
	}
	panic(fmt.Sprintf("widgets: Dropdown.SetValue: %q is not one of the options", value))
}

// OnChange makes f run with the chosen label whenever the choice changes
// (see IntSlider.OnChange for when).
func (d *Dropdown) OnChange(f func(value string)) {
	d.watch("index", func(any) { f(d.Value()) })
}

// Checkbox is a yes-or-no control (ipywidgets' Checkbox).
type Checkbox struct{ *model }

// NewCheckbox returns a checkbox labelled description, ticked when value
// is true.
//
//	augment := widgets.NewCheckbox("augment", true)
func NewCheckbox(description string, value bool) *Checkbox {
	return &Checkbox{newDOMModel("CheckboxModel", "CheckboxView", "CheckboxStyleModel", map[string]any{
		"description": description, "description_allow_html": false, "disabled": false,
		"indent": true, "value": value,
	})}
}

// Value reports whether the box is ticked.
func (c *Checkbox) Value() bool { b, _ := c.get("value").(bool); return b }

// SetValue ticks (true) or clears the box.
func (c *Checkbox) SetValue(v bool) { c.set("value", v) }

// OnChange makes f run with the new value whenever it changes (see
// IntSlider.OnChange for when).
func (c *Checkbox) OnChange(f func(value bool)) {
	c.watch("value", func(v any) { b, _ := v.(bool); f(b) })
}

// Text is a one-line text field (ipywidgets' Text).
type Text struct{ *model }

// NewText returns a text field holding value, labelled description.
//
//	name := widgets.NewText("run name", "baseline")
func NewText(description, value string) *Text {
	return &Text{newDOMModel("TextModel", "TextView", "TextStyleModel", map[string]any{
		"continuous_update": true, "description": description, "description_allow_html": false,
		"disabled": false, "placeholder": "\u200b", "value": value,
	})}
}

// Value returns the field's text.
func (t *Text) Value() string { s, _ := t.get("value").(string); return s }

// SetValue replaces the field's text.
func (t *Text) SetValue(v string) { t.set("value", v) }

// OnChange makes f run with the new text whenever it changes, at every
// keystroke (see IntSlider.OnChange for when).
func (t *Text) OnChange(f func(value string)) {
	t.watch("value", func(v any) { s, _ := v.(string); f(s) })
}

// Button is a push button (ipywidgets' Button).
type Button struct {
	*model
	clicks atomic.Int64
}

// NewButton returns a button labelled description.
//
//	stop := widgets.NewButton("Stop")
//	display.Show(stop)
//	for epoch := 0; epoch < 100 && stop.Clicks() == 0; epoch++ { ... }
func NewButton(description string) *Button {
	b := &Button{model: newDOMModel("ButtonModel", "ButtonView", "ButtonStyleModel", map[string]any{
		"button_style": "", "description": description, "disabled": false, "icon": "",
	})}
	b.onCustom(func(content map[string]any) (now bool) {
		if content["event"] != "click" {
			return false
		}
		b.clicks.Add(1)
		return true
	})
	return b
}

// Clicks returns how many times the button was clicked. It counts a click
// the moment it arrives, also while a cell runs, before the OnClick
// callbacks run.
func (b *Button) Clicks() int { return int(b.clicks.Load()) }

// OnClick makes f run whenever the button is clicked: in a running cell at
// its next loop iteration (see the package documentation), between cells
// at once.
func (b *Button) OnClick(f func()) {
	b.watchCustom(func(content map[string]any) {
		if content["event"] == "click" {
			f()
		}
	})
}

// SetStyle sets the button's predefined style: "primary", "success",
// "info", "warning", "danger" or "" (plain); it returns the button.
func (b *Button) SetStyle(style string) *Button {
	b.set("button_style", style)
	return b
}

// SetDisabled turns the button off (true) or on.
func (b *Button) SetDisabled(disabled bool) { b.set("disabled", disabled) }

// Label is a line of text (ipywidgets' Label).
type Label struct{ *model }

// NewLabel returns a label showing text.
func NewLabel(text string) *Label {
	return &Label{newDOMModel("LabelModel", "LabelView", "LabelStyleModel", map[string]any{
		"description": "", "description_allow_html": false, "placeholder": "\u200b", "value": text,
	})}
}

// Value returns the label's text.
func (l *Label) Value() string { s, _ := l.get("value").(string); return s }

// SetValue replaces the label's text.
func (l *Label) SetValue(text string) { l.set("value", text) }

// HTML shows a piece of HTML (ipywidgets' HTML).
type HTML struct{ *model }

// NewHTML returns a widget showing html.
//
//	status := widgets.NewHTML("<b>idle</b>")
//	status.SetValue("<b>epoch 3</b>")
func NewHTML(html string) *HTML {
	return &HTML{newDOMModel("HTMLModel", "HTMLView", "HTMLStyleModel", map[string]any{
		"description": "", "description_allow_html": false, "placeholder": "\u200b", "value": html,
	})}
}

// Value returns the HTML shown.
func (h *HTML) Value() string { s, _ := h.get("value").(string); return s }

// SetValue replaces the HTML shown.
func (h *HTML) SetValue(html string) { h.set("value", html) }

// FloatProgress is a progress bar (ipywidgets' FloatProgress).
type FloatProgress struct{ *model }

// NewFloatProgress returns a bar from min to max, at min, labelled
// description. Changes made faster than 20 a second are sent together.
//
//	bar := widgets.NewFloatProgress("epoch", 0, float64(loader.Len()))
//	bar.SetValue(float64(step))
//
// It panics when min > max.
func NewFloatProgress(description string, min, max float64) *FloatProgress {
	if !(min <= max) {
		panic(fmt.Sprintf("widgets: NewFloatProgress: min %g is above max %g", min, max))
	}
	return &FloatProgress{newDOMModel("FloatProgressModel", "ProgressView", "ProgressStyleModel", map[string]any{
		"bar_style": "", "description": description, "description_allow_html": false,
		"max": max, "min": min, "orientation": "horizontal", "value": min,
	})}
}

// Value returns the bar's value.
func (p *FloatProgress) Value() float64 { return toFloat(p.get("value")) }

// SetValue sets the bar's value.
func (p *FloatProgress) SetValue(v float64) { p.set("value", v) }

// SetBarStyle sets the bar's predefined colour: "success", "info",
// "warning", "danger" or "" (plain).
func (p *FloatProgress) SetBarStyle(style string) { p.set("bar_style", style) }

// toInt reads a state number as an int, rounding what the front end sent.
func toInt(v any) int {
	f, _ := number(v)
	return int(math.Round(f))
}

// toFloat reads a state number.
func toFloat(v any) float64 {
	f, _ := number(v)
	return f
}

// log10 is math.Log10, exact at powers of ten (math.Log10(0.1) is
// -0.9999999999999999).
func log10(x float64) float64 {
	e := math.Log10(x)
	if r := math.Round(e); math.Abs(e-r) < 1e-9 {
		return r
	}
	return e
}

func clampInt(v, lo, hi int) int { return max(lo, min(v, hi)) }

// describeList is a widget's text form when it holds other widgets.
func describeList(name string, children []any) string {
	return fmt.Sprintf("%s(children=(%s))", name, strings.Repeat("…, ", max(len(children)-1, 0))+strings.Repeat("…", min(len(children), 1)))
}
