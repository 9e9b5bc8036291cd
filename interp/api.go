package interp

import "github.com/gotensor/gotensor/display"

// Output receives everything a running cell produces. The kernel implements
// it by publishing Jupyter messages on its iopub socket; tests implement it
// by recording.
type Output interface {
	display.Publisher
	// Stream writes text to the cell's "stdout" or "stderr" stream.
	Stream(name, text string)
	// Input asks the user for a line of text (Jupyter's input_request), as
	// fmt.Scanln on os.Stdin does in a cell. It returns an error when the
	// front end cannot answer (allow_stdin false).
	Input(prompt string, password bool) (string, error)
}

// Error is a failed cell: a compile error, a panic or an interrupt, shaped as
// a Jupyter error reply.
type Error struct {
	Name      string   // ename: the error's type, e.g. "CompileError", "*tensor.ShapeError"
	Value     string   // evalue: the message
	Traceback []string // lines shown to the user, the cell line first
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
	Data  display.Bundle
}

// Completeness is the answer to an is_complete request.
type Completeness struct {
	Status string // "complete", "incomplete", "invalid" or "unknown"
	Indent string // for "incomplete": the indent of the next line
}
