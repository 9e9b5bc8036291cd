package native

import (
	"fmt"
	"io"
	"log"
	"os"
	"reflect"
	"sync"
	"time"

	"github.com/gotensor/gotensor/interp/internal/rtprint"
)

// Hooks are a session's answers to what compiled cell code asks of it. The
// session sets a cell's hooks before the cell's code runs; a nil hook does
// what its comment says.
type Hooks struct {
	// Stdout and Stderr are the cell's streams: fmt's printing functions
	// write to Stdout, print and println to Stderr (os.Stdout and
	// os.Stderr if nil).
	Stdout, Stderr io.Writer

	// OnAttention is called by a loop or function of the cell that found
	// the cell's stop flag set: it panics to end an interrupted cell, or
	// runs what was posted to the session (widget callbacks) and clears
	// the flags. Default: nothing.
	OnAttention func()

	// OnExit ends the cell for os.Exit(code) and log.Fatal (code 1). It must
	// not return. Default: os.Exit.
	OnExit func(code int)

	// OnGoPanic reports the panic of a goroutine that a cell started.
	// Default: write it to Stderr.
	OnGoPanic func(r any, stack []uintptr)

	// OnGoStart is called first by every goroutine that a cell starts, on
	// that goroutine, and the function it returns last: the session makes
	// the goroutine its own (its outputs, its interrupt) for its life.
	// Default: nothing.
	OnGoStart func() (end func())

	// OnRecursion ends the cell when a call of function name made a
	// goroutine's stack deeper than MaxStack bytes. It must not return.
	// Default: panic with a *RecursionError.
	OnRecursion func(name string)

	// OnSleep is time.Sleep for cells: it ends early when the cell is
	// interrupted. Default: time.Sleep.
	OnSleep func(d time.Duration)

	// Stdin is what a cell's os.Stdin reads: lines the front end asks
	// the user for. Default: os.Stdin.
	Stdin io.Reader

	// OnAdopt makes a widget that compiled code made the session's, so
	// that the front end shows it. Default: nothing.
	OnAdopt func(w any)
}

// Adopt makes a widget that a constructor of package widgets returned the
// session's.
func (h *Hooks) Adopt(w any) {
	if h != nil && h.OnAdopt != nil {
		h.OnAdopt(w)
	}
}

// MaxStack is how deep, in bytes of a goroutine's stack, the functions of
// compiled cells may recurse before the cell ends with a RecursionError.
// The Go runtime ends the whole process at 1 GB.
const MaxStack = 256 << 20

// Deep reports whether the calling goroutine's stack holds more than
// MaxStack bytes: the check that compiled functions which may recurse
// make when they start.
func Deep() bool { return stackUsed() > MaxStack }

// RecursionError is the panic of a cell's runaway recursion when no
// OnRecursion hook is set.
type RecursionError struct{ Func string }

func (e *RecursionError) Error() string {
	return fmt.Sprintf("runaway recursion: %s made the goroutine's stack deeper than %d MB", e.Func, MaxStack>>20)
}

func (h *Hooks) stdout() io.Writer {
	if h != nil && h.Stdout != nil {
		return h.Stdout
	}
	return os.Stdout
}

func (h *Hooks) stderr() io.Writer {
	if h != nil && h.Stderr != nil {
		return h.Stderr
	}
	return os.Stderr
}

// Out returns the cell's standard output, for fmt.Print, Printf and
// Println in cells.
func (h *Hooks) Out() io.Writer { return h.stdout() }

// In returns the cell's standard input, for os.Stdin in cells.
func (h *Hooks) In() io.Reader {
	if h != nil && h.Stdin != nil {
		return h.Stdin
	}
	return os.Stdin
}

// Stop calls the OnAttention hook: the cell's stop flag was found set.
func (h *Hooks) Stop() {
	if h != nil && h.OnAttention != nil {
		h.OnAttention()
	}
}

// Exit is os.Exit in cells.
func (h *Hooks) Exit(code int) {
	if h != nil && h.OnExit != nil {
		h.OnExit(code)
	}
	os.Exit(code)
}

// Deep ends the cell for runaway recursion in function name.
func (h *Hooks) Deep(name string) {
	if h != nil && h.OnRecursion != nil {
		h.OnRecursion(name)
	}
	panic(&RecursionError{Func: name})
}

// Sleep is time.Sleep in cells.
func (h *Hooks) Sleep(d time.Duration) {
	if h != nil && h.OnSleep != nil {
		h.OnSleep(d)
		return
	}
	time.Sleep(d)
}

// GoStart begins a goroutine that a compiled cell started (OnGoStart):
// `defer h.GoStart()()` is its first statement.
func (h *Hooks) GoStart() (end func()) {
	if h != nil && h.OnGoStart != nil {
		return h.OnGoStart()
	}
	return func() {}
}

// Recover reports a goroutine's panic: `defer h.Recover()` is the second
// statement of every goroutine a compiled cell starts, so that its panic
// ends neither the goroutine's cell nor the process.
func (h *Hooks) Recover() {
	r := recover()
	if r == nil {
		return
	}
	var pcs [64]uintptr
	n := callers(pcs[:])
	if h != nil && h.OnGoPanic != nil {
		h.OnGoPanic(r, pcs[:n])
		return
	}
	fmt.Fprintf(h.stderr(), "panic in goroutine: %v\n", r)
}

// Print is the print builtin in cells: it writes to the cell's standard
// error, formatting as Go's print does.
func (h *Hooks) Print(args ...any) {
	var b []byte
	for _, a := range args {
		b = rtprint.Append(b, a)
	}
	h.stderr().Write(b)
}

// Println is the println builtin in cells.
func (h *Hooks) Println(args ...any) {
	var b []byte
	for i, a := range args {
		if i > 0 {
			b = append(b, ' ')
		}
		b = rtprint.Append(b, a)
	}
	b = append(b, '\n')
	h.stderr().Write(b)
}

// FmtPrint is fmt.Print in cells: it writes to the cell's standard output.
func (h *Hooks) FmtPrint(a ...any) (int, error) { return fmt.Fprint(h.stdout(), a...) }

// FmtPrintln is fmt.Println in cells.
func (h *Hooks) FmtPrintln(a ...any) (int, error) { return fmt.Fprintln(h.stdout(), a...) }

// FmtPrintf is fmt.Printf in cells.
func (h *Hooks) FmtPrintf(format string, a ...any) (int, error) {
	return fmt.Fprintf(h.stdout(), format, a...)
}

// LogFatal is log.Fatal in cells: log.Print, then the cell ends with exit
// status 1.
func (h *Hooks) LogFatal(v ...any) {
	log.Print(v...)
	h.Exit(1)
}

// LogFatalf is log.Fatalf in cells.
func (h *Hooks) LogFatalf(format string, v ...any) {
	log.Printf(format, v...)
	h.Exit(1)
}

// LogFatalln is log.Fatalln in cells.
func (h *Hooks) LogFatalln(v ...any) {
	log.Println(v...)
	h.Exit(1)
}

// A Cell is what a compiled cell's plugin hands the session when it is
// opened: how to run the cell, its stop flag and hooks, and its symbols.
type Cell struct {
	// Run runs the cell's statements and returns its last value, if it
	// has one.
	Run func() (v any, ok bool)
	// Stop is the cell's stop flag: every loop of the cell's code, and
	// every function of it that may recurse, calls its hooks' Stop when
	// it is non-zero.
	Stop *int32
	// Hooks is where the cell's code finds its session's hooks.
	Hooks **Hooks
	// Symbols are the cell's variables, function slots and types, for the
	// interpreter (yaegi's Exports form: name → value; a variable or slot
	// is addressable).
	Symbols map[string]reflect.Value
	// Inject are variables of the cell that the session sets before Run:
	// pointers to the interpreter's variables and its functions that the
	// cell's code uses.
	Inject map[string]reflect.Value
}

var registry struct {
	sync.Mutex
	last *Cell
}

// Register is called by a compiled cell's package initializer: the cell
// that a plugin holds, for the Opened call that follows plugin.Open.
func Register(c *Cell) {
	registry.Lock()
	registry.last = c
	registry.Unlock()
}

// Opened returns the cell that the last plugin opened registered, and
// forgets it; nil when none did (a plugin opened before holds the same
// packages, whose initializers do not run again).
func Opened() *Cell {
	registry.Lock()
	defer registry.Unlock()
	c := registry.last
	registry.last = nil
	return c
}
