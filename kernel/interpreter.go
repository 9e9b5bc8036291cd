package kernel

import "context"

// Interpreter is the language behind the kernel. The kernel owns sockets,
// signing, the execution queue and message routing; the Interpreter owns
// everything about the language, and speaks to the kernel in the small
// types below, which know nothing about Go (xeus's split). The Go notebook
// session (package interp) implements it; tests use a fake.
type Interpreter interface {
	// Execute runs one cell. Output produced while it runs goes to out. It
	// returns the bundle of the cell's last value (nil when there is none) or
	// an error, an *Error when it has the shape of a Jupyter error.
	// Cancelling ctx interrupts the cell; Execute then returns promptly with
	// an error named "Interrupted".
	Execute(ctx context.Context, code string, out Output) (*Bundle, error)
	// Complete answers a completion request; cursor is in Unicode code points.
	Complete(code string, cursor int) Completion
	// Inspect answers an inspection request; cursor is in Unicode code points.
	Inspect(code string, cursor, detail int) Inspection
	// IsComplete tells whether code is ready to run.
	IsComplete(code string) Completeness
}

// Output receives everything a running cell produces; the kernel publishes
// it on iopub (and asks for input on stdin). It is safe for concurrent use.
// The kernel's Outputs are also a Pager and a CommOutput; an Output made
// elsewhere (a headless run of a notebook, a test) may be neither, and the
// Interpreter then does without: it prints what it would page, and keeps
// its comm messages to itself.
type Output interface {
	// Stream writes text to the cell's "stdout" or "stderr" stream.
	Stream(name, text string)
	// Display shows b. A non-empty id names the output so that a later call
	// with update set replaces it in place instead of adding a new output.
	Display(b Bundle, id string, update bool)
	// ClearOutput clears the cell's outputs; with wait set, the front end
	// clears them only when the next output arrives.
	ClearOutput(wait bool)
	// Input asks the user for a line of text (Jupyter's input_request). It
	// returns an error when the front end cannot answer (allow_stdin false)
	// or the cell is interrupted.
	Input(prompt string, password bool) (string, error)
}

// Pager is an Output that also shows the front end's pager.
type Pager interface {
	Output
	// Page shows b in the front end's pager, as IPython's ?name does: the
	// execute_reply carries it as a "page" payload, which JupyterLab and
	// Notebook show beside the notebook. A later Page of the same cell
	// replaces an earlier one.
	Page(b Bundle)
}

// CommOutput is an Output that also carries comm messages to the front
// end (Jupyter's comm_open, comm_msg and comm_close), on which widgets are
// built.
type CommOutput interface {
	Output
	// Comm sends one of the Interpreter's comm messages (comm_open,
	// comm_msg, comm_close; see Comms) on iopub, as the child of the
	// request being handled, also for a silent execute_request: a widget
	// that the front end never hears of cannot be shown.
	Comm(m CommMessage)
}

// Bundle is a value's representations keyed by MIME type ("text/plain",
// "text/html", "image/png" ...) and their metadata, as Jupyter's
// display_data and execute_result carry them.
type Bundle struct {
	Data     map[string]any
	Metadata map[string]any
}

// Error is a failed cell, shaped as a Jupyter error reply.
type Error struct {
	Name      string   // ename: the error's type, e.g. "CompileError"
	Value     string   // evalue: the message
	Traceback []string // lines shown to the user
}

func (e *Error) Error() string { return e.Name + ": " + e.Value }

// Completion is the answer to a completion request.
type Completion struct {
	Matches    []string
	Start, End int // the replaced range of the code, in Unicode code points
	Metadata   map[string]any
}

// Inspection is the answer to an inspection (Shift-Tab) request.
type Inspection struct {
	Found bool
	Data  Bundle
}

// Completeness is the answer to an is_complete request.
type Completeness struct {
	Status string // "complete", "incomplete", "invalid" or "unknown"
	Indent string // for "incomplete": the indent of the next line
}
