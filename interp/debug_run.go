package interp

import (
	"context"
	"fmt"
	"go/types"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"
	"unsafe"

	yaegi "github.com/traefik/yaegi/interp"

	"github.com/gotensor/gotensor/interp/internal/plan"
	"github.com/gotensor/gotensor/kernel"
)

// Running a step under yaegi's debugger, and the three things yaegi
// v0.16.1 does not export that it needs (see debug.go).

// debugRun is one step running under yaegi's debugger.
type debugRun struct {
	dbg        *yaegi.Debugger
	mainDone   chan struct{} // the step's goroutine has returned
	terminated chan struct{} // yaegi's debugger has ended
}

// rebindFuncs binds the cells' functions to their bodies again, under
// yaegi's debugger. A function value that yaegi made outside its debugger
// cannot run inside it (its frame has no debugging state, and the call
// panics), so the functions that cells bound before a front end attached
// are bound again before the first step that runs under it. Function
// values that cells kept otherwise (closures, methods in interfaces)
// cannot be.
func (d *debugger) rebindFuncs(ctx context.Context) error {
	d.mu.Lock()
	if !d.rebind {
		d.mu.Unlock()
		return nil
	}
	d.rebind = false
	var b strings.Builder
	b.WriteString("package main\nfunc init() {\n")
	users := d.userNames()
	for _, yn := range slices.Sorted(maps.Keys(d.binds)) {
		// Only a name that is still the cell's function: anything else
		// has been declared again since. The binding names it as the
		// interpreter does (see plan.Session.InterpName).
		name, ok := users[yn]
		if !ok {
			name = yn
		}
		if _, ok := d.s.plan.Lookup(name).(*types.Func); ok && d.s.plan.InterpName(name) == yn {
			fmt.Fprintf(&b, "%s = %s\n", yn, d.binds[yn])
		}
	}
	b.WriteString("}\n")
	d.mu.Unlock()
	prog, err := d.s.compileStep(plan.Step{Kind: plan.StepFile, Src: b.String()})
	if err != nil {
		return err
	}
	r := &debugRun{mainDone: make(chan struct{}), terminated: make(chan struct{})}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.dbg = d.s.yi.Debug(ctx, prog, func(e *yaegi.DebugEvent) {
		switch e.Reason() {
		case yaegi.DebugTerminate:
			close(r.terminated)
		case yaegi.DebugExitGoRoutine:
			if e.GoRoutine() == 1 {
				close(r.mainDone)
			}
		}
	}, &yaegi.DebugOptions{GoRoutineStartAt1: true})
	d.shareMain(r.dbg)
	return d.wait(ctx, cancel, r)
}

// wait starts r's goroutine and waits for it to end, and for yaegi's
// debugger to let go of the interpreter.
func (d *debugger) wait(ctx context.Context, cancel func(), r *debugRun) error {
	if err := r.dbg.Continue(1); err != nil {
		return err
	}
	select {
	case <-r.mainDone:
	case <-ctx.Done():
	}
	cancel()
	_, err := r.dbg.Wait()
	// yaegi's debugger lets go of the interpreter after its terminate
	// event; the next step's debugger must not be let go of with it.
	select {
	case <-r.terminated:
		waitDebuggerGone(d.s.yi)
	case <-time.After(100 * time.Millisecond):
		// Goroutines the step started still run under this debugger.
	}
	return err
}

// execute runs a compiled step under yaegi's debugger: Session.exec calls
// it instead of Execute while a front end is attached.
func (d *debugger) execute(prog *yaegi.Program) (reflect.Value, error) {
	ctx := context.Background()
	if c := d.s.cur.Load(); c != nil && c.ctx != nil {
		ctx = c.ctx
	}
	if err := d.rebindFuncs(ctx); err != nil {
		return reflect.Value{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &debugRun{mainDone: make(chan struct{}), terminated: make(chan struct{})}
	// yaegi runs the step in a goroutine that it starts from another of
	// its own: the step binds it to the session first (the planner's run
	// block calls cellrt's GoStart), so the session's publisher and
	// interrupt hook stay the session's.
	r.dbg = d.s.yi.Debug(ctx, prog, func(e *yaegi.DebugEvent) { d.event(r, e) }, &yaegi.DebugOptions{GoRoutineStartAt1: true})
	d.shareMain(r.dbg)
	d.mu.Lock()
	d.run = r
	d.applyBreakpoints()
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		if d.run == r {
			d.run = nil
		}
		// Goroutines still stopped when the step ends (the cell was
		// interrupted) are let go with it.
		for g, st := range d.stops {
			if st.evt != nil {
				delete(d.stops, g)
			}
		}
		clear(d.steps)
		d.mu.Unlock()
	}()
	return reflect.Value{}, d.wait(ctx, cancel, r)
}

// shareMain makes every yaegi debugger of the session use one state for
// the cell's goroutine. yaegi's Interpreter.Debug makes a new one for each
// program, and a frame keeps the state of the debugger that made it: a
// function value made by an earlier step (a cell's function, which the
// cell calls through its variable) would run with the state of a debugger
// that has ended, and neither stop nor step as asked. So the new
// debugger's goroutine 1 becomes the first debugger's, with the new one's
// channel. It works on yaegi v0.16.1's fields (Debugger.gLive,
// debugRoutine, Interpreter.frame.debug.g) and does nothing when they
// differ.
func (d *debugger) shareMain(dbg *yaegi.Debugger) {
	defer func() { recover() }()
	live := settable(reflect.ValueOf(dbg).Elem().FieldByName("gLive"))
	newG := live.MapIndex(reflect.ValueOf(1))
	if !newG.IsValid() || newG.Kind() != reflect.Pointer {
		return
	}
	if !d.mainG.IsValid() {
		d.mainG = newG
		return
	}
	p, n := d.mainG.Elem(), newG.Elem()
	for _, f := range []string{"resume", "mode", "running", "fDepth", "fStep"} {
		settable(p.FieldByName(f)).Set(settable(n.FieldByName(f)))
	}
	live.SetMapIndex(reflect.ValueOf(1), d.mainG)
	root := reflect.ValueOf(d.s.yi).Elem().FieldByName("frame").Elem()
	settable(root.FieldByName("debug").Elem().FieldByName("g")).Set(d.mainG)
}

// settable returns v, an addressable field, as a value that can be set.
func settable(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// waitDebuggerGone waits, at most 100 ms, until yaegi v0.16.1's
// Interpreter.debugger field is nil again: its debugger clears the field
// after the terminate event, in its own goroutine.
func waitDebuggerGone(yi *yaegi.Interpreter) {
	f := reflect.ValueOf(yi).Elem().FieldByName("debugger")
	if !f.IsValid() || f.Kind() != reflect.Pointer {
		time.Sleep(time.Millisecond)
		return
	}
	p := (*unsafe.Pointer)(unsafe.Pointer(f.UnsafeAddr()))
	for i := 0; i < 10000 && *p != nil; i++ {
		time.Sleep(10 * time.Microsecond)
	}
}

// event receives yaegi's debugger events, in the goroutine they concern.
func (d *debugger) event(r *debugRun, e *yaegi.DebugEvent) {
	switch e.Reason() {
	case yaegi.DebugTerminate:
		close(r.terminated)
		return
	case yaegi.DebugEnterGoRoutine:
		if g := e.GoRoutine(); g != 1 {
			d.emit("thread", map[string]any{"reason": "started", "threadId": g})
		}
		return
	case yaegi.DebugExitGoRoutine:
		g := e.GoRoutine()
		if g == 1 {
			close(r.mainDone)
			return
		}
		d.emit("thread", map[string]any{"reason": "exited", "threadId": g})
		return
	}
	g := e.GoRoutine()
	line, depth := 0, e.FrameDepth()
	if fr := e.Frames(0, 1); len(fr) > 0 {
		line = fr[0].Position().Line
	}
	d.mu.Lock()
	st := d.steps[g]
	d.mu.Unlock()
	if !d.s.dbgOn.Load() {
		// The front end has gone: nobody would let the goroutine go on.
		d.mu.Lock()
		delete(d.steps, g)
		d.mu.Unlock()
		go r.dbg.Continue(g)
		return
	}
	if st != nil {
		if !d.stepDone(st, line, depth) {
			mode := st.mode
			if mode != yaegi.DebugStepInto {
				mode = yaegi.DebugStepOver
			}
			go d.step(r.dbg, g, mode)
			return
		}
		if st.mode == debugContinue && e.Reason() != yaegi.DebugBreak {
			// Off the line it stopped on: on to the next breakpoint.
			d.mu.Lock()
			delete(d.steps, g)
			d.mu.Unlock()
			go r.dbg.Continue(g)
			return
		}
	}
	reason := "step"
	switch e.Reason() {
	case yaegi.DebugBreak:
		reason = "breakpoint"
	case yaegi.DebugPause:
		reason = "pause"
	case yaegi.DebugEntry:
		reason = "entry"
	}
	d.mu.Lock()
	delete(d.steps, g)
	d.stops[g] = &debugStop{evt: e, reason: reason}
	d.mu.Unlock()
	d.emit("stopped", map[string]any{"reason": reason, "threadId": g, "allThreadsStopped": false})
}

// staleFuncError is the error of a cell that calls, under the debugger, a
// function value made before the debugger was attached: yaegi's debugger
// fails on it with a nil pointer dereference.
func staleFuncError() *kernel.Error {
	msg := "the cell calls a function value made before the debugger was attached (a closure kept in a variable, or a method held in an interface), which yaegi's debugger cannot run: run the cell that made it again, or turn the debugger off"
	return &kernel.Error{Name: "DebuggerError", Value: msg, Traceback: []string{"DebuggerError: " + msg}}
}
