package kernel

import (
	"context"

	"github.com/gotensor/gotensor/display"
	"github.com/gotensor/gotensor/interp"
)

// Interpreter is the language behind the kernel. The kernel owns sockets,
// signing, the execution queue and message routing; the Interpreter owns
// everything about Go. *interp.Session implements it; tests use a fake.
type Interpreter interface {
	// Execute runs one cell. Output produced while it runs goes to out. It
	// returns the bundle of the cell's last value (nil when there is none) or
	// an *interp.Error. Cancelling ctx interrupts the cell; Execute then
	// returns promptly with an error named "Interrupted".
	Execute(ctx context.Context, code string, out interp.Output) (*display.Bundle, error)
	// Complete answers a completion request; cursor is in Unicode code points.
	Complete(code string, cursor int) interp.Completion
	// Inspect answers an inspection request; cursor is in Unicode code points.
	Inspect(code string, cursor, detail int) interp.Inspection
	// IsComplete tells whether code is ready to run.
	IsComplete(code string) interp.Completeness
}
