package interp

import (
	"context"
	"go/token"
	"reflect"
	"unsafe"

	yaegi "github.com/traefik/yaegi/interp"

	"github.com/gotensor/gotensor/interp/internal/plan"
	"github.com/gotensor/gotensor/kernel"
)

// Breakpoints: on the lines of cells, set on the compiled steps that run
// them, and on panics.

// setExceptionBreakpoints turns stopping on panics on or off.
func (d *debugger) setExceptionBreakpoints(args map[string]any) (map[string]any, error) {
	filters, _ := args["filters"].([]any)
	d.mu.Lock()
	d.exceptions = len(filters) > 0
	d.mu.Unlock()
	return map[string]any{"breakpoints": []any{}}, nil
}

// setBreakpoints sets the breakpoints the kernel keeps on the steps of
// the running cell.
func (d *debugger) setBreakpoints(map[string]any) (map[string]any, error) {
	d.mu.Lock()
	if d.run != nil {
		d.applyBreakpoints()
	}
	d.mu.Unlock()
	return nil, nil
}

// applyBreakpoints sets the breakpoints on the steps of the cells they
// name, and clears them from the cells that lost theirs. d.mu is held.
func (d *debugger) applyBreakpoints() {
	fset := d.s.yi.FileSet()
	if d.a == nil {
		return
	}
	for _, c := range d.cells {
		if len(d.a.Breakpoints(d.cellPath(c.n))) > 0 {
			d.armed[c.n] = true
		}
	}
	for n := range d.armed {
		lines := map[int]bool{}
		for _, l := range d.a.Breakpoints(d.cellPath(n)) {
			lines[plan.Line(n, l)] = true
		}
		for _, st := range d.ran {
			if st.n == n {
				markLines(fset, st.prog, lines)
			}
		}
		if len(lines) == 0 {
			delete(d.armed, n)
		}
	}
}

// markLines marks every node of prog on one of lines as a breakpoint, and
// unmarks the others. yaegi's Debugger.SetBreakpoints marks only the first
// node of a line, which the planner's code may never run (the assignment
// of "x = f()" runs as the call's), and readies each node it looks at to
// run, which panics on some that never run; so this walks the nodes
// itself, in yaegi v0.16.1's terms (node.child, node.pos, node.debug and
// nodeDebugData.breakOnLine), and leaves prog as it is when they differ.
func markLines(fset *token.FileSet, prog *yaegi.Program, lines map[int]bool) {
	root := programRoot(prog)
	if !root.IsValid() {
		return
	}
	nodeType := root.Type().Elem()
	child, ok1 := nodeType.FieldByName("child")
	pos, ok2 := nodeType.FieldByName("pos")
	dbg, ok3 := nodeType.FieldByName("debug")
	if !ok1 || !ok2 || !ok3 || pos.Type != reflect.TypeOf(token.Pos(0)) || dbg.Type.Kind() != reflect.Pointer {
		return
	}
	brk, ok := dbg.Type.Elem().FieldByName("breakOnLine")
	if !ok || brk.Type.Kind() != reflect.Bool {
		return
	}
	var walk func(n unsafe.Pointer)
	walk = func(n unsafe.Pointer) {
		p := *(*token.Pos)(unsafe.Add(n, pos.Offset))
		on := p.IsValid() && lines[fset.Position(p).Line]
		dp := (*unsafe.Pointer)(unsafe.Add(n, dbg.Offset))
		if *dp == nil && on {
			*dp = reflect.New(dbg.Type.Elem()).UnsafePointer()
		}
		if *dp != nil {
			*(*bool)(unsafe.Add(*dp, brk.Offset)) = on
		}
		for _, c := range *(*[]unsafe.Pointer)(unsafe.Add(n, child.Offset)) {
			if c != nil {
				walk(c)
			}
		}
	}
	walk(root.UnsafePointer())
}

// stopOnPanic, with the exception breakpoint on, stops the cell's
// goroutine on a panic of the running step until the front end lets it go
// on; the panic then ends the cell as it does without the debugger.
func (d *debugger) stopOnPanic(e *kernel.Error) {
	d.mu.Lock()
	if !d.exceptions {
		d.mu.Unlock()
		return
	}
	st := &debugStop{reason: "exception", panic: e, resume: make(chan struct{})}
	d.stops[1] = st
	d.mu.Unlock()
	d.emit("stopped", map[string]any{"reason": "exception", "threadId": 1, "allThreadsStopped": false, "description": "panic", "text": e.Name + ": " + e.Value})
	ctx := context.Background()
	if c := d.s.cur.Load(); c != nil && c.ctx != nil {
		ctx = c.ctx
	}
	select {
	case <-st.resume:
	case <-ctx.Done():
		d.mu.Lock()
		delete(d.stops, 1)
		d.mu.Unlock()
	}
}
