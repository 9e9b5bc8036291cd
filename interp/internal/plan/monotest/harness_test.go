// Package monotest runs the planner's plans of generic code on yaegi, and
// compares what they print with what go run prints for the same
// programs. It is apart from package plan, which must not import yaegi.
package monotest

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"runtime"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib/generic"
	"github.com/traefik/yaegi/stdlib/unsafe"

	"github.com/gotensor/gotensor/interp/internal/cellrt"
	"github.com/gotensor/gotensor/interp/internal/plan"
	"github.com/gotensor/gotensor/interp/internal/stdlib"
)

// session is a notebook session in miniature: a planner and a yaegi
// interpreter that runs its plans the way the executor does.
type session struct {
	t    testing.TB
	plan *plan.Session
	yi   *interp.Interpreter
	out  bytes.Buffer
	n    int
}

// newSession returns a session whose generic code comes from the Go
// toolchain's source, or from yaegi's copies when fallback is set (as
// when there is no toolchain).
func newSession(t testing.TB, fallback bool) *session {
	t.Helper()
	s := &session{t: t}
	rt := &cellrt.Runtime{Stderr: &s.out, Limit: 100000}
	// The tables the kernel gives yaegi: the standard library of the Go
	// that builds it (strings.SplitSeq is there), yaegi's unsafe.
	u := plan.NewUniverse(stdlib.Symbols(), rt.Exports())
	goroot := runtime.GOROOT()
	if fallback {
		goroot = ""
	}
	u.Source, u.SourceNote = plan.StdSource(goroot, generic.Sources[:])
	ps, err := plan.New(plan.Config{Universe: u, Preimport: []string{"fmt"}})
	if err != nil {
		t.Fatal(err)
	}
	s.plan = ps
	s.yi = interp.New(interp.Options{Stdout: &s.out, Stderr: &s.out, Unrestricted: true})
	for _, x := range []interp.Exports{stdlib.Symbols(), unsafe.Symbols, rt.Exports()} {
		if err := s.yi.Use(x); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.exec(ps.Prelude()); err != nil {
		t.Fatalf("prelude: %v", err)
	}
	if _, err := s.yi.Eval(`import "fmt"`); err != nil {
		t.Fatal(err)
	}
	// The executor sets the recursion limit through its address.
	v, err := s.yi.Eval("&_gtLimit")
	if err != nil {
		t.Fatal(err)
	}
	*v.Interface().(*int) = 100000
	return s
}

// exec runs a plan's steps and returns how many ran.
func (s *session) exec(p *plan.Plan) (ran int, err error) {
	for i, st := range p.Steps {
		if err := s.step(st); err != nil {
			return i, fmt.Errorf("step %d (%s): %v\n%s", i, st.Kind, err, st.Src)
		}
	}
	return len(p.Steps), nil
}

// step compiles and runs one step as the executor does: a file (or an
// import) as it is, a block as the body of its function _ at the top
// level, so that what it defines with := is the session's.
func (s *session) step(st plan.Step) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	src := st.Src
	if st.Kind == plan.StepImport {
		src = "package main\n" + src
	}
	f, err := parser.ParseFile(s.yi.FileSet(), interp.DefaultSourceName, src, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	var n ast.Node = f
	if st.Kind == plan.StepBlock || st.Kind == plan.StepDeclare {
		body := f.Decls[0].(*ast.FuncDecl).Body
		// yaegi looks a file's imports up by the file name of the
		// root's position, which the //line comments change.
		body.Lbrace = f.Package
		n = body
	}
	prog, err := s.yi.CompileAST(n)
	if err != nil || st.Kind == plan.StepDeclare {
		return err
	}
	_, err = s.yi.Execute(prog)
	return err
}

// cell plans and runs one cell, and returns what it printed.
func (s *session) cell(src string) (string, error) {
	s.n++
	p, err := s.plan.Plan(s.n, src)
	if err != nil {
		return "", err
	}
	s.out.Reset()
	ran, err := s.exec(p)
	s.plan.Commit(p, ran)
	if err != nil {
		return s.out.String(), fmt.Errorf("%v\n%s", err, dump(p))
	}
	return s.out.String(), nil
}

func dump(p *plan.Plan) string {
	var b strings.Builder
	for i, st := range p.Steps {
		fmt.Fprintf(&b, "--- step %d: %s\n%s\n", i, st.Kind, st.Src)
	}
	return b.String()
}
