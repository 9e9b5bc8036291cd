// Package widgets makes interactive controls in a notebook: sliders,
// dropdowns, checkboxes, text fields, buttons, labels, HTML, images,
// progress bars, output areas and boxes, as ipywidgets makes them for
// Python. They speak ipywidgets' protocol (version 2.1.0), so JupyterLab's
// widget manager (@jupyter-widgets/jupyterlab-manager, which `gotensor lab`
// includes) draws them; front ends without one show a line of text.
//
// Make a control, show it, and read its value with a method, in a later
// cell or while a cell runs:
//
//	lr := widgets.NewFloatLogSlider("learning rate", 1e-5, 1e-1, 1e-3)
//	stop := widgets.NewButton("Stop")
//	display.Show(widgets.NewHBox(lr, stop))
//
//	for step := 0; step < 100000 && stop.Clicks() == 0; step++ {
//		opt.SetLR(lr.Value())   // the slider's latest value
//		// ... one training step ...
//	}
//
// Callbacks run when the user changes a value or clicks:
//
//	stop.OnClick(func() { stopping = true })
//	lr.OnChange(func(v float64) { fmt.Println("lr", v) })
//
// Interact calls a function with its controls' values and redraws its
// output whenever one moves:
//
//	widgets.Interact(func(freq float64) *plot.Plot { return wave(freq) },
//		widgets.NewFloatSlider("freq", 0.5, 5, 1))
//
// # Live control: values at once, callbacks at a safe point
//
// The kernel serves the front end's widget messages while a cell runs
// (ipykernel makes them wait for the cell to end). A new value is the
// widget's at once: Value, Clicks and the others, read from a running
// loop, return the latest, safely from any goroutine.
//
// Callbacks (OnChange, OnClick, Interact's function) run at a safe point of
// the notebook session: when a cell is running, on the cell's own
// goroutine at its next loop iteration (every loop of a cell checks for
// them where it checks for an interrupt), so that a callback never runs
// at the same time as the cell's code and may change the cell's
// variables; between cells, at once. A cell that runs no loop (it waits in
// time.Sleep or in one long tensor operation) runs them when it reaches
// one, or when it ends. Changes made in code (SetValue) run the callbacks
// at once, in the caller, as ipywidgets does.
//
// A panic in a callback is printed, and the cell (or the session) goes on.
//
// # Outside a notebook
//
// In a Go program the widgets hold their values and run their callbacks
// on SetValue, but nothing is shown: a notebook session opens each widget
// a cell makes (Manager.Adopt). A notebook run headless (gotensor run)
// saves the widgets' state in its metadata, as nbconvert --execute does,
// so that a viewer that renders widgets shows them.
package widgets
