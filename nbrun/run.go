package nbrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gotensor/gotensor/display"
	"github.com/gotensor/gotensor/interp"
)

// Executor runs cells; *interp.Session implements it, as it does for the
// kernel.
type Executor interface {
	// Execute runs one cell, sends what it produces to out and returns
	// the bundle of its last value (nil when none) or an *interp.Error.
	// Cancelling ctx interrupts the cell.
	Execute(ctx context.Context, code string, out interp.Output) (*display.Bundle, error)
}

// CellError is the error that stopped a run: the cell that failed, by its
// index in Notebook.Cells, and its error as the notebook shows it.
type CellError struct {
	Cell int
	Err  *interp.Error
}

func (e *CellError) Error() string {
	return fmt.Sprintf("notebook: cell %d: %s", e.Cell+1, e.Err.Error())
}

func (e *CellError) Unwrap() error { return e.Err }

// Interrupted reports whether the run stopped because it was interrupted.
func (e *CellError) Interrupted() bool { return e.Err.Name == "Interrupted" }

// settleQuiet is how long Run waits, after the last cell, for live outputs
// (progress bars, live plots) to stop redrawing, and settleMax the most it
// waits.
var (
	settleQuiet = 500 * time.Millisecond
	settleMax   = 3 * time.Second
)

// Run executes nb's code cells in order in ex, as "Run All" in Jupyter does,
// and stores their outputs and execution counts in nb, replacing those it
// had. Markdown and raw cells are kept as they are; code cells left empty
// are skipped. Run stops at the first cell that fails and returns a
// *CellError; that cell holds the error output and the cells after it have
// no outputs. Cancelling ctx interrupts the running cell the same way.
//
// Progress goes to progress, for a person: a line per cell with its time,
// the cell's printed text as it arrives and its rich outputs as text. When
// progress is a terminal, progress bars redraw in place. A nil progress
// shows nothing.
//
// Run also sets the notebook's kernelspec and language_info metadata to the
// gotensor kernel's.
func Run(ctx context.Context, nb *Notebook, ex Executor, progress io.Writer) error {
	SetKernelMetadata(nb)
	var todo []int
	for i, c := range nb.Cells {
		if c.Type != CodeCell {
			continue
		}
		c.Outputs, c.ExecutionCount = nil, 0
		if strings.TrimSpace(c.Source) != "" {
			todo = append(todo, i)
		}
	}
	col := NewCollector()
	defer col.Close()
	term := newTerminal(progress)
	out := tee{col, term}
	for k, i := range todo {
		if err := ctx.Err(); err != nil {
			return &CellError{Cell: i, Err: interruptedError()}
		}
		cell := nb.Cells[i]
		col.Begin(cell, k+1)
		term.begin(k+1, len(todo), i)
		start := time.Now()
		b, err := execute(ctx, ex, cell.Source, out)
		var e *interp.Error
		if err != nil {
			e = asInterpError(err, ctx.Err() != nil)
			col.Error(e)
		} else {
			col.Result(b)
			term.result(b, k+1)
		}
		col.End()
		term.end(time.Since(start), e != nil)
		if e != nil {
			return &CellError{Cell: i, Err: e}
		}
	}
	settle(col)
	return nil
}

// settle waits until live outputs have not redrawn for settleQuiet, at most
// settleMax, so that their final state is in the notebook. It returns at
// once when no cell showed a live output.
func settle(col *Collector) {
	if col.LastDisplayUpdate().IsZero() {
		return
	}
	deadline := time.Now().Add(settleMax)
	for {
		wait := time.Until(col.LastDisplayUpdate().Add(settleQuiet))
		if wait <= 0 || time.Now().After(deadline) {
			return
		}
		time.Sleep(min(wait, time.Until(deadline)+time.Millisecond))
	}
}

// execute runs code, turning a panic of ex into an error.
func execute(ctx context.Context, ex Executor, code string, out interp.Output) (b *display.Bundle, err error) {
	defer func() {
		if p := recover(); p != nil {
			b, err = nil, &interp.Error{
				Name:      "InternalError",
				Value:     fmt.Sprintf("the interpreter panicked: %v", p),
				Traceback: append([]string{fmt.Sprintf("panic: %v", p)}, strings.Split(string(debug.Stack()), "\n")...),
			}
		}
	}()
	return ex.Execute(ctx, code, out)
}

// asInterpError shapes err as a notebook error.
func asInterpError(err error, interrupted bool) *interp.Error {
	var e *interp.Error
	if errors.As(err, &e) {
		return e
	}
	if interrupted || errors.Is(err, context.Canceled) {
		return interruptedError()
	}
	return &interp.Error{Name: "Error", Value: err.Error(), Traceback: []string{err.Error()}}
}

func interruptedError() *interp.Error {
	return &interp.Error{Name: "Interrupted", Value: "the cell was interrupted", Traceback: []string{"Interrupted: the cell was interrupted"}}
}

// SetKernelMetadata sets nb's kernelspec and language_info metadata to the
// gotensor kernel's, as Jupyter does when the kernel runs the notebook.
func SetKernelMetadata(nb *Notebook) {
	if nb.Metadata == nil {
		nb.Metadata = map[string]any{}
	}
	nb.Metadata["kernelspec"] = map[string]any{
		"name":         "gotensor",
		"display_name": "Go (gotensor)",
		"language":     "go",
	}
	nb.Metadata["language_info"] = map[string]any{
		"name":            "go",
		"version":         strings.TrimPrefix(runtime.Version(), "go"),
		"mimetype":        "text/x-go",
		"file_extension":  ".go",
		"pygments_lexer":  "go",
		"codemirror_mode": "go",
	}
}

// tee sends a cell's output to the collector and the terminal.
type tee struct {
	col  *Collector
	term *terminal
}

func (t tee) Stream(name, text string) {
	t.col.Stream(name, text)
	t.term.Stream(name, text)
}

func (t tee) Display(b display.Bundle, id string, update bool) {
	t.col.Display(b, id, update)
	t.term.Display(b, id, update)
}

func (t tee) ClearOutput(wait bool) {
	t.col.ClearOutput(wait)
	t.term.ClearOutput(wait)
}

func (t tee) Input(prompt string, password bool) (string, error) {
	return t.col.Input(prompt, password)
}
