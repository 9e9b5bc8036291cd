package interp

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/gotensor/gotensor/display"
	"github.com/gotensor/gotensor/internal/goroutine"
	"github.com/gotensor/gotensor/interp/internal/plan"
	"github.com/gotensor/gotensor/interp/internal/symbols"
	"github.com/gotensor/gotensor/kernel"
	"github.com/gotensor/gotensor/widgets"
)

// widgetsPath is the widgets package's key in the symbol tables.
const widgetsPath = "github.com/gotensor/gotensor/widgets/widgets"

// sessionWidgets is a session's side of its widgets: the Manager that
// holds them, the work posted to the session's safe point (callbacks of
// the front end's changes), and where comm messages go.
type sessionWidgets struct {
	mgr *widgets.Manager

	postMu sync.Mutex
	posted []func()
	// draining is set while posted work runs, so that a callback's own
	// loops do not run the work posted meanwhile inside it: the drain
	// takes it next.
	draining atomic.Bool
	// inComm is set while a comm message is handled: the work it posts
	// runs once it is handled, with its output and its interrupt.
	inComm atomic.Bool

	lastMu sync.Mutex
	last   kernel.CommOutput // the latest request's output: comm messages go there between cells
}

// widgetHost is the session as its widget Manager's Host.
type widgetHost struct{ s *Session }

func (h widgetHost) Send(m widgets.Message)               { h.s.sendComm(m) }
func (h widgetHost) Post(f func())                        { h.s.post(f) }
func (h widgetHost) Capture(to widgets.Outputs, f func()) { h.s.captureInto(to, f) }

// initWidgets gives the session its widget Manager and makes the
// runtime's safe points run the work posted to the cell.
func (s *Session) initWidgets() {
	s.w.mgr = widgets.NewManager(widgetHost{s})
	s.rt.OnAttention = s.attention
}

// Post runs f at the session's next safe point, on the goroutine that may
// run a cell's code without racing with it:
//
//   - while a cell runs, on the cell's goroutine at its next safe point:
//     the next iteration of any loop of the cell (every loop checks the
//     interrupt flag, which Post sets), or the end of the cell when it
//     reaches no loop (a cell blocked in one long tensor operation or in
//     time.Sleep runs f when the operation returns and the loop goes on);
//   - between cells, at once, in the caller, before any cell starts;
//     when a cell starts first, before the cell's code.
//
// Posted functions run in the order they were posted. A panic in one is
// printed to the cell's standard error, and the rest run; an interrupt
// ends the cell (or, between cells, drops what was posted). The kernel
// posts the callbacks of widgets (OnChange, OnClick, Interact's function)
// this way when the front end changes a value or clicks.
func (s *Session) Post(f func()) {
	s.post(f)
}

// post queues f and asks the running cell for attention; between cells
// it runs the queue at once, unless a comm message is being handled,
// which runs it when it is done.
func (s *Session) post(f func()) {
	s.w.postMu.Lock()
	s.w.posted = append(s.w.posted, f)
	s.w.postMu.Unlock()
	s.intr.attend()
	if !s.w.inComm.Load() {
		s.runIdle(context.Background(), nil)
	}
}

// pending reports whether work is posted.
func (s *Session) pending() bool {
	s.w.postMu.Lock()
	defer s.w.postMu.Unlock()
	return len(s.w.posted) > 0
}

// attention is the runtime's OnAttention: called at a safe point of the
// running cell when _gtStop is set. On the cell's goroutine it runs the
// posted work; it reports whether the cell is interrupted.
func (s *Session) attention() bool {
	if s.intr.interrupted() {
		return true
	}
	if !s.intr.attention() || s.w.draining.Load() {
		return false
	}
	c := s.cur.Load()
	if c == nil {
		return false
	}
	c.mu.Lock()
	cell := c.goid
	c.mu.Unlock()
	if goroutine.ID() != cell {
		return false // another goroutine of the cell: the cell's own runs the work
	}
	s.drain(false)
	return s.intr.interrupted()
}

// drain runs the posted work, and what it posts meanwhile, in order, then
// clears the attention request. A panic of one function is printed and
// the others run; an interrupt drops what is left and, on the cell's
// goroutine (idle false), goes on ending the cell.
func (s *Session) drain(idle bool) {
	s.w.draining.Store(true)
	defer s.w.draining.Store(false)
	for {
		s.w.postMu.Lock()
		if len(s.w.posted) == 0 || s.intr.interrupted() {
			s.w.posted = nil
			s.intr.settle()
			s.w.postMu.Unlock()
			return
		}
		f := s.w.posted[0]
		s.w.posted = s.w.posted[1:]
		s.w.postMu.Unlock()
		s.runPosted(f, idle)
	}
}

// runPosted runs one posted function, printing its panic.
func (s *Session) runPosted(f func(), idle bool) {
	defer s.callbackPanic(!idle)
	f()
}

// callbackPanic, deferred, recovers a callback's panic and prints it to the
// current output's standard error; an interrupt goes on unwinding when
// interrupts is set (the cell ends) and is dropped otherwise.
func (s *Session) callbackPanic(interrupts bool) {
	r := recover()
	if r == nil {
		return
	}
	if isInterrupt(r) {
		if interrupts {
			panic(r)
		}
		return
	}
	fmt.Fprint(s.stderr, s.panicReport("panic in a widget callback", r))
}

// panicReport is the report of a panic that ends no cell (a goroutine's,
// a callback's): what, the error and its traceback.
func (s *Session) panicReport(what string, r any) string {
	e := s.panicError(r)
	msg := what + ": " + e.Name + ": " + e.Value + "\n"
	for _, l := range e.Traceback[1:] {
		msg += l + "\n"
	}
	return msg
}

// runIdle runs the posted work between cells: at once when no cell runs
// (or another drain runs it), with out as the output of what it prints
// and shows (nil: the streams keep it for the next cell) and ctx
// interrupting it.
func (s *Session) runIdle(ctx context.Context, out kernel.Output) {
	for s.pending() {
		if !s.mu.TryLock() {
			return // a cell runs it, at its safe points or its end
		}
		s.drainIdle(ctx, out)
		s.mu.Unlock()
	}
}

// drainIdle is drain between cells, with s.mu held.
func (s *Session) drainIdle(ctx context.Context, out kernel.Output) {
	if s.abandoned == nil {
		s.intr.reset() // an earlier cell's interrupt must not stop callbacks
	}
	defer s.bind()()
	if out != nil {
		s.setOutput(out)
		defer func() {
			s.flushStreams()
			s.setOutput(nil)
		}()
	}
	stop := context.AfterFunc(ctx, s.intr.interrupt)
	defer stop()
	s.drain(true)
	s.w.mgr.Flush()
	if ctx.Err() != nil && s.abandoned == nil {
		s.intr.reset()
	}
}

// cellEnded runs, as a cell ends, the work posted that its loops did not
// run, unless the cell was interrupted, and sends the widgets' pending
// updates.
func (s *Session) cellEnded(ctx context.Context) {
	if s.pending() && ctx.Err() == nil && !s.intr.interrupted() {
		stop := context.AfterFunc(ctx, s.intr.interrupt)
		s.drain(true)
		stop()
	}
	if s.intr.interrupted() {
		s.w.postMu.Lock()
		s.w.posted = nil
		s.intr.settle()
		s.w.postMu.Unlock()
	}
	s.w.mgr.Flush()
}

// sendComm sends one of the widgets' comm messages: through the running
// cell's output, else through the latest request's.
func (s *Session) sendComm(m widgets.Message) {
	out, ok := s.output().(kernel.CommOutput)
	if !ok {
		s.w.lastMu.Lock()
		out = s.w.last
		s.w.lastMu.Unlock()
	}
	if out != nil {
		out.Comm(kernel.CommMessage(m))
	}
}

// noteComm remembers out as where comm messages go between cells.
func (s *Session) noteComm(out kernel.Output) {
	if co, ok := out.(kernel.CommOutput); ok {
		s.w.lastMu.Lock()
		s.w.last = co
		s.w.lastMu.Unlock()
	}
}

// captureInto runs f with what the session prints and shows going to to (an
// Output widget): a panic of f is printed there and ends f only, as
// ipywidgets' Output shows an exception raised in it; an interrupt goes
// on.
func (s *Session) captureInto(to widgets.Outputs, f func()) {
	s.flushStreams()
	prev := s.output()
	o := captured{to}
	s.setOutput(o)
	defer s.bind()()
	defer func() {
		s.flushStreams()
		s.setOutput(prev)
	}()
	defer s.callbackPanic(true)
	f()
}

// captured is an Output widget as the session's Output.
type captured struct{ to widgets.Outputs }

func (c captured) Stream(name, text string) { c.to.Stream(name, text) }
func (c captured) Display(b kernel.Bundle, id string, update bool) {
	c.to.Display(display.Bundle(b), id, update)
}
func (c captured) ClearOutput(wait bool) { c.to.ClearOutput(wait) }
func (c captured) Input(string, bool) (string, error) {
	return "", errors.New("interp: input is not available inside an Output widget")
}

// CommOpen handles a front end's comm_open and reports whether its target
// is one of the session's (jupyter.widget.control). It does not wait for
// a running cell.
func (s *Session) CommOpen(ctx context.Context, m kernel.CommMessage, out kernel.CommOutput) bool {
	s.noteComm(out)
	return s.w.mgr.Open(widgets.Message(m), s.replier(out))
}

// CommMsg handles a front end's comm_msg and reports whether the comm is
// open. It does not wait for a running cell: a widget's new value is read
// by the cell at once, and the callbacks it triggers are posted (see
// Post); between cells they run before CommMsg returns, printing to out,
// and cancelling ctx interrupts them.
func (s *Session) CommMsg(ctx context.Context, m kernel.CommMessage, out kernel.CommOutput) bool {
	s.noteComm(out)
	s.w.inComm.Store(true)
	ok := s.w.mgr.Handle(widgets.Message(m), s.replier(out))
	s.w.inComm.Store(false)
	s.runIdle(ctx, out)
	return ok
}

// CommClose handles a front end's comm_close: the widget is closed.
func (s *Session) CommClose(ctx context.Context, m kernel.CommMessage, out kernel.CommOutput) {
	s.w.mgr.Closed(m.ID)
}

// CommInfo returns the session's open comms, comm id → target name, those
// of target only when it is not empty.
func (s *Session) CommInfo(target string) map[string]string { return s.w.mgr.Comms(target) }

// WidgetState returns the state of the session's open widgets as a
// notebook saves it in metadata.widgets["application/vnd.jupyter.widget-state+json"]
// (see widgets.Manager.State): what nbconvert --execute saves, and what a
// headless run (gotensor run) writes.
func (s *Session) WidgetState() map[string]any { return s.w.mgr.State() }

// replier returns the function through which the Manager answers a
// front end's message: on out, with the message as parent.
func (s *Session) replier(out kernel.Output) func(widgets.Message) {
	co, _ := out.(kernel.CommOutput)
	return func(m widgets.Message) {
		if co != nil {
			co.Comm(kernel.CommMessage(m))
		}
	}
}

// widgetTable returns the widgets package's functions that make widgets,
// bound to the session: each widget a cell makes (NewIntSlider, Interact
// ...) is opened in the front end by the session's Manager. The table
// goes after the generated one, whose entries it replaces.
func (s *Session) widgetTable() plan.Symbols {
	widgetType := reflect.TypeFor[widgets.Widget]()
	out := map[string]reflect.Value{}
	for name, v := range symbols.Symbols[widgetsPath] {
		if v.Kind() != reflect.Func {
			continue
		}
		t := v.Type()
		makes := false
		for i := range t.NumOut() {
			makes = makes || t.Out(i).Implements(widgetType)
		}
		if !makes {
			continue
		}
		orig := v
		out[name] = reflect.MakeFunc(t, func(args []reflect.Value) []reflect.Value {
			var res []reflect.Value
			if t.IsVariadic() {
				res = orig.CallSlice(args)
			} else {
				res = orig.Call(args)
			}
			for _, r := range res {
				if r.Type().Implements(widgetType) && !(r.Kind() == reflect.Pointer && r.IsNil()) {
					s.w.mgr.Adopt(r.Interface().(widgets.Widget))
				}
			}
			return res
		})
	}
	return plan.Symbols{widgetsPath: out}
}
