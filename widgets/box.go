package widgets

// HBox lays widgets out in a row (ipywidgets' HBox).
type HBox struct{ *model }

// NewHBox returns a row of children.
//
//	display.Show(widgets.NewHBox(lr, stop))
func NewHBox(children ...Widget) *HBox {
	return &HBox{newBox("HBoxModel", "HBoxView", children)}
}

// VBox lays widgets out in a column (ipywidgets' VBox).
type VBox struct{ *model }

// NewVBox returns a column of children.
//
//	display.Show(widgets.NewVBox(lr, widgets.NewHBox(start, stop)))
func NewVBox(children ...Widget) *VBox {
	return &VBox{newBox("VBoxModel", "VBoxView", children)}
}

// newBox returns a box model holding children, which are opened before
// the box.
func newBox(name, view string, children []Widget) *model {
	ids, refs := childRefs(children)
	m := newDOMModel(name, view, "", map[string]any{"box_style": "", "children": ids}, refs...)
	m.text = func(map[string]any) string { return describeList(name[:len(name)-len("Model")], ids) }
	return m
}

// childRefs returns the references to children and the models among them
// that must be opened first.
func childRefs(children []Widget) (ids []any, refs []*model) {
	ids = make([]any, 0, len(children))
	for _, c := range children {
		if c == nil {
			continue
		}
		if mc, ok := c.(modeler); ok {
			refs = append(refs, mc.base())
		}
		ids = append(ids, "IPY_MODEL_"+c.ModelID())
	}
	return ids, refs
}
