package interp

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"io"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
)

// cellPos matches a position in a cell as the //line comments give it (see
// cellLine): "_.go:100030002:5" or "100030002:5" is line 2, column 5 of the
// session's third cell.
var cellPos = regexp.MustCompile(`(?:_\.go:)?\b(\d{9,}):(\d+)\b`)

// cellPositions rewrites the positions in msg in the cell's own terms:
// "cell line 2:5" for the running cell, "cell #3 line 2:5" for another.
func (s *Session) cellPositions(msg string) string {
	return cellPos.ReplaceAllStringFunc(msg, func(m string) string {
		g := cellPos.FindStringSubmatch(m)
		l, _ := strconv.Atoi(g[1])
		cell, line := (l-firstLine)/lineBase, (l-firstLine)%lineBase
		if cell == s.cells%cellsWrap {
			return fmt.Sprintf("cell line %d:%s", line, g[2])
		}
		return fmt.Sprintf("cell #%d line %d:%s", cell, line, g[2])
	})
}

// compileError turns a parse or compile error into an *Error named
// "CompileError", one traceback line per error.
func (s *Session) compileError(err error) *Error {
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
	return &Error{Name: "CompileError", Value: strings.Join(lines, "; "), Traceback: lines}
}

// panicError turns a recovered panic value into an *Error: named after the
// value's type for errors ("*tensor.ShapeError"), "panic" otherwise, with
// the interpreted frames the panic went through as its traceback.
func (s *Session) panicError(r any) *Error {
	// yaegi hands over what interpreted code panics with as a reflect.Value.
	for {
		v, ok := r.(reflect.Value)
		if !ok || !v.IsValid() || !v.CanInterface() {
			break
		}
		r = v.Interface()
	}
	e := &Error{Name: "panic", Value: fmt.Sprint(r)}
	if ve, ok := r.(*reflect.ValueError); ok && strings.Contains(ve.Error(), "zero Value") {
		// How a nil pointer dereference in interpreted code surfaces.
		e.Value = "runtime error: invalid memory address or nil pointer dereference (" + ve.Error() + ")"
	} else if err, ok := r.(error); ok {
		e.Value = err.Error()
		if _, isRuntime := r.(runtime.Error); !isRuntime {
			e.Name = fmt.Sprintf("%T", r)
		}
	}
	e.Traceback = append([]string{e.Name + ": " + e.Value}, s.frames()...)
	return e
}

// panicLine matches what yaegi prints for each interpreted frame a panic
// unwinds: "cell3:2:5: panic: main.f(...)".
var panicLine = regexp.MustCompile(`^((?:\S+:)?\d+:\d+): panic: (.*)\(\.\.\.\)\n?$`)

// frames returns the interpreted frames of the last panic, innermost first,
// in the cell's terms.
func (s *Session) frames() []string {
	s.traceMu.Lock()
	defer s.traceMu.Unlock()
	var out []string
	for _, l := range s.trace {
		g := panicLine.FindStringSubmatch(l)
		if g == nil {
			continue
		}
		where := g[1]
		if !cellPos.MatchString(where) && s.stmtPos.IsValid() {
			// The top-level frame: yaegi names the compiled block, which
			// holds the one statement that ran.
			where = fmt.Sprintf("%s:%d:%d", s.stmtPos.Filename, s.stmtPos.Line, s.stmtPos.Column)
		}
		at := "  at " + s.cellPositions(where)
		fn := strings.TrimPrefix(g[2], "main.")
		if fn == "func" || strings.HasPrefix(fn, "func.") {
			// A function literal: perhaps a top-level function made a
			// variable (see runDecls). Otherwise the outermost literal is
			// the one a top-level statement runs in (see runStmt), which
			// is no function of the user's.
			if name, ok := s.funcAt["_.go:"+strings.TrimPrefix(g[1], "_.go:")]; ok {
				fn = name
			} else {
				fn = strings.TrimPrefix(strings.TrimPrefix(fn, "func"), ".")
			}
		}
		if fn != "main" && fn != "" {
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

// undefinedIn returns the first identifier of n that names nothing the
// session or n itself declares, or nil. yaegi reports a statement that
// defines a variable from an undefined name as a "constant definition loop";
// this finds the name to report instead.
func (s *Session) undefinedIn(n ast.Node) *ast.Ident {
	return undefinedIn(n, s.sessionNames())
}

// sessionNames returns the names the session knows: predeclared ones,
// imports, globals, functions and types.
func (s *Session) sessionNames() map[string]bool {
	known := map[string]bool{}
	for _, name := range predeclared {
		known[name] = true
	}
	for _, name := range []string{rtName, stopName, minName, maxName} {
		known[name] = true
	}
	for name := range s.imports {
		known[name] = true
	}
	for name := range s.yaegiGlobals() {
		known[name] = true
	}
	for name := range s.funcs {
		known[name] = true
	}
	for name := range s.types {
		known[name] = true
	}
	return known
}

// knownNames returns the session's names and those n declares.
func (s *Session) knownNames(n ast.Node) map[string]bool {
	known := s.sessionNames()
	declaredIn(n, known)
	return known
}

// declaredIn adds the names that n declares, at any depth, to known.
func declaredIn(n ast.Node, known map[string]bool) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						known[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				known[id.Name] = true
			}
		case *ast.TypeSpec:
			known[n.Name.Name] = true
		case *ast.Field:
			for _, id := range n.Names {
				known[id.Name] = true
			}
		case *ast.FuncDecl:
			known[n.Name.Name] = true
		case *ast.LabeledStmt:
			known[n.Label.Name] = true
		}
		return true
	})
}

// undefinedIn returns the first identifier of n that names nothing in known
// or declared in n, or nil.
func undefinedIn(n ast.Node, names map[string]bool) *ast.Ident {
	known := make(map[string]bool, len(names))
	for k := range names {
		known[k] = true
	}
	declaredIn(n, known)
	var found *ast.Ident
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, visit)
			return false
		case *ast.KeyValueExpr:
			ast.Inspect(n.Value, visit)
			return false
		case *ast.BranchStmt, *ast.LabeledStmt:
			if l, ok := n.(*ast.LabeledStmt); ok {
				ast.Inspect(l.Stmt, visit)
			}
			return false
		case *ast.Ident:
			if !known[n.Name] && n.Name != "_" {
				found = n
			}
		}
		return true
	}
	ast.Inspect(n, visit)
	return found
}
