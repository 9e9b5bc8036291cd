package interp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gotensor/gotensor/interp/internal/cellrt"
	"github.com/gotensor/gotensor/interp/internal/cells"
	"github.com/gotensor/gotensor/interp/internal/native"
	"github.com/gotensor/gotensor/interp/internal/plan"
	"github.com/gotensor/gotensor/kernel"
	"github.com/gotensor/gotensor/widgets"
)

// Compiled cells: with Options.Compile, the planner writes a cell that
// declares functions, methods or types, or loops at its top level, as a Go
// package (see the plan package's compiled cells), which this file builds
// with the Go toolchain into a plugin (package cells), opens and runs: the
// cell's functions and loops run as compiled Go. What stays interpreted,
// and why: glue cells (1+1, library calls, prints), which the interpreter
// starts at once where a compile costs half a second; cells that use what
// only the interpreter has (a function or type of a cell that ran
// interpreted, a module's package loaded by %go get); every cell while the
// debugger is attached, so that its breakpoints and steps work.

// compiler is a session's side of compiled cells.
type compiler struct {
	// ready is closed once the builder is made (or found unavailable):
	// New does not wait for it, a compiled cell does.
	ready   chan struct{}
	builder *cells.Builder
	err     error // why there is no builder
	noted   bool  // the session said why cells run interpreted

	hooks native.Hooks

	once  sync.Once
	init  func()      // makes the builder; see start
	timer *time.Timer // starts it, if no cell did

	// ctx is cancelled when the session closes: it ends the go commands
	// that the builder runs in the background. preloads counts the
	// goroutines that run them, which close waits for.
	ctx      context.Context
	cancel   context.CancelFunc
	preloads sync.WaitGroup
	closed   bool // under mu

	mu       sync.Mutex
	flags    []*int32        // the stop flags of the cells opened
	imported map[string]bool // compiled cells' tables the interpreter has
	ran      map[string]int  // the cell that ran each package last, by import path

	// cells are the compiled cells that ran, for the debugger (see
	// debugFunctions); debugged is set once their functions are declared
	// in the interpreter for the debugger attached.
	cells    []compiledRun
	debugged bool
}

// compiledRun is a compiled cell that ran: its number and code.
type compiledRun struct {
	n    int
	code string
}

// cellOf returns the number of the cell that last ran the package of fn, a
// function's name as the runtime gives it (gotensor.cells/c1a2b.ꞏf_f), or 0.
func (c *compiler) cellOf(fn string) int {
	path, _, _ := strings.Cut(fn[strings.LastIndex(fn, "/")+1:], ".")
	path = fn[:strings.LastIndex(fn, "/")+1] + path
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ran[path]
}

// startCompiler makes the session's builder in the background: it runs the
// go command, which would slow the kernel's start.
func (s *Session) startCompiler() {
	c := &compiler{ready: make(chan struct{}), imported: map[string]bool{}, ran: map[string]int{}}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	s.comp = c
	s.intr.flags = c.setFlags
	c.hooks = native.Hooks{
		Stdout:      s.cellStdout,
		Stderr:      s.cellStderr,
		OnAttention: s.compiledAttention,
		OnExit:      func(code int) { s.running().exit(code) },
		OnGoPanic:   s.goPanicAt,
		OnGoStart:   s.bind,
		OnRecursion: func(name string) { s.running().stackOverflow(name) },
		OnSleep:     s.intr.sleep,
		Stdin:       s.stdin,
		OnAdopt: func(w any) {
			if wd, ok := w.(widgets.Widget); ok {
				if v := reflect.ValueOf(wd); v.Kind() != reflect.Pointer || !v.IsNil() {
					s.w.mgr.Adopt(wd)
				}
			}
		},
	}
	// The builder runs the go command: it starts when the first cell
	// needs it, or a moment after the session, so as not to slow the
	// kernel's start and its first cells.
	c.timer = time.AfterFunc(compilerDelay, c.start)
	c.init = func() {
		c.mu.Lock()
		if !c.closed {
			c.preloads.Add(1)
			defer c.preloads.Done()
		}
		c.mu.Unlock()
		b, err := cells.New(c.ctx, cells.Config{Log: s.buildLog(), Started: goCommandStarted})
		var paths []string
		for _, p := range s.plan.Imports() {
			if !strings.HasPrefix(p, "gotensor.internal/") {
				paths = append(paths, p)
			}
		}
		c.builder, c.err = b, err
		close(c.ready)
		if err == nil {
			// The go command lists the packages cells link while the
			// first cells run: a cell built before opens without it,
			// and Build waits for it.
			b.Preload(c.ctx, paths...)
		}
	}
}

// goCommandStarted, when not nil, is the builders' cells.Config.Started:
// tests set it to see the go commands that sessions run.
var goCommandStarted func(*exec.Cmd)

// close ends the go commands the builder runs in the background (the
// go list of Preload) and waits for them: a kernel that exits leaves no
// child behind.
func (c *compiler) close() {
	c.timer.Stop()
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.cancel()
	c.preloads.Wait()
}

// compilerDelay is how long after a session starts its builder starts, if
// no cell asked for it before.
const compilerDelay = 500 * time.Millisecond

// start makes the builder, once, in a goroutine of its own.
func (c *compiler) start() { c.once.Do(func() { go c.init() }) }

// buildLog is where the builder logs its timings: the process's standard
// error when $GOTENSOR_CELLS_LOG is set.
func (s *Session) buildLog() io.Writer {
	if v := os.Getenv("GOTENSOR_CELLS_LOG"); v != "" && v != "0" {
		return s.Stderr()
	}
	return nil
}

// compiledAttention is the hook compiled loops call when their stop flag
// (which mirrors the prelude's _gtStop) is set: it runs the work posted to
// the cell (widgets' callbacks, see Post), and ends the cell when it is
// interrupted.
func (s *Session) compiledAttention() {
	if s.attention() {
		panic(cellrt.Interrupted{})
	}
}

// setFlags sets the stop flag of every compiled cell the session opened.
func (c *compiler) setFlags(v int32) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range c.flags {
		atomic.StoreInt32(f, v)
	}
}

// builderFor waits for the session's builder and returns it, or nil when
// cells cannot be compiled here (the session then says why, once).
func (s *Session) builderFor(ctx context.Context) *cells.Builder {
	c := s.comp
	c.start()
	select {
	case <-c.ready:
	case <-ctx.Done():
		return nil
	}
	if c.builder == nil || c.err != nil {
		s.noCompile(c.err)
		return nil
	}
	return c.builder
}

// noCompile turns compiled cells off for the session, saying why once.
func (s *Session) noCompile(err error) {
	s.plan.SetCompile(false)
	if s.comp.noted {
		return
	}
	s.comp.noted = true
	msg := "cells run in the interpreter"
	if err != nil {
		msg += ": " + err.Error()
	}
	var u *cells.Unavailable
	if !errors.As(err, &u) {
		msg += " (cells compile with the Go toolchain that built the kernel: install Go on the kernel's PATH and restart it)"
	}
	fmt.Fprintf(s.stderr, "interp: note: %s\n", msg)
}

// runCompiled builds, opens and runs a compiled cell's plan. A package the
// Go compiler refuses, or a builder that cannot work here, runs the cell in
// the interpreter instead.
func (s *Session) runCompiled(ctx context.Context, code string, p *plan.Plan) (*kernel.Bundle, error) {
	fallback := func(why string) (*kernel.Bundle, error) {
		q, err := s.plan.Interpret(s.cells, code)
		if err != nil {
			return nil, compileError(err)
		}
		if why != "" {
			fmt.Fprintf(s.stderr, "interp: warning: this cell runs in the interpreter (slower than compiled Go): %s\n", why)
		}
		return s.runPlan(ctx, code, q)
	}
	b := s.builderFor(ctx)
	if b == nil {
		if ctx.Err() != nil {
			return nil, interruptedError()
		}
		return fallback("")
	}
	cp := p.Compiled
	path, so, err := b.Build(ctx, cp.Source, cp.Imports)
	if err != nil {
		if ctx.Err() != nil {
			return nil, interruptedError()
		}
		var ce *cells.CompileError
		if errors.As(err, &ce) {
			return fallback("the Go compiler refused its compiled form (please report it): " + firstLines(ce.Output, 3))
		}
		var u *cells.Unavailable
		if errors.As(err, &u) {
			s.noCompile(err)
			return fallback("")
		}
		return fallback(err.Error())
	}
	cell, err := b.Open(path, so)
	if err != nil {
		var u *cells.Unavailable
		if errors.As(err, &u) {
			s.noCompile(err)
			return fallback("")
		}
		return fallback(err.Error())
	}
	cp.Path = path
	*cell.Hooks = &s.comp.hooks
	s.comp.mu.Lock()
	if s.comp.ran[path] == 0 {
		s.comp.flags = append(s.comp.flags, cell.Stop)
	}
	s.comp.ran[path] = s.cells
	s.comp.cells = append(s.comp.cells, compiledRun{s.cells, code})
	s.comp.mu.Unlock()
	atomic.StoreInt32(cell.Stop, s.intr.bits.Load())
	for name, expr := range cp.Inject {
		v, err := s.yi.Eval(expr)
		if err == nil {
			err = inject(cell.Inject[name], v)
		}
		if err != nil {
			return nil, &kernel.Error{Name: "InternalError", Value: fmt.Sprintf("the compiled cell cannot reach the interpreter's %s: %v; please report it", strings.TrimPrefix(expr, "&"), err)}
		}
	}
	for _, w := range p.Warnings {
		if name, ok := strings.CutPrefix(w, "type "); ok {
			name, _, _ = strings.Cut(name, " ")
			if cp.Redefined[name] == path {
				continue // the same cell again: the same type
			}
		}
		fmt.Fprintf(s.stderr, "interp: warning: %s\n", w)
	}
	s.dbg.recordCell(s.cells, code)
	c := &cellRun{s: s, p: p, ctx: ctx, ended: make(chan struct{})}
	res, err := c.run(ctx, func() (*kernel.Bundle, error) { return s.runCell(cell) })
	s.plan.Commit(p, 1)
	s.importCompiled(cell, path)
	for _, st := range cp.Steps {
		// The cell's imports, for later interpreted cells.
		if prog, err := s.compileStep(st); err == nil {
			s.exec(prog, false)
		}
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// runCell runs a compiled cell's statements in the cell's goroutine and
// returns the bundle of its last value, if any; it turns a panic into a
// *kernel.Error with the cell's lines.
func (s *Session) runCell(cell *native.Cell) (res *kernel.Bundle, err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if isInterrupt(r) || s.intr.interrupted() {
			err = interruptedError()
			return
		}
		var pcs [64]uintptr
		n := runtime.Callers(3, pcs[:])
		err = s.compiledPanic(r, pcs[:n])
	}()
	if v, ok := cell.Run(); ok {
		b := render(cellrt.Value{V: v})
		res = &b
	}
	return res, nil
}

// importCompiled gives the interpreter the table of a compiled cell, under
// the name the planner spells it with in interpreted cells.
func (s *Session) importCompiled(cell *native.Cell, path string) {
	c := s.comp
	c.mu.Lock()
	done := c.imported[path]
	c.imported[path] = true
	c.mu.Unlock()
	if done {
		return
	}
	name, ok := s.plan.CompiledImports()[path]
	if !ok {
		return
	}
	if err := s.yi.Use(map[string]map[string]reflect.Value{path + "/cell": cell.Symbols}); err != nil {
		fmt.Fprintf(s.stderr, "interp: warning: the interpreter cannot see the compiled cell's names: %v\n", err)
		return
	}
	if _, err := s.yi.Eval(fmt.Sprintf("import %s %q", name, path)); err != nil {
		fmt.Fprintf(s.stderr, "interp: warning: the interpreter cannot see the compiled cell's names: %v\n", err)
	}
}

// compiledPanic is the *Error of a panic in compiled cell code: its value,
// and the frames of compiled cells, innermost first, in the cells' lines.
func (s *Session) compiledPanic(r any, pcs []uintptr) *kernel.Error {
	e := &kernel.Error{Name: "panic", Value: fmt.Sprint(r)}
	if err, ok := r.(error); ok {
		e.Value = err.Error()
		if _, isRuntime := r.(runtime.Error); !isRuntime {
			e.Name = fmt.Sprintf("%T", r)
		}
	}
	e.Traceback = append([]string{e.Name + ": " + e.Value}, s.compiledFrames(pcs)...)
	return e
}

// compiledFrames returns the frames of pcs that are compiled cells' code,
// in the cells' terms: "  at cell line 3 in f".
func (s *Session) compiledFrames(pcs []uintptr) []string {
	var out []string
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		if f.File == plan.CompiledFile {
			at := fmt.Sprintf("  at cell line %d", f.Line)
			if cell := s.comp.cellOf(f.Function); cell != s.cells && cell > 0 {
				at = fmt.Sprintf("  at cell #%d line %d", cell%plan.CellsWrap, f.Line)
			}
			if fn := cellFuncName(f.Function); fn != "" {
				at += " in " + fn
			}
			if len(out) == 0 || out[len(out)-1] != at {
				out = append(out, at)
			}
			if len(out) == maxFrames {
				break
			}
		}
		if !more {
			break
		}
	}
	return out
}

// cellFuncName turns the name of a compiled cell's function as the
// runtime gives it (gotensor.cells/c1a2b.ꞏf_total.func1) into the
// cell's (total.func1); "" for the cell's statements.
func cellFuncName(fn string) string {
	if i := strings.LastIndex(fn, "/"); i >= 0 {
		fn = fn[i+1:]
	}
	if _, rest, ok := strings.Cut(fn, "."); ok {
		fn = rest
	}
	if strings.HasPrefix(fn, "ꞏrun") || strings.HasPrefix(fn, "ꞏpre") {
		return ""
	}
	for _, p := range []string{"ꞏf_", "Gꞏ", "ꞏinit"} {
		fn = strings.TrimPrefix(fn, p)
	}
	return strings.ReplaceAll(fn, "Mꞏ", "")
}

// goPanicAt reports the panic of a goroutine that a compiled cell started.
func (s *Session) goPanicAt(r any, pcs []uintptr) {
	if isInterrupt(r) {
		return
	}
	e := s.compiledPanic(r, pcs)
	msg := "panic in goroutine: " + e.Name + ": " + e.Value + "\n"
	for _, l := range e.Traceback[1:] {
		msg += l + "\n"
	}
	io.WriteString(s.cellStderr, msg)
}

// stackOverflow ends the cell for runaway recursion in compiled code, and
// the calling goroutine with runtime.Goexit (see run).
func (c *cellRun) stackOverflow(name string) {
	msg := fmt.Sprintf("runaway recursion: %s made its goroutine's stack deeper than %d MB (Go ends a program at 1 GB)", name, native.MaxStack>>20)
	c.finish(&kernel.Error{Name: "RecursionError", Value: msg, Traceback: []string{"RecursionError: " + msg}})
	runtime.Goexit()
}

// firstLines returns the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "... ("+strconv.Itoa(len(lines)-n)+" more lines)")
	}
	return strings.Join(lines, "\n")
}

// WarmCompiledCells compiles, once per machine and toolchain, what compiled
// cells link (the standard library and gotensor's packages compiled for
// plugins, into the go build cache), so that the first compiled cell of a
// session does not wait for it. It returns an *Unavailable-style error
// when cells cannot be compiled here, saying why.
func WarmCompiledCells(ctx context.Context) error {
	b, err := cells.New(ctx, cells.Config{})
	if err != nil {
		return err
	}
	return b.Preload(ctx, DefaultPreimport...)
}

// debugFunctions declares the functions of the compiled cells again in the
// interpreter, once after a debugger attaches, at their cells' lines: the
// interpreted cells that run while it is attached call them there, so
// that breakpoints in them stop and Step In enters them. Compiled code
// keeps calling the compiled ones; methods stay compiled. A function the
// interpreter cannot run (one that uses an unexported field of a compiled
// type, say) stays compiled, with a warning.
func (s *Session) debugFunctions() {
	c := s.comp
	if c == nil {
		return
	}
	c.mu.Lock()
	if c.debugged {
		c.mu.Unlock()
		return
	}
	c.debugged = true
	runs := append([]compiledRun(nil), c.cells...)
	c.mu.Unlock()
	latest := map[string]compiledRun{} // the last cell that declared each
	for _, r := range runs {
		for name := range plan.FunctionSources(r.code) {
			latest[name] = r
		}
	}
	names := make([]string, 0, len(latest))
	for n := range latest {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		r := latest[name]
		if err := s.interpretFunction(r, plan.FunctionSources(r.code)[name]); err != nil {
			fmt.Fprintf(s.stderr, "interp: warning: the debugger cannot stop in %s, which runs compiled: %v\n", name, err)
		}
	}
}

// interpretFunction declares a compiled cell's function again in the
// interpreter, from src, planned as cell r.n (see debugFunctions).
func (s *Session) interpretFunction(r compiledRun, src string) error {
	p, err := s.plan.Debug(r.n, src)
	if err != nil {
		return err
	}
	ran := 0
	defer func() { s.plan.Commit(p, ran) }()
	for _, st := range p.Steps {
		prog, err := s.compileStep(st)
		if err != nil {
			return err
		}
		ran++
		if st.Kind == plan.StepDeclare {
			continue
		}
		if err := s.runStep(r.n, st, prog, p.Debug); err != nil {
			return err
		}
	}
	return nil
}

// inject sets slot, a compiled cell's pointer to an interpreter's variable,
// to ptr, the interpreter's pointer to it.
//
// The two pointer types can be equal without being the same reflect type: a
// type the kernel binary never spells (a **widgets.FloatProgress) exists
// once in the cell's plugin and once more where reflect makes it for the
// interpreter. sameType says when they describe the same Go type, and then
// the pointer is stored as it is.
func inject(slot, ptr reflect.Value) error {
	want := slot.Type()
	if ptr.Type() == want {
		slot.Set(ptr)
		return nil
	}
	if ptr.Kind() != reflect.Pointer || !sameType(ptr.Type(), want) || !slot.CanAddr() {
		return fmt.Errorf("it is a %s, the cell's code wants a %s", ptr.Type(), want)
	}
	*(*unsafe.Pointer)(slot.Addr().UnsafePointer()) = ptr.UnsafePointer()
	return nil
}

// sameType reports whether a and b are the same Go type, possibly two
// copies of its reflect type (one in the kernel binary, one in a cell's
// plugin): the same named type of the same package, or the same kind of
// composite of such types.
func sameType(a, b reflect.Type) bool {
	if a == b {
		return true
	}
	if a.Kind() != b.Kind() || a.String() != b.String() || a.Size() != b.Size() {
		return false
	}
	if a.Name() != "" || b.Name() != "" {
		return a.Name() == b.Name() && a.PkgPath() == b.PkgPath()
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
		return sameType(a.Elem(), b.Elem())
	case reflect.Map:
		return sameType(a.Key(), b.Key()) && sameType(a.Elem(), b.Elem())
	}
	return false
}
