package display

import (
	"fmt"
	"html"
)

// Show publishes v as rich output in the running cell. It uses the richest
// representation Render finds for v.
//
//	display.Show(x)
func Show(v any) { publish(Render(v), "", false) }

// HTML publishes s as an HTML output.
//
//	display.HTML("<b>bold</b> text")
func HTML(s string) {
	publish(Bundle{Data: map[string]any{"text/html": s, "text/plain": stripForText(s)}}, "", false)
}

// Markdown publishes s as a Markdown output.
//
//	display.Markdown("# Results\nAccuracy: **98%**")
func Markdown(s string) {
	publish(Bundle{Data: map[string]any{"text/markdown": s, "text/plain": s}}, "", false)
}

// Renderer is implemented by values that render themselves as a bundle.
type Renderer interface {
	Bundle() Bundle
}

// Render returns the bundle that represents v: its own Bundle method when it
// has one, else its fmt %v text.
func Render(v any) Bundle {
	if r, ok := v.(Renderer); ok {
		return r.Bundle()
	}
	return Text(fmt.Sprintf("%v", v))
}

func stripForText(s string) string {
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return html.UnescapeString(s)
}
