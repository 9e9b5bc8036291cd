// Package display renders values as rich notebook output.
//
// A notebook front end shows each output as a MIME bundle: the same value in
// several representations ("text/plain", "text/html", "image/png", ...), of
// which the front end picks the richest it understands. Functions in this
// package build bundles and publish them to the cell that is running:
//
//	display.HTML("<b>bold</b>")
//	display.Markdown("# Title")
//	display.Show(x) // a tensor, an image, a plot, or any value
//
// Outside a notebook (in a Go program or test) nothing is published unless a
// Publisher is installed with SetPublisher.
package display
