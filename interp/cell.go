package interp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	yaegi "github.com/traefik/yaegi/interp"

	"github.com/gotensor/gotensor/internal/goroutine"
	"github.com/gotensor/gotensor/interp/internal/cellrt"
	"github.com/gotensor/gotensor/interp/internal/plan"
	"github.com/gotensor/gotensor/kernel"
)

// runGo runs a cell of Go: the planner type-checks it against the session
// and returns its steps (nothing runs when it does not compile), the
// executor runs them, and the planner records what the steps that ran
// declared.
func (s *Session) runGo(ctx context.Context, code string) (*kernel.Bundle, error) {
	if err := s.fetchImports(ctx, code); err != nil {
		return nil, err
	}
	var p *plan.Plan
	var err error
	if s.dbgOn.Load() {
		// The debugger's breakpoints and steps are the interpreter's.
		s.debugFunctions()
		p, err = s.plan.Debug(s.cells, code)
	} else {
		p, err = s.plan.Plan(s.cells, code)
	}
	if err != nil {
		return nil, compileError(err)
	}
	if p.Compiled != nil {
		return s.runCompiled(ctx, code, p)
	}
	return s.runPlan(ctx, code, p)
}

// runPlan runs the interpreter's plan of a cell.
func (s *Session) runPlan(ctx context.Context, code string, p *plan.Plan) (*kernel.Bundle, error) {
	for _, w := range p.Warnings {
		fmt.Fprintf(s.stderr, "interp: warning: %s\n", w)
	}
	s.dbg.recordCell(s.cells, code)
	c := &cellRun{s: s, p: p, ctx: ctx, ended: make(chan struct{})}
	res, err := c.run(ctx, c.steps)
	s.dbg.forgetTransient(s.cells)
	s.plan.Commit(p, int(c.ran.Load()))
	if err != nil {
		return nil, err
	}
	return res, nil
}

// cellRun is one cell being run: its plan, how far it got and how it
// ended.
type cellRun struct {
	s    *Session
	p    *plan.Plan
	ctx  context.Context // cancelled when the cell is interrupted
	goid uint64          // the goroutine that runs the steps
	ran  atomic.Int32    // the steps compiled (and run, but the last)

	mu       sync.Mutex
	exitGoid uint64        // the goroutine that called os.Exit first
	end      *kernel.Error // how a hook ended the cell: os.Exit, runaway recursion
	quiet    bool          // os.Exit(0): the cell ended without an error
	ended    chan struct{} // closed when a hook ends the cell
	closed   bool
}

// hookGrace is how long a cell that a hook ended in another goroutine waits
// for its own goroutine to stop.
const hookGrace = 200 * time.Millisecond

// errGoexit is what the cell's goroutine reports when runtime.Goexit ended
// it.
var errGoexit = errors.New("runtime.Goexit")

// run runs body (the cell's steps) in a goroutine of its own and waits for
// it, for a hook that ends the cell (os.Exit, runaway recursion, in any of
// the cell's goroutines) or for ctx to be cancelled (an interrupt). It
// returns what body returns: the bundle of the cell's last value, if any,
// unless the cell ended otherwise.
//
// The body runs in a goroutine of its own so that the hooks can end it
// the way Go would end the program's: os.Exit blocks the goroutine that
// calls it (deferred calls do not run), runtime.Goexit ends it (deferred
// calls run), and runaway recursion unwinds with runtime.Goexit, in time
// linear in the depth (a panic unwinds yaegi's frames in quadratic time).
func (c *cellRun) run(ctx context.Context, body func() (*kernel.Bundle, error)) (*kernel.Bundle, error) {
	s := c.s
	s.cur.Store(c)
	defer s.cur.Store(nil)
	type ended struct {
		res *kernel.Bundle
		err error
	}
	done := make(chan ended, 1)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		defer s.bind()()
		id := goroutine.ID()
		c.mu.Lock()
		c.goid = id
		c.mu.Unlock()
		completed := false
		defer func() {
			if !completed {
				done <- ended{err: errGoexit}
			}
		}()
		res, err := body()
		completed = true
		done <- ended{res, err}
	}()
	grace := s.opts.InterruptGrace
	if grace == 0 {
		grace = 2 * time.Second
	}
	// stop asks the cell's goroutines to stop and waits for the one that
	// runs the steps, at most grace; one blocked in compiled code (a
	// channel, a lock) is left running, still asked to stop.
	stop := func() bool {
		s.intr.interrupt()
		select {
		case <-finished:
			return true
		case <-time.After(grace):
			s.abandoned = finished
			fmt.Fprintln(s.stderr, "interp: the cell is blocked in compiled code and was left running; it stops at its next loop iteration or function call")
			return false
		}
	}
	select {
	case e := <-done:
		return c.result(e.res, e.err)
	case <-c.ended:
		if !c.blockedInExit() {
			// os.Exit or runaway recursion in another goroutine: the
			// program would end, so the cell's goroutine gets a moment
			// to stop, not the interrupt's grace.
			grace = min(grace, hookGrace)
			stop()
		}
		return nil, c.outcome(nil)
	case <-ctx.Done():
		if stop() {
			if e := <-done; c.hookEnded() {
				return c.result(e.res, e.err)
			}
		}
		return nil, interruptedError()
	}
}

// result returns the cell's value and error, given what its body
// returned: the value only when the cell did not end in an error.
func (c *cellRun) result(res *kernel.Bundle, err error) (*kernel.Bundle, error) {
	if err := c.outcome(err); err != nil {
		return nil, err
	}
	return res, nil
}

// steps compiles and runs the plan's steps in order, each compiled once,
// and returns the bundle of the cell's last value, which the step that
// ends in it hands over (cellrt.Runtime.Result), if any.
func (c *cellRun) steps() (*kernel.Bundle, error) {
	s := c.s
	s.rt.TakeResult() // nothing of an earlier cell's
	var res *kernel.Bundle
	for i, st := range c.p.Steps {
		prog, err := s.compileStep(st)
		if err != nil {
			return nil, err
		}
		c.ran.Store(int32(i + 1))
		if st.Kind == plan.StepDeclare {
			continue // compiled for its declarations; nothing runs
		}
		if err := s.runStep(s.cells, st, prog, c.p.Debug); err != nil {
			return nil, err
		}
		if v, ok := s.rt.TakeResult(); ok {
			if res, err = s.renderResult(v); err != nil {
				return nil, err
			}
		}
	}
	return res, nil
}

// renderResult renders a cell's last value; a panic of the display
// package's ends the cell as a panic of the cell does.
func (s *Session) renderResult(v cellrt.Value) (res *kernel.Bundle, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = s.recoveredError(r)
		}
	}()
	b := render(v)
	return &b, nil
}

// outcome returns the cell's error: the one a hook ended it with, else
// what its steps returned.
func (c *cellRun) outcome(err error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.end != nil:
		return c.end
	case c.quiet:
		return nil
	case err == errGoexit:
		msg := "runtime.Goexit ended the cell's goroutine"
		return &kernel.Error{Name: "Goexit", Value: msg, Traceback: []string{"Goexit: " + msg}}
	}
	return err
}

// hookEnded reports whether a hook ended the cell.
func (c *cellRun) hookEnded() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// finish ends the cell with e (nil: quietly), unless a hook ended it
// already; it reports whether e is the cell's end.
func (c *cellRun) finish(e *kernel.Error) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	c.closed = true
	c.end, c.quiet = e, e == nil
	close(c.ended)
	return true
}

// blockedInExit reports whether the cell's goroutine is the one os.Exit
// blocked.
func (c *cellRun) blockedInExit() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.exitGoid != 0 && c.exitGoid == c.goid
}

// exit is os.Exit(code) (and log.Fatal's, code 1) in any goroutine of the
// cell: the cell ends with "exit status code" as go run reports it (code 0
// ends it without an error), and the calling goroutine blocks for good, so
// that no deferred call runs and no statement after it, as in Go.
func (c *cellRun) exit(code int) {
	var e *kernel.Error
	if code != 0 {
		msg := "exit status " + strconv.Itoa(code)
		e = &kernel.Error{Name: "Exit", Value: msg, Traceback: []string{msg}}
	}
	c.mu.Lock()
	if c.exitGoid == 0 {
		c.exitGoid = goroutine.ID()
	}
	c.mu.Unlock()
	c.finish(e)
	select {}
}

// recursion ends the cell for a call deeper than the session's limit, and
// the calling goroutine with runtime.Goexit (see run).
func (c *cellRun) recursion(err *cellrt.RecursionError) {
	msg := fmt.Sprintf("runaway recursion: %s went deeper than %d nested calls, the session's limit (%%maxdepth N changes it)", err.Func, err.Limit)
	c.finish(&kernel.Error{Name: "RecursionError", Value: msg, Traceback: []string{"RecursionError: " + msg}})
	runtime.Goexit()
}

// compileStep compiles one step of a plan: a file of declarations (or an
// import) as it is, a block as the body of its function _, at the top
// level, so that what it defines with := is the session's.
func (s *Session) compileStep(st plan.Step) (prog *yaegi.Program, err error) {
	src := st.Src
	if st.Kind == plan.StepImport {
		src = "package main\n" + src
	}
	f, err := parser.ParseFile(s.yi.FileSet(), yaegi.DefaultSourceName, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, s.interpError(err)
	}
	var n ast.Node = f
	switch st.Kind {
	case plan.StepBlock, plan.StepDeclare:
		body := f.Decls[0].(*ast.FuncDecl).Body
		// yaegi looks a file's imports up by the file name of the root's
		// position, which the //line comments change.
		body.Lbrace = f.Package
		n = body
	}
	defer func() {
		if r := recover(); r != nil {
			prog, err = nil, s.interpError(fmt.Errorf("%v", r))
		}
	}()
	prog, err = compile(s.yi, n)
	if err != nil {
		return nil, s.interpError(err)
	}
	return prog, nil
}

// runStep runs st, a step of cell n compiled as prog that is not a
// StepDeclare, and records it for the debugger's breakpoints unless it
// holds none of the cell's code (Step.Internal), which runs without the
// debugger.
func (s *Session) runStep(n int, st plan.Step, prog *yaegi.Program, debug bool) error {
	if st.Internal {
		return s.exec(prog, false)
	}
	s.dbg.recordStep(n, st.Src, prog, st.Transient)
	return s.exec(prog, debug)
}

// exec runs a compiled step and turns a panic into a *kernel.Error. A
// step planned for the debugger (debug, see plan.Session.Debug) runs
// under it while a front end is attached; others run in the calling
// goroutine, which is the session's.
func (s *Session) exec(prog *yaegi.Program, debug bool) error {
	s.traceMu.Lock()
	s.trace = s.trace[:0]
	s.traceMu.Unlock()
	var err error
	if debug && s.dbgOn.Load() {
		_, err = s.dbg.execute(prog)
	} else {
		_, err = s.yi.Execute(prog)
	}
	if err == nil {
		return nil
	}
	if p, ok := err.(yaegi.Panic); ok {
		if isInterrupt(p.Value) || s.intr.interrupted() {
			return interruptedError()
		}
		if s.dbgOn.Load() && bytes.Contains(p.Stack, []byte("(*Debugger).enterCall")) {
			return staleFuncError()
		}
		e := s.panicError(p.Value)
		if s.dbgOn.Load() {
			s.dbg.stopOnPanic(e)
		}
		return e
	}
	return s.interpError(err)
}
