package interp

import (
	"maps"
	"reflect"
	"slices"
	"sync"

	yaegi "github.com/traefik/yaegi/interp"

	"github.com/gotensor/gotensor/kernel"
)

// The Jupyter debugger's language side: the kernel's DebugAdapter answers
// the protocol's plumbing (the envelope, cells' source paths, dumpCell,
// debugInfo, the breakpoints' bookkeeping) and hands the Debug Adapter
// Protocol's requests to the handlers of Session.DebugHandlers, which run
// on yaegi's debugger (Interpreter.Debug over each compiled step).
//
// JupyterLab names a cell's source itself (kernel.DebugAdapter.SourcePath
// computes the same name). The planner's //line comments number a cell's
// lines in generated code as plan.Line(cell, line), so a breakpoint on
// line l of the source path of cell n is a line breakpoint on
// plan.Line(n, l), and a stopped frame's position maps back through
// plan.Position to the cell and its path.
//
// One concern a file: this one holds the debugger, its table of handlers
// and attaching and detaching; debug_cells.go the cells and steps that
// ran and their paths; debug_breakpoints.go breakpoints on lines and on
// panics; debug_run.go running a step under yaegi's debugger and its
// events; debug_step.go threads, stepping, continuing and pausing;
// debug_frames.go stack frames; debug_vars.go scopes, variables and
// evaluate; debug_rich.go richInspectVariables.
//
// While no front end is attached (between initialize and disconnect) cells
// run as they do without the debugger: Session.exec checks one atomic flag.
//
// yaegi v0.16.1's debugger needs three things it does not export, done
// here through reflection on its fields, each a no-op when the fields
// differ (the tests in debug_test.go then fail): breakpoints on every node
// of a line (markLines), one state for the cell's goroutine across the
// debuggers of a cell's steps (shareMain), and waiting for a debugger to
// let go of the interpreter before the next step's starts
// (waitDebuggerGone).

// debugger is a session's side of the debug protocol.
type debugger struct {
	s *Session

	mu         sync.Mutex
	a          *kernel.DebugAdapter // the front end's; nil before its first request
	exceptions bool                 // stop on panics
	cells      []recordedCell       // the Go cells run, in order
	paths      map[int]string       // cell number → source path (from codes, lazily)
	ran        []recordedStep       // the steps that ran, in order
	armed      map[int]bool         // cells whose steps may hold breakpoints
	// binds maps a function a cell declared to the planner's name of its
	// body (f → _gtf3_f), from the steps that bind them; rebind is set
	// when cells bound functions without the debugger (see rebindFuncs).
	binds  map[string]string
	rebind bool
	mainG  reflect.Value // the cell goroutine's state in yaegi's debugger (see shareMain)

	run    *debugRun          // the step running under yaegi's debugger
	stops  map[int]*debugStop // goroutine → how it is stopped
	steps  map[int]*stepping  // goroutine → the step it is taking
	frames map[int]*debugFrame
	refs   map[int]func() []dapVariable // variablesReference → the variables
	nextID int
}

func newDebugger(s *Session) *debugger {
	return &debugger{
		s:      s,
		paths:  map[int]string{},
		armed:  map[int]bool{},
		binds:  map[string]string{},
		stops:  map[int]*debugStop{},
		steps:  map[int]*stepping{},
		frames: map[int]*debugFrame{},
		refs:   map[int]func() []dapVariable{},
	}
}

// DebugHandlers returns the session's handlers of the Debug Adapter
// Protocol's requests, for the kernel's DebugAdapter a (see
// kernel.Debugger): through a they send events and name cells' sources.
func (s *Session) DebugHandlers(a *kernel.DebugAdapter) map[string]kernel.DebugHandler {
	d := s.dbg
	d.mu.Lock()
	d.a = a
	d.mu.Unlock()
	return map[string]kernel.DebugHandler{
		"initialize":              d.initialize,
		"attach":                  d.attach,
		"disconnect":              d.disconnect,
		"debugInfo":               d.debugInfo,
		"source":                  d.source,
		"setBreakpoints":          d.setBreakpoints,
		"setExceptionBreakpoints": d.setExceptionBreakpoints,
		"threads":                 d.threads,
		"stackTrace":              d.stackTrace,
		"scopes":                  d.scopes,
		"variables":               d.variables,
		"continue":                d.continueRequest,
		"next":                    d.stepRequest(yaegi.DebugStepOver),
		"stepIn":                  d.stepRequest(yaegi.DebugStepInto),
		"stepOut":                 d.stepRequest(yaegi.DebugStepOut),
		"pause":                   d.pauseRequest,
		"evaluate":                d.evaluate,
		"inspectVariables":        d.inspectVariables,
		"richInspectVariables":    d.richInspect,
	}
}

// emit sends a protocol event, once a front end has made a request.
func (d *debugger) emit(event string, body any) {
	d.mu.Lock()
	a := d.a
	d.mu.Unlock()
	if a != nil {
		a.Emit(event, body)
	}
}

// initialize attaches the front end and answers its capabilities.
func (d *debugger) initialize(map[string]any) (map[string]any, error) {
	d.s.dbgOn.Store(true)
	return map[string]any{
		"supportsConfigurationDoneRequest": true,
		"supportsEvaluateForHovers":        false,
		"supportsConditionalBreakpoints":   false,
		"supportsSetVariable":              false,
		"supportsStepBack":                 false,
		"supportsDelayedStackTraceLoading": false,
		"exceptionBreakpointFilters": []map[string]any{
			{"filter": "panic", "label": "Go panics", "default": false},
		},
	}, nil
}

// attach attaches the front end: the cells' functions are bound again
// under yaegi's debugger before the next step (see rebindFuncs).
func (d *debugger) attach(map[string]any) (map[string]any, error) {
	d.mu.Lock()
	d.rebind = len(d.binds) > 0
	d.mu.Unlock()
	d.s.dbgOn.Store(true)
	return nil, nil
}

// debugInfo adds the stopped threads and what the session renders to
// the kernel's debugInfo.
func (d *debugger) debugInfo(map[string]any) (map[string]any, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return map[string]any{
		"stoppedThreads": append([]int{}, slices.Sorted(maps.Keys(d.stops))...),
		"richRendering":  true,
		"exceptionPaths": []string{"Go panics"},
	}, nil
}

// source gives the cells' language.
func (d *debugger) source(map[string]any) (map[string]any, error) {
	return map[string]any{"mimeType": "text/x-go"}, nil
}

// disconnect ends the debug session: breakpoints go (the kernel has
// dropped them), stopped goroutines go on, and cells run without the
// debugger again.
func (d *debugger) disconnect(map[string]any) (map[string]any, error) {
	d.s.dbgOn.Store(false)
	if c := d.s.comp; c != nil {
		c.mu.Lock()
		c.debugged = false // a next attach declares the functions compiled since
		c.mu.Unlock()
	}
	d.mu.Lock()
	d.exceptions = false
	run := d.run
	d.mu.Unlock()
	if run != nil {
		d.mu.Lock()
		d.applyBreakpoints()
		d.mu.Unlock()
	}
	d.mu.Lock()
	gids := make([]int, 0, len(d.stops))
	for g := range d.stops {
		gids = append(gids, g)
	}
	d.mu.Unlock()
	for _, g := range gids {
		_ = d.resume(g, 0)
	}
	return nil, nil
}
