package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/gotensor/gotensor/interp"
	"github.com/gotensor/gotensor/kernel"
)

// goLanguage is the kernel's Interpreter: a Go notebook session, which
// speaks the kernel's types, once it is made.
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
	return g.s().Execute(ctx, code, out)
}

func (g goLanguage) Complete(code string, cursor int) kernel.Completion {
	return g.s().Complete(code, cursor)
}

func (g goLanguage) Inspect(code string, cursor, detail int) kernel.Inspection {
	return g.s().Inspect(code, cursor, detail)
}

// DebugHandlers gives the kernel's debugger the session's side (see
// interp.Session.DebugHandlers).
func (g goLanguage) DebugHandlers(a *kernel.DebugAdapter) map[string]kernel.DebugHandler {
	return g.s().DebugHandlers(a)
}

func (g goLanguage) IsComplete(code string) kernel.Completeness {
	return g.s().IsComplete(code)
}

// CommOpen hands a front end's comm_open to the session's widgets.
func (g goLanguage) CommOpen(ctx context.Context, m kernel.CommMessage, out kernel.CommOutput) bool {
	return g.s().CommOpen(ctx, m, out)
}

// CommMsg hands a front end's comm_msg to the session's widgets.
func (g goLanguage) CommMsg(ctx context.Context, m kernel.CommMessage, out kernel.CommOutput) bool {
	return g.s().CommMsg(ctx, m, out)
}

// CommClose hands a front end's comm_close to the session's widgets.
func (g goLanguage) CommClose(ctx context.Context, m kernel.CommMessage, out kernel.CommOutput) {
	g.s().CommClose(ctx, m, out)
}

// CommInfo lists the session's open comms.
func (g goLanguage) CommInfo(target string) map[string]string { return g.s().CommInfo(target) }
