// Package display renders values as rich notebook output.
//
// A notebook front end shows each output as a MIME bundle: the same value in
// several representations ("text/plain", "text/html", "image/png", ...), of
// which it picks the richest it understands. Functions in this package
// build bundles and publish them to the cell that is running.
//
// Any value:
//
//	display.Show(x)            // a tensor: an HTML table of its values
//	display.Show(img)          // an image.Image, a *plot.Plot, an error, ...
//
// Text and markup:
//
//	display.HTML("<b>bold</b>")
//	display.Markdown("# Results\nAccuracy: **98%**")
//	display.Latex(`e^{i\pi} + 1 = 0`)
//	display.JSON(config)
//	display.Table([]string{"layer", "params"}, [][]any{{"Linear", 200960}})
//
// Images from tensors ([H,W], [1,H,W] or [3,H,W]; batches [N,C,H,W]):
//
//	display.Image(train.Images.Select(0, 0))
//	display.Grid(train.Images.Narrow(0, 0, 32), 8)
//	display.GridLabeled(batch, 8, labels)   // "pred 3 / true 5" under each
//
// Plots, drawn with gonum.org/v1/plot; the helpers return a *plot.Plot that
// can be customised before it is shown:
//
//	display.Show(display.LinePlot("loss", display.Series{Name: "train", Y: losses}))
//	display.Show(display.Histogram(w, 50))
//	display.Show(display.ConfusionMatrix(logits, labels, 10))
//
// Live outputs, redrawn in place (throttled to 4 redraws a second) while a
// cell runs:
//
//	curve := display.NewLivePlot("loss")
//	bar := display.NewProgress(loader.Len())
//	for loader.Next() {
//		// ... one step ...
//		curve.Add("train", loss.Item())
//		bar.Add(1)
//	}
//	bar.Done()
//	curve.Done()
//
// Every function that publishes has a form that returns the Bundle instead
// (HTMLBundle, ImageBundle, PlotBundle, ..., and Render for Show): Show(v)
// is publishing Render(v). A value renders itself when it has a
// Bundle() Bundle method (a Renderer), or richly when it has HTML() string,
// Markdown() string, SVG() string or PNG() []byte methods.
//
// In a notebook, each session's outputs go to its own Outlet, which the
// session binds to the goroutines that run its code: two sessions in one
// process never show into each other's cells, and SetPlotSize sizes one
// session's plots. Outside a notebook (in a Go program or test) nothing is
// published unless a Publisher is installed with SetPublisher.
package display
