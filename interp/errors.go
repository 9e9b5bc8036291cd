package interp

import (
	"bytes"
	"errors"
	"fmt"
	"go/scanner"
	"io"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"

	"github.com/gotensor/gotensor/interp/internal/cellrt"
	"github.com/gotensor/gotensor/interp/internal/plan"
	"github.com/gotensor/gotensor/kernel"
)

// compileError turns the planner's errors (a plan.ErrorList: the Go
// compiler's messages at cell positions) into a *kernel.Error named
// "CompileError", one traceback line per error.
func compileError(err error) *kernel.Error {
	var list plan.ErrorList
	if !errors.As(err, &list) {
		return &kernel.Error{Name: "CompileError", Value: err.Error(), Traceback: []string{err.Error()}}
	}
	lines := make([]string, len(list))
	for i, e := range list {
		lines[i] = e.Error()
	}
	return &kernel.Error{Name: "CompileError", Value: strings.Join(lines, "; "), Traceback: lines}
}

// cellPos matches a position in generated code as the //line comments give
// it: "_.go:100030002:5" or "100030002:5" is line 2, column 5 of the
// session's third cell (see plan.Position).
var cellPos = regexp.MustCompile(`(?:_\.go:)?\b(\d{9,}):(\d+)\b`)

// cellPositions rewrites the positions in msg in the cell's own terms:
// "cell line 2:5" for the running cell, "cell #3 line 2:5" for another.
func (s *Session) cellPositions(msg string) string {
	return cellPos.ReplaceAllStringFunc(msg, func(m string) string {
		g := cellPos.FindStringSubmatch(m)
		l, _ := strconv.Atoi(g[1])
		cell, line, ok := plan.Position(l)
		switch {
		case !ok:
			return m
		case cell == s.cells%plan.CellsWrap:
			return fmt.Sprintf("cell line %d:%s", line, g[2])
		}
		return fmt.Sprintf("cell #%d line %d:%s", cell, line, g[2])
	})
}

// interpError is an error of the interpreter on code the planner made: a
// Go construct yaegi cannot compile (the planner refuses those it knows).
func (s *Session) interpError(err error) *kernel.Error {
	var lines []string
	var list scanner.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			lines = append(lines, s.cellPositions(e.Error()))
		}
	} else {
		for _, l := range strings.Split(strings.TrimSpace(err.Error()), "\n") {
			lines = append(lines, s.cellPositions(strings.TrimPrefix(l, "_.go:")))
		}
	}
	lines[0] = "the interpreter cannot run this cell: " + lines[0]
	return &kernel.Error{Name: "CompileError", Value: strings.Join(lines, "; "), Traceback: lines}
}

// recoveredError is the error of a cell that a panic of interpreted code
// called from compiled code ended: an interrupt's, or the panic's.
func (s *Session) recoveredError(r any) *kernel.Error {
	if isInterrupt(r) || s.intr.interrupted() {
		return interruptedError()
	}
	return s.panicError(r)
}

// panicError turns a recovered panic value into a *kernel.Error: named after the
// value's type for errors ("*tensor.ShapeError"), "panic" otherwise, with
// the interpreted frames the panic went through as its traceback.
func (s *Session) panicError(r any) *kernel.Error {
	// yaegi hands over what interpreted code panics with as a reflect.Value.
	for {
		v, ok := r.(reflect.Value)
		if !ok || !v.IsValid() || !v.CanInterface() {
			break
		}
		r = v.Interface()
	}
	r = cellrt.Recovered(r)
	e := &kernel.Error{Name: "panic", Value: fmt.Sprint(r)}
	if err, ok := r.(error); ok {
		e.Value = err.Error()
		if _, isRuntime := r.(runtime.Error); !isRuntime {
			e.Name = fmt.Sprintf("%T", r)
		}
	}
	e.Traceback = append([]string{e.Name + ": " + e.Value}, s.frames()...)
	return e
}

// panicLine matches what yaegi prints for each interpreted frame a panic
// unwinds: "_.go:100030002:5: panic: main._gtf3_f(...)".
var panicLine = regexp.MustCompile(`^((?:\S+:)?\d+:\d+): panic: (.*)\(\.\.\.\)\n?$`)

// bodyName matches the name under which the planner declares a cell's
// function f: _gtf3_f.
var bodyName = regexp.MustCompile(`_gtf\d+_`)

// frames returns the interpreted frames of the last panic, innermost
// first, in the cell's terms: "  at cell line 2:5 in f".
func (s *Session) frames() []string {
	s.traceMu.Lock()
	defer s.traceMu.Unlock()
	var out []string
	for _, l := range s.trace {
		g := panicLine.FindStringSubmatch(l)
		if g == nil {
			continue
		}
		// yaegi gives the position where each function's body starts.
		at := "  at " + s.cellPositions(g[1])
		fn := bodyName.ReplaceAllString(strings.TrimPrefix(g[2], "main."), "")
		fn = strings.ReplaceAll(fn, "_gtmain", "main")
		switch {
		case fn == "init":
			// The function of the planner's that the cell's statements
			// run in: the statement is the one _gtLine names.
			line := *s.intr.line
			if line <= 0 {
				continue
			}
			at = fmt.Sprintf("  at cell line %d", line)
		case !cellPos.MatchString(g[1]):
			continue // the planner's own code around the cell
		case strings.HasPrefix(fn, "init."):
			at += " in " + strings.TrimPrefix(fn, "init.")
		default:
			at += " in " + fn
		}
		if len(out) > 0 && out[len(out)-1] == at {
			continue
		}
		out = append(out, at)
	}
	return out
}

// traceFilter is the interpreter's stderr: it keeps the frame lines yaegi
// prints while a panic unwinds for the traceback, and passes everything
// else on.
type traceFilter struct {
	s *Session
	w io.Writer
}

func (f *traceFilter) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(": panic: ")) && bytes.HasSuffix(p, []byte("(...)\n")) {
		// One call per unwound frame: deep recursion unwinds many, so
		// keep this cheap and keep only the innermost frames.
		f.s.traceMu.Lock()
		if line := *f.s.intr.line; line != f.s.traceLine {
			// A panic of an earlier statement was recovered.
			f.s.trace, f.s.traceLine = f.s.trace[:0], line
		}
		if len(f.s.trace) < maxFrames && panicLine.Match(p) {
			f.s.trace = append(f.s.trace, string(p))
		}
		f.s.traceMu.Unlock()
		return len(p), nil
	}
	return f.w.Write(p)
}

// maxFrames is how many interpreted frames a traceback shows.
const maxFrames = 20
