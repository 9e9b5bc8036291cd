package interp

import (
	"fmt"
	"go/token"

	"github.com/gotensor/gotensor/display"
	"github.com/gotensor/gotensor/kernel"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// richInspectVariables: a variable's rich view.

// richInspect answers richInspectVariables: the variable's rich view, as
// the cell's result would show it; a tensor of an image's shape ([1, H, W]
// or [3, H, W], H and W at least 8) as a PNG image.
func (d *debugger) richInspect(args map[string]any) (map[string]any, error) {
	name, _ := args["variableName"].(string)
	empty := map[string]any{"data": map[string]any{}, "metadata": map[string]any{}}
	if !token.IsIdentifier(name) {
		return empty, nil
	}
	v, ok := d.lookup(name, kernel.IntArg(args, "frameId"))
	v = deref(v)
	if !ok || !v.IsValid() || !v.CanInterface() {
		return empty, nil
	}
	b := richBundle(v.Interface())
	meta := map[string]any{}
	for k, m := range b.Metadata {
		if _, ok := b.Data[k]; ok {
			meta[k] = m
		}
	}
	return map[string]any{"data": b.Data, "metadata": meta}, nil
}

// richBundle renders x for the debugger's rich view.
func richBundle(x any) (b display.Bundle) {
	defer func() {
		if r := recover(); r != nil {
			b = display.Text(fmt.Sprintf("%v", x))
		}
	}()
	if t, ok := x.(*tensor.Tensor); ok && t != nil {
		if s := t.Shape(); len(s) == 3 && (s[0] == 1 || s[0] == 3) && s[1] >= 8 && s[2] >= 8 {
			return display.ImageBundle(t)
		}
	}
	return display.Render(x)
}
