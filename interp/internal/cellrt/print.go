package cellrt

import (
	"io"
	"os"

	"github.com/gotensor/gotensor/interp/internal/rtprint"
)

var stderr io.Writer = os.Stderr

// Print is the print builtin for cells: it writes its arguments to the
// session's standard error in the format of Go's runtime, as Go does.
func (rt *Runtime) Print(args ...any) {
	var b []byte
	for _, a := range args {
		b = appendBuiltin(b, a)
	}
	rt.stderr().Write(b)
}

// Println is the println builtin for cells: Print with spaces between
// the arguments and a newline.
func (rt *Runtime) Println(args ...any) {
	var b []byte
	for i, a := range args {
		if i > 0 {
			b = append(b, ' ')
		}
		b = appendBuiltin(b, a)
	}
	rt.stderr().Write(append(b, '\n'))
}

// appendBuiltin appends x as the runtime's print formats it (see
// rtprint.Append), the interpreter's wrapper of a value unwrapped first.
func appendBuiltin(b []byte, x any) []byte { return rtprint.Append(b, Unwrap(x)) }
