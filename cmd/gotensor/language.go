package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/gotensor/gotensor/display"
	"github.com/gotensor/gotensor/interp"
	"github.com/gotensor/gotensor/kernel"
	"github.com/gotensor/gotensor/widgets"
)

// goLanguage adapts a Go notebook session to the kernel's Interpreter: the
// kernel speaks its own small types and knows nothing about Go, the session
// knows nothing about Jupyter's sockets, and this file is where they meet.
//
// Making a session loads the symbol tables of every package a cell may
// use, more work than the kernel's start-up itself: the kernel begins it
// once it has answered its first request (kernel.Config.Ready), and a
// request that needs the session begins it too and waits for it.
type goLanguage struct{ start *sessionStart }

// sessionStart is a session to be made with opts, once begun.
type sessionStart struct {
	opts  interp.Options
	once  sync.Once
	begun atomic.Bool
	done  chan struct{} // closed when s and err are set
	s     *interp.Session
	err   error
}

func newSessionStart(opts interp.Options) *sessionStart {
	return &sessionStart{opts: opts, done: make(chan struct{})}
}

// begin starts making the session in a goroutine, once.
func (st *sessionStart) begin() {
	st.once.Do(func() {
		st.begun.Store(true)
		go func() {
			defer close(st.done)
			st.s, st.err = interp.New(st.opts)
		}()
	})
}

// wait begins the session and returns it once it is made.
func (st *sessionStart) wait() (*interp.Session, error) {
	st.begin()
	<-st.done
	return st.s, st.err
}

// close closes the session, if one was begun.
func (st *sessionStart) close() {
	if !st.begun.Load() {
		return
	}
	if s, err := st.wait(); err == nil {
		s.Close()
	}
}

// s returns the session; a session that could not be made ends the
// kernel, as it would have before answering anything.
func (g goLanguage) s() *interp.Session {
	s, err := g.start.wait()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gotensor kernel: starting the interpreter: %v\n", err)
		os.Exit(1)
	}
	return s
}

var (
	_ kernel.Interpreter = goLanguage{}
	_ kernel.Debugger    = goLanguage{}
	_ kernel.Comms       = goLanguage{}
)

func (g goLanguage) Execute(ctx context.Context, code string, out kernel.Output) (*kernel.Bundle, error) {
	b, err := g.s().Execute(ctx, code, cellOutput{out})
	if err != nil {
		var e *interp.Error
		if errors.As(err, &e) {
			return nil, &kernel.Error{Name: e.Name, Value: e.Value, Traceback: e.Traceback}
		}
		return nil, err
	}
	if b == nil {
		return nil, nil
	}
	kb := toKernel(*b)
	return &kb, nil
}

func (g goLanguage) Complete(code string, cursor int) kernel.Completion {
	c := g.s().Complete(code, cursor)
	return kernel.Completion{Matches: c.Matches, Start: c.Start, End: c.End, Metadata: c.Metadata}
}

func (g goLanguage) Inspect(code string, cursor, detail int) kernel.Inspection {
	i := g.s().Inspect(code, cursor, detail)
	return kernel.Inspection{Found: i.Found, Data: toKernel(i.Data)}
}

// DebugRequest answers JupyterLab's debugger (see interp.Session.DebugRequest).
func (g goLanguage) DebugRequest(request []byte, events func([]byte)) []byte {
	return g.s().DebugRequest(request, events)
}

func (g goLanguage) IsComplete(code string) kernel.Completeness {
	c := g.s().IsComplete(code)
	return kernel.Completeness{Status: c.Status, Indent: c.Indent}
}

// CommOpen hands a front end's comm_open to the session's widgets.
func (g goLanguage) CommOpen(ctx context.Context, m kernel.CommMessage, out kernel.Output) bool {
	return g.s().CommOpen(ctx, toWidgets(m), cellOutput{out})
}

// CommMsg hands a front end's comm_msg to the session's widgets.
func (g goLanguage) CommMsg(ctx context.Context, m kernel.CommMessage, out kernel.Output) bool {
	return g.s().CommMsg(ctx, toWidgets(m), cellOutput{out})
}

// CommClose hands a front end's comm_close to the session's widgets.
func (g goLanguage) CommClose(ctx context.Context, m kernel.CommMessage, out kernel.Output) {
	g.s().CommClose(ctx, toWidgets(m), cellOutput{out})
}

// CommInfo lists the session's open comms.
func (g goLanguage) CommInfo(target string) map[string]string { return g.s().CommInfo(target) }

func toWidgets(m kernel.CommMessage) widgets.Message {
	return widgets.Message{Type: m.Type, ID: m.ID, Target: m.Target, Data: m.Data, Metadata: m.Metadata, Buffers: m.Buffers}
}

func toKernel(b display.Bundle) kernel.Bundle {
	return kernel.Bundle{Data: b.Data, Metadata: b.Metadata}
}

// cellOutput hands what a cell produces to the kernel.
type cellOutput struct{ out kernel.Output }

var (
	_ interp.Output     = cellOutput{}
	_ interp.Pager      = cellOutput{}
	_ interp.CommOutput = cellOutput{}
)

func (c cellOutput) Stream(name, text string) { c.out.Stream(name, text) }

func (c cellOutput) Display(b display.Bundle, id string, update bool) {
	c.out.Display(toKernel(b), id, update)
}

func (c cellOutput) ClearOutput(wait bool) { c.out.ClearOutput(wait) }

func (c cellOutput) Input(prompt string, password bool) (string, error) {
	return c.out.Input(prompt, password)
}

// Page shows b in the front end's pager (?name).
func (c cellOutput) Page(b display.Bundle) { c.out.Page(toKernel(b)) }

// Comm sends one of the session's widget messages.
func (c cellOutput) Comm(m widgets.Message) {
	c.out.Comm(kernel.CommMessage{Type: m.Type, ID: m.ID, Target: m.Target, Data: m.Data, Metadata: m.Metadata, Buffers: m.Buffers})
}
