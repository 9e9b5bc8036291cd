// Package nbrun runs Jupyter notebooks (nbformat 4) without Jupyter, with
// the same engine as the gotensor kernel: it reads them, runs their code
// cells, and writes them back with their outputs, or as HTML.
//
// Read a notebook, run its code cells in an interpreter session, and write
// it back with the outputs the cells produced, as `gotensor run` does:
//
//	nb, err := nbrun.ReadFile("mnist.ipynb")
//	sess, err := interp.New(interp.Options{})
//	err = nbrun.Run(ctx, nb, sess, os.Stderr) // progress on the terminal
//	err = nbrun.WriteFile("mnist.executed.ipynb", nb)
//	err = nbrun.WriteHTMLFile("mnist.html", nb)
//
// Outputs follow the Jupyter front ends: consecutive text on one stream is
// one output, an update of a display id replaces the earlier output in place
// (in whichever cell it is), and clear_output(wait) clears when the next
// output arrives. A Collector is the one place where what a cell produces
// (kernel.Output calls, its last value, its error) becomes nbformat outputs.
//
// Written notebooks are nbformat 4.5: every cell has an id, and the
// kernelspec and language_info metadata name the gotensor kernel.
package nbrun
