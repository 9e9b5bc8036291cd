package interp

import (
	"fmt"

	"github.com/gotensor/gotensor/display"
	"github.com/gotensor/gotensor/interp/internal/cellrt"
	"github.com/gotensor/gotensor/kernel"
)

// render returns the bundle of a cell's last value. A value of a type a
// cell declared comes with what its display methods returned (compiled
// code, display's included, cannot see them): HTML, Markdown, SVG and PNG
// give the rich forms, and v.Text, what the type's String, Error, Format
// and GoString methods make of it, the text. Other values are
// display.Render's.
func render(v cellrt.Value) kernel.Bundle {
	rich := v.HTML != "" || v.Markdown != "" || v.SVG != "" || len(v.PNG) > 0
	switch {
	case rich && v.Text != nil:
		return kernel.Bundle(display.FromMethods(v.HTML, v.Markdown, v.SVG, v.PNG, *v.Text))
	case rich:
		return kernel.Bundle(display.FromMethods(v.HTML, v.Markdown, v.SVG, v.PNG, fmt.Sprintf("%v", v.V)))
	case v.Text != nil:
		return kernel.Bundle(display.Text(*v.Text))
	}
	return kernel.Bundle(display.Render(v.V))
}
