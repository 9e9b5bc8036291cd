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

	"github.com/gotensor/gotensor/kernel"
)

// Executor runs cells; *interp.Session implements it, as it does for the
// kernel.
type Executor interface {
	// Execute runs one cell, sends what it produces to out and returns
	// the bundle of its last value (nil when none) or an *kernel.Error.
	// Cancelling ctx interrupts the cell.
	Execute(ctx context.Context, code string, out kernel.Output) (*kernel.Bundle, error)
}

// CellError is the error that stopped a run: the cell that failed, by its
// index in Notebook.Cells, and its error as the notebook shows it.
type CellError struct {
	Cell int
	Err  *kernel.Error
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
	return RunWith(ctx, nb, ex, progress, Options{})
}

// RunWith is Run with options: errors recorded and the run going on
// (AllowErrors), a time limit per cell (Timeout), parameters injected
// (Parameters). When the run had errors and AllowErrors is set, it returns
// a *CellErrors with every cell that failed.
//
// When ex keeps widgets (it has a WidgetState method, as *interp.Session
// does), the state of the widgets open at the end is saved in the
// notebook's metadata (metadata.widgets), as nbconvert --execute saves it,
// so that a viewer that renders widgets shows them.
func RunWith(ctx context.Context, nb *Notebook, ex Executor, progress io.Writer, opts Options) error {
	SetKernelMetadata(nb)
	if len(opts.Parameters) > 0 {
		if err := InjectParameters(nb, opts.Parameters); err != nil {
			return err
		}
	}
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
	defer saveWidgets(nb, ex)
	var failed CellErrors
	for k, i := range todo {
		if err := ctx.Err(); err != nil {
			return &CellError{Cell: i, Err: interruptedError()}
		}
		cell := nb.Cells[i]
		col.Begin(cell, k+1)
		term.begin(k+1, len(todo), i)
		start := time.Now()
		cellCtx, cancel := ctx, context.CancelFunc(func() {})
		if opts.Timeout > 0 {
			cellCtx, cancel = context.WithTimeout(ctx, opts.Timeout)
		}
		b, err := execute(cellCtx, ex, cell.Source, out)
		timedOut := cellCtx.Err() == context.DeadlineExceeded && ctx.Err() == nil
		cancel()
		var e *kernel.Error
		if err != nil {
			e = asInterpError(err, cellCtx.Err() != nil)
			if timedOut {
				e = timeoutError(opts.Timeout)
			}
			col.Error(e)
		} else {
			col.Result(b)
			term.result(b, k+1)
		}
		col.End()
		term.end(time.Since(start), e != nil)
		if e == nil {
			continue
		}
		ce := &CellError{Cell: i, Err: e}
		if !opts.AllowErrors || ctx.Err() != nil {
			return ce
		}
		failed = append(failed, ce)
	}
	settle(col)
	if len(failed) > 0 {
		return failed
	}
	return nil
}

// Options change how RunWith runs a notebook.
type Options struct {
	// AllowErrors runs every cell, as jupyter nbconvert --execute
	// --allow-errors does: a cell's error is recorded in its outputs and
	// the run goes on; RunWith then returns a *CellErrors. An interrupt
	// still stops the run.
	AllowErrors bool
	// Timeout, when positive, limits each cell's time: a cell still
	// running after it is interrupted, and fails with a CellTimeoutError
	// (nbconvert's name).
	Timeout time.Duration
	// Parameters are injected as papermill does (see InjectParameters).
	Parameters []Parameter
}

// CellErrors are the cells that failed in a run with AllowErrors, in
// order.
type CellErrors []*CellError

func (e CellErrors) Error() string {
	msgs := make([]string, len(e))
	for i, c := range e {
		msgs[i] = c.Error()
	}
	return strings.Join(msgs, "; ")
}

// timeoutError is the error of a cell that ran past Options.Timeout.
func timeoutError(d time.Duration) *kernel.Error {
	msg := fmt.Sprintf("the cell ran longer than the time limit of %v and was interrupted (gotensor run --timeout)", d)
	return &kernel.Error{Name: "CellTimeoutError", Value: msg, Traceback: []string{"CellTimeoutError: " + msg}}
}

// widgetStater is an Executor that keeps widgets (*interp.Session).
type widgetStater interface {
	WidgetState() map[string]any
}

// widgetStateMIME is the key of the widget state in a notebook's
// metadata.widgets.
const widgetStateMIME = "application/vnd.jupyter.widget-state+json"

// saveWidgets stores the state of ex's open widgets in nb's metadata, as
// nbconvert --execute (store_widget_state) does; a notebook without
// widgets gets no entry, and loses one it had.
func saveWidgets(nb *Notebook, ex Executor) {
	w, ok := ex.(widgetStater)
	if !ok {
		return
	}
	state := w.WidgetState()
	if s, _ := state["state"].(map[string]any); len(s) == 0 {
		delete(nb.Metadata, "widgets")
		return
	}
	nb.Metadata["widgets"] = map[string]any{widgetStateMIME: state}
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
func execute(ctx context.Context, ex Executor, code string, out kernel.Output) (b *kernel.Bundle, err error) {
	defer func() {
		if p := recover(); p != nil {
			b, err = nil, &kernel.Error{
				Name:      "InternalError",
				Value:     fmt.Sprintf("the interpreter panicked: %v", p),
				Traceback: append([]string{fmt.Sprintf("panic: %v", p)}, strings.Split(string(debug.Stack()), "\n")...),
			}
		}
	}()
	return ex.Execute(ctx, code, out)
}

// asInterpError shapes err as a notebook error.
func asInterpError(err error, interrupted bool) *kernel.Error {
	var e *kernel.Error
	if errors.As(err, &e) {
		return e
	}
	if interrupted || errors.Is(err, context.Canceled) {
		return interruptedError()
	}
	return &kernel.Error{Name: "Error", Value: err.Error(), Traceback: []string{err.Error()}}
}

func interruptedError() *kernel.Error {
	return &kernel.Error{Name: "Interrupted", Value: "the cell was interrupted", Traceback: []string{"Interrupted: the cell was interrupted"}}
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

func (t tee) Display(b kernel.Bundle, id string, update bool) {
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
