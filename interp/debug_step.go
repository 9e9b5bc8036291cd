package interp

import (
	"fmt"
	"time"

	yaegi "github.com/traefik/yaegi/interp"

	"github.com/gotensor/gotensor/interp/internal/plan"
	"github.com/gotensor/gotensor/kernel"
)

// Threads and how they stop, step, go on and pause.

// debugStop is a stopped goroutine.
type debugStop struct {
	evt    *yaegi.DebugEvent // nil for a panic
	reason string
	panic  *kernel.Error // the panic that stopped it
	resume chan struct{} // closed to go on after a panic
}

// stepping is a step request under way: yaegi steps by node, the front end
// by line, so the debugger steps again until the line or the frame changes.
type stepping struct {
	mode  yaegi.DebugEventReason
	line  int // the generated line it started on
	depth int
}

// continueRequest lets a stopped thread run on.
func (d *debugger) continueRequest(args map[string]any) (map[string]any, error) {
	return map[string]any{"allThreadsContinued": false}, d.resume(kernel.IntArg(args, "threadId"), 0)
}

// stepRequest returns the handler of a step of mode.
func (d *debugger) stepRequest(mode yaegi.DebugEventReason) kernel.DebugHandler {
	return func(args map[string]any) (map[string]any, error) {
		return nil, d.resume(kernel.IntArg(args, "threadId"), mode)
	}
}

// pauseRequest stops a running thread, or every one for thread 0.
func (d *debugger) pauseRequest(args map[string]any) (map[string]any, error) {
	return nil, d.pause(kernel.IntArg(args, "threadId"))
}

// debugContinue is the step a continue request takes first: off the line
// the goroutine stopped on, whose every node holds the breakpoint, before
// it runs on freely.
const debugContinue = yaegi.DebugEventReason(-1)

// stepDone reports whether a step that started at st ends at line and
// depth: on another line of a cell, or in another frame.
func (d *debugger) stepDone(st *stepping, line, depth int) bool {
	if _, _, ok := plan.Position(line); !ok {
		return false // the planner's code around the cell
	}
	return line != st.line || depth != st.depth
}

// step asks goroutine g, stopped in yaegi's debugger, to step; it waits
// for the goroutine to be parked (yaegi refuses a step while it runs).
func (d *debugger) step(dbg *yaegi.Debugger, g int, mode yaegi.DebugEventReason) {
	for i := 0; i < 2000; i++ {
		if err := dbg.Step(g, mode); err != yaegi.ErrRunning {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// resume lets stopped goroutine g go on: continue for mode 0, else a step.
func (d *debugger) resume(gid int, mode yaegi.DebugEventReason) error {
	d.mu.Lock()
	st, ok := d.stops[gid]
	run := d.run
	if ok {
		delete(d.stops, gid)
		d.frames = map[int]*debugFrame{}
		d.refs = map[int]func() []dapVariable{}
	}
	var line, depth int
	if mode == 0 {
		mode = debugContinue
	}
	if ok && st.evt != nil {
		depth = st.evt.FrameDepth()
		if fr := st.evt.Frames(0, 1); len(fr) > 0 {
			line = fr[0].Position().Line
		}
		d.steps[gid] = &stepping{mode: mode, line: line, depth: depth}
	}
	d.mu.Unlock()
	if !ok {
		return fmt.Errorf("thread %d is not stopped", gid)
	}
	// Before the goroutine goes on: its next stop must not be overtaken.
	d.emit("continued", map[string]any{"threadId": gid, "allThreadsContinued": false})
	switch {
	case st.resume != nil:
		close(st.resume)
	case run == nil:
		return fmt.Errorf("thread %d has ended", gid)
	case mode == debugContinue:
		d.step(run.dbg, gid, yaegi.DebugStepOver)
	default:
		d.step(run.dbg, gid, mode)
	}
	return nil
}

func (d *debugger) pause(g int) error {
	d.mu.Lock()
	run := d.run
	d.mu.Unlock()
	if run == nil {
		return fmt.Errorf("no cell is running")
	}
	if g == 0 {
		for _, gr := range run.dbg.GoRoutines() {
			run.dbg.Interrupt(gr.ID(), yaegi.DebugPause)
		}
		return nil
	}
	if !run.dbg.Interrupt(g, yaegi.DebugPause) {
		return fmt.Errorf("thread %d is not running", g)
	}
	return nil
}

func (d *debugger) threads(map[string]any) (map[string]any, error) {
	return map[string]any{"threads": d.threadList()}, nil
}

// threadList lists the running step's goroutines.
func (d *debugger) threadList() []map[string]any {
	d.mu.Lock()
	run := d.run
	d.mu.Unlock()
	out := []map[string]any{}
	if run == nil {
		return append(out, map[string]any{"id": 1, "name": "goroutine 1 (the cell)"})
	}
	for _, g := range run.dbg.GoRoutines() {
		name := fmt.Sprintf("goroutine %d", g.ID())
		if g.ID() == 1 {
			name += " (the cell)"
		}
		out = append(out, map[string]any{"id": g.ID(), "name": name})
	}
	return out
}
