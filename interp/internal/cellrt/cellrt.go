// Package cellrt is the compiled half of the runtime that planned cells
// call as _gt (the interpreted half is the planner's prelude, see
// plan.Session.Prelude): the interrupt check and the recursion limit, the
// cell's value, the memory check of large makes, fmt for values of types declared in cells, the builtins
// the interpreter lacks or gets wrong (print, println, clear), errors.Is
// and errors.As for errors declared in cells, and the hooks that keep
// os.Exit, log.Fatal and runtime.Goexit from ending the process.
//
// A Runtime belongs to one session: its hooks are how the executor learns
// what a cell does, and the cell's value waits in it for the executor
// (Result, TakeResult). Exports gives its functions to the interpreter and to
// the planner's universe, which must see the same table.
package cellrt

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"sync/atomic"
	"unicode/utf8"
)

// Path is the import path under which generated code imports the runtime
// (plan.DefaultRuntimePath).
const Path = "gotensor.internal/cell"

// Runtime holds one session's hooks. A nil hook does the default that its
// comment gives.
type Runtime struct {
	// Stderr receives what print and println write (os.Stderr if nil).
	Stderr io.Writer

	// Interrupted reports whether the running cell is being interrupted.
	Interrupted func() bool

	// OnAttention is called by Stop and Check, the safe points of a
	// cell: Stop when a loop found the interrupt flag (the prelude's
	// _gtStop) set, Check at every iteration of a loop that cannot read
	// the flag. The flag is set for an interrupt and for work posted to
	// the running cell (a widget's callback): OnAttention runs that work
	// when it is called on the cell's goroutine, clears what it handled
	// and reports whether the cell is interrupted, and Stop and Check
	// end the cell when it is. Compiled loops call Stop or Check the
	// same way. Default: the flag always means an interrupt.
	OnAttention func() (interrupted bool)

	// Limit is the recursion limit the executor set in _gtLimit, for the
	// message of a RecursionError.
	Limit int

	// OnExit ends the cell for os.Exit(code) and log.Fatal (code 1). It
	// must not return. Default: panic with an *ExitError.
	OnExit func(code int)

	// OnGoexit ends the calling goroutine's part in the cell for
	// runtime.Goexit. It must not return. Default: panic with
	// ErrGoexit.
	OnGoexit func()

	// OnGoPanic reports the panic of a goroutine a cell started. Default:
	// write it to Stderr.
	OnGoPanic func(r any)

	// OnGoStart is called first by every goroutine a cell starts, on that
	// goroutine, and the function it returns last: the executor makes the
	// goroutine its session's (its outputs, its interrupt) for its life.
	// Default: nothing.
	OnGoStart func() (end func())

	// OnRecursion ends the cell for a call deeper than Limit. It must not
	// return. Default: panic with the *RecursionError. A panic unwinds
	// yaegi's frames in time quadratic in their number (each frame
	// recovers and panics again, on a stack that is not unwound yet): a
	// few seconds for a thousand frames, minutes for ten thousand. An
	// executor that runs the cell in a goroutine of its own can record the
	// error and call runtime.Goexit instead, which unwinds in linear time.
	OnRecursion func(err *RecursionError)

	tpl    templateTypes // see TemplateType
	warned warned        // see Compiled

	result atomic.Pointer[Value] // see Result and TakeResult
}

// Value is a cell's last value as Result shows it: the value, and what
// the display methods of its type returned when a cell declared them
// (compiled code cannot see them).
type Value struct {
	V        any     // the value, unwrapped (see Unwrap)
	Text     *string // what its fmt methods make of it (see Fmt); nil without
	HTML     string
	Markdown string
	SVG      string
	PNG      []byte
}

// Interrupted is the value Stop panics with: the cell was interrupted.
type Interrupted struct{}

func (Interrupted) Error() string { return "the cell was interrupted" }

// RecursionError is the panic of a call deeper than the recursion limit.
type RecursionError struct {
	Func  string // the function whose call went too deep
	Limit int
}

func (e *RecursionError) Error() string {
	return fmt.Sprintf("runaway recursion: %s was called %d calls deep, the session's limit (raise it if the recursion is meant)", e.Func, e.Limit)
}

// ExitError is the panic of os.Exit or log.Fatal in a cell.
type ExitError struct{ Code int }

func (e *ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// ErrGoexit is the panic of runtime.Goexit in a cell.
var ErrGoexit = errors.New("runtime.Goexit called")

// Exports returns the runtime's functions in the form of yaegi's
// interp.Exports, under Path.
func (rt *Runtime) Exports() map[string]map[string]reflect.Value {
	m := rt.exports()
	addInstances(m[Path+"/cell"])
	rt.addTemplates(m[Path+"/cell"])
	addNest(m[Path+"/cell"])
	return m
}

func (rt *Runtime) exports() map[string]map[string]reflect.Value {
	return map[string]map[string]reflect.Value{Path + "/cell": {
		"Stop":               reflect.ValueOf(rt.Stop),
		"Check":              reflect.ValueOf(rt.Check),
		"Recovered":          reflect.ValueOf(Recovered),
		"ContextKey":         reflect.ValueOf(ContextKey),
		"FmtFields":          reflect.ValueOf(FmtFields),
		"Enter":              reflect.ValueOf(rt.Enter),
		"Result":             reflect.ValueOf(rt.Result),
		"Value":              reflect.ValueOf(rt.Value),
		"Exit":               reflect.ValueOf(rt.Exit),
		"Goexit":             reflect.ValueOf(rt.Goexit),
		"Fatal":              reflect.ValueOf(rt.Fatal),
		"Fatalf":             reflect.ValueOf(rt.Fatalf),
		"GoPanic":            reflect.ValueOf(rt.GoPanic),
		"GoStart":            reflect.ValueOf(rt.GoStart),
		"Print":              reflect.ValueOf(rt.Print),
		"Println":            reflect.ValueOf(rt.Println),
		"Fmt":                reflect.ValueOf(Fmt),
		"FmtAny":             reflect.ValueOf(FmtAny),
		"CellType":           reflect.ValueOf(CellType),
		"Compiled":           reflect.ValueOf(rt.Compiled),
		"CompiledSlice":      reflect.ValueOf(rt.CompiledSlice),
		"NotInterface":       reflect.ValueOf(NotInterface),
		"NotType":            reflect.ValueOf(NotType),
		"InPackage":          reflect.ValueOf(InPackage),
		"TypeName":           reflect.ValueOf(TypeName),
		"CompiledImplements": reflect.ValueOf(CompiledImplements),
		"NotCellInterface":   reflect.ValueOf(NotCellInterface),
		"Describe":           reflect.ValueOf(Describe),
		"ErrorsIs":           reflect.ValueOf(ErrorsIs),
		"ErrorsIsWith":       reflect.ValueOf(ErrorsIsWith),
		"ErrorsUnwrapWith":   reflect.ValueOf(ErrorsUnwrapWith),
		"ErrorsAs":           reflect.ValueOf(ErrorsAs),
		"Identity":           reflect.ValueOf(Identity),
		"Clear":              reflect.ValueOf(Clear),
		"CloneMap":           reflect.ValueOf(CloneMap),
		"DecodeRune":         reflect.ValueOf(utf8.DecodeRuneInString),
		"Make":               reflect.ValueOf(Make),
		"JSONValue":          reflect.ValueOf(JSONValue),
		"XMLNamed":           reflect.ValueOf(XMLNamed),
		"XMLMarshaler":       reflect.ValueOf(XMLMarshaler),
		"XMLText":            reflect.ValueOf(XMLText),
		"XMLAttr":            reflect.ValueOf(XMLAttr),
		"TextValue":          reflect.ValueOf(TextValue),
		"XMLUnmarshaler":     reflect.ValueOf((*XMLUnmarshaler)(nil)),
		"XMLAttrUnmarshaler": reflect.ValueOf((*XMLAttrUnmarshaler)(nil)),
		"TextUnmarshaler":    reflect.ValueOf((*TextUnmarshaler)(nil)),
		"JSONText":           reflect.ValueOf(JSONText),
		"JSONKeyError":       reflect.ValueOf(JSONKeyError),
		"JSONError":          reflect.ValueOf(JSONError),
		"JSONResult":         reflect.ValueOf(JSONResult),
		"NewJSONDecoding":    reflect.ValueOf(NewJSONDecoding),
		"JSONPath":           reflect.ValueOf(JSONPath),
		"JSONPresent":        reflect.ValueOf(JSONPresent),
		"IsZero":             reflect.ValueOf(IsZero),
		"Equal":              reflect.ValueOf(Equal),
		"DeepEqual":          reflect.ValueOf(DeepEqual),
		"Rewrap":             reflect.ValueOf(Rewrap),
		"Named":              reflect.ValueOf(Named),
	}}
}

// Stop is called by a loop that found the interrupt flag set: it runs
// the work posted to the cell (see OnAttention) and returns, or ends the
// cell with an Interrupted panic when the cell is interrupted.
func (rt *Runtime) Stop() {
	if rt.OnAttention != nil && !rt.OnAttention() {
		return
	}
	panic(Interrupted{})
}

// Check is the loop check of code that cannot read the prelude's
// _gtStop: what Stop does, when there is something to do.
func (rt *Runtime) Check() {
	if rt.OnAttention != nil {
		if rt.OnAttention() {
			panic(Interrupted{})
		}
		return
	}
	if rt.Interrupted != nil && rt.Interrupted() {
		rt.Stop()
	}
}

// Enter is called by a function whose call depth passed the limit (or
// when the cell is interrupted, which sets the limit to -1).
func (rt *Runtime) Enter(name string) {
	if rt.Interrupted != nil && rt.Interrupted() {
		rt.Stop()
	}
	err := &RecursionError{Func: name, Limit: rt.Limit}
	if rt.OnRecursion != nil {
		rt.OnRecursion(err)
	}
	panic(err)
}

// Result is how the statement that ends a cell in an expression hands
// over its value, with the display methods of a type declared in a cell
// (text is nil or what Fmt returned). It calls the methods at once, in
// the cell's step (a breakpoint in them stops there, a panic of theirs is
// the step's), and keeps what they return for the executor, which takes
// it with TakeResult once the step has run.
func (rt *Runtime) Result(v any, text any, html, markdown, svg func() string, png func() []byte) {
	r := Value{V: Unwrap(v)}
	if html != nil {
		r.HTML = html()
	}
	if markdown != nil {
		r.Markdown = markdown()
	}
	if svg != nil {
		r.SVG = svg()
	}
	if png != nil {
		r.PNG = png()
	}
	if text != nil {
		t := fmt.Sprintf("%v", text)
		r.Text = &t
	}
	rt.result.Store(&r)
}

// Value is Result for a value whose type has no display methods of a
// cell's: the statement that ends a cell in such an expression hands it
// over with one argument, which the interpreter compiles faster than six.
func (rt *Runtime) Value(v any) { rt.result.Store(&Value{V: Unwrap(v)}) }

// TakeResult returns the value that Result was given since the last
// TakeResult, and forgets it; ok is false when Result was not called.
func (rt *Runtime) TakeResult() (v Value, ok bool) {
	p := rt.result.Swap(nil)
	if p == nil {
		return Value{}, false
	}
	return *p, true
}

// Exit stands for os.Exit in cells.
func (rt *Runtime) Exit(code int) {
	if rt.OnExit != nil {
		rt.OnExit(code)
	}
	panic(&ExitError{Code: code})
}

// Goexit stands for runtime.Goexit in cells.
func (rt *Runtime) Goexit() {
	if rt.OnGoexit != nil {
		rt.OnGoexit()
	}
	panic(ErrGoexit)
}

// Fatal returns log.Fatal or log.Fatalln, given log.Print or log.Println
// (or a Logger's): print, then Exit(1).
func (rt *Runtime) Fatal(print func(...any)) func(...any) {
	return func(v ...any) {
		print(v...)
		rt.Exit(1)
	}
}

// Fatalf returns log.Fatalf, given log.Printf (or a Logger's).
func (rt *Runtime) Fatalf(printf func(string, ...any)) func(string, ...any) {
	return func(format string, v ...any) {
		printf(format, v...)
		rt.Exit(1)
	}
}

// GoStart begins a goroutine that a cell started (OnGoStart), or the one
// that runs a cell (yaegi's debugger runs a step in a goroutine of its
// own); defer the function it returns.
func (rt *Runtime) GoStart() (end func()) {
	if rt.OnGoStart != nil {
		return rt.OnGoStart()
	}
	return func() {}
}

// GoPanic reports the panic of a goroutine a cell started.
func (rt *Runtime) GoPanic(r any) {
	if rt.OnGoPanic != nil {
		rt.OnGoPanic(r)
		return
	}
	fmt.Fprintf(rt.stderr(), "panic in goroutine: %v\n", Unwrap(r))
}

func (rt *Runtime) stderr() io.Writer {
	if rt.Stderr != nil {
		return rt.Stderr
	}
	return stderr
}

// CloneMap is the runtime's part of maps.Clone, which interpreted code
// cannot write: a new map of m's type with m's entries (nil for nil).
func CloneMap(m any) any {
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Map {
		panic(fmt.Sprintf("cellrt.CloneMap: %T is not a map", m))
	}
	if v.IsNil() {
		return m
	}
	out := reflect.MakeMapWithSize(v.Type(), v.Len())
	for it := v.MapRange(); it.Next(); {
		out.SetMapIndex(it.Key(), it.Value())
	}
	return out.Interface()
}

// Clear is the clear builtin for maps and slices.
func Clear(x any) {
	v := reflect.ValueOf(Unwrap(x))
	switch v.Kind() {
	case reflect.Map, reflect.Slice:
		v.Clear()
	default:
		panic(fmt.Sprintf("clear: argument must be a map or a slice, not %T", x))
	}
}

// Unwrap returns the value of the interpreter's wrapper of a value (yaegi
// hands compiled code a value of a type with methods as a struct whose
// first field, IValue, holds it), or x itself.
func Unwrap(x any) any {
	v := reflect.ValueOf(x)
	if isWrapper(v) {
		return v.Field(0).Interface()
	}
	return x
}
