package interp

import (
	"fmt"

	"github.com/gotensor/gotensor/display"
	"github.com/gotensor/gotensor/interp/internal/cellrt"
	"github.com/gotensor/gotensor/kernel"
)

// render returns the bundle of a cell's last value. A value of a type a
// cell declared comes with its display methods (compiled code, display's
// included, cannot see them): HTML, Markdown, SVG and PNG give the rich
// forms, and m.Text, which formats with the type's String, Error, Format
// and GoString methods, the text. Other values are display.Render's.
func render(v any, m cellrt.Methods) kernel.Bundle {
	return kernel.Bundle(renderDisplay(v, m))
}

// renderDisplay is render in the display package's type.
func renderDisplay(v any, m cellrt.Methods) display.Bundle {
	var html, md, svg string
	var png []byte
	if m.HTML != nil {
		html = m.HTML()
	}
	if m.Markdown != nil {
		md = m.Markdown()
	}
	if m.SVG != nil {
		svg = m.SVG()
	}
	if m.PNG != nil {
		png = m.PNG()
	}
	rich := html != "" || md != "" || svg != "" || len(png) > 0
	switch {
	case rich && m.Text != nil:
		return display.FromMethods(html, md, svg, png, fmt.Sprintf("%v", m.Text))
	case rich:
		return display.FromMethods(html, md, svg, png, fmt.Sprintf("%v", v))
	case m.Text != nil:
		return display.Text(fmt.Sprintf("%v", m.Text))
	}
	return display.Render(v)
}
