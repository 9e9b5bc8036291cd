package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gotensor/gotensor/protocol"
)

// Config configures a kernel.
type Config struct {
	// Conn names the sockets to bind and the signing key. Required.
	Conn *protocol.ConnectionInfo
	// Interp runs the cells. Required.
	Interp Interpreter
	// Logger receives the kernel's diagnostics; nil discards them.
	Logger *slog.Logger

	// These fill kernel_info_reply.
	Implementation        string // e.g. "gotensor"
	ImplementationVersion string
	LanguageVersion       string // the Go version cells run as, e.g. "1.26"
	Banner                string
	HelpLinks             []HelpLink

	// Ready, when set, is called once, after the kernel has answered its
	// first request (a front end's kernel_info_request, as a rule): the
	// moment to begin work that would otherwise slow that answer, such as
	// making the language's session. It must return quickly.
	Ready func()
}

// HelpLink is an entry of the front end's Help menu.
type HelpLink struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

// Run serves a kernel on cfg.Conn's sockets until a front end sends
// shutdown_request or ctx is cancelled, and then closes the sockets. It
// returns the request's restart flag (the front end restarts the kernel
// process when it is set) and a nil error; it returns an error only when the
// kernel cannot start, for example because a port is taken.
//
// SIGINT received while Run serves interrupts the running cell instead of
// ending the process.
func Run(ctx context.Context, cfg Config) (restart bool, err error) {
	k, err := start(ctx, cfg)
	if err != nil {
		return false, err
	}
	return k.serve(), nil
}

// Message types handled on each channel. Anything else is logged and
// dropped without a reply.
var (
	shellHandlers = map[string]func(*kernel, *request){
		"kernel_info_request": (*kernel).kernelInfo,
		"execute_request":     (*kernel).execute,
		"complete_request":    (*kernel).complete,
		"inspect_request":     (*kernel).inspect,
		"is_complete_request": (*kernel).isComplete,
		"history_request":     (*kernel).history,
		"comm_info_request":   (*kernel).commInfo,
		"comm_open":           (*kernel).commOpen,
		"comm_msg":            (*kernel).commMsg,
		"comm_close":          (*kernel).commClose,
		"shutdown_request":    (*kernel).shutdown,
	}
	controlHandlers = map[string]func(*kernel, *request){
		"kernel_info_request": (*kernel).kernelInfo,
		"interrupt_request":   (*kernel).interrupt,
		"shutdown_request":    (*kernel).shutdown,
		"debug_request":       (*kernel).debugRequest,
	}
)

// The contents of status messages, encoded once.
var (
	statusBusy     = json.RawMessage(`{"execution_state":"busy"}`)
	statusIdle     = json.RawMessage(`{"execution_state":"idle"}`)
	statusStarting = json.RawMessage(`{"execution_state":"starting"}`)
)

// shellQueueSize bounds the requests waiting behind a running cell; beyond
// it, the shell socket stops reading and ZeroMQ applies back pressure.
const shellQueueSize = 1024

// shutdownFlush is how long the kernel waits, after shutdown_request, for
// iopub's send queue to drain before it closes the sockets.
const shutdownFlush = 100 * time.Millisecond

// A request is a received message and the socket to answer it on.
type request struct {
	sock    *zsocket
	channel string // "shell" or "control"
	msg     *protocol.Message
	// commBefore counts the comm messages received before this shell
	// request: an execute_request runs once they are handled.
	commBefore int64
}

// kernel is one running kernel.
type kernel struct {
	cfg     Config
	log     *slog.Logger
	signer  *protocol.Signer
	session protocol.Session

	ctx    context.Context // cancelled when the kernel stops
	cancel context.CancelFunc

	shell, control, stdin, iopub, hb *zsocket

	shellQ chan *request
	commQ  chan *request // comm messages, served beside the running cell (comm.go)
	order  commOrder

	// Owned by the execution goroutine (the shell worker).
	executionCount int
	hist           []historyEntry
	abortQueued    int // queued requests still to abort after a stop_on_error failure

	mu         sync.Mutex
	cellCancel context.CancelFunc // cancels the running cell; nil when idle
	running    *protocol.Message  // the running cell's execute_request; nil when idle
	commCancel context.CancelFunc // cancels the comm message being handled; nil when none

	debugOnce sync.Once
	debug     *DebugAdapter // made at the first debug_request (debug.go)

	inputMu      sync.Mutex  // one input_request at a time
	inputReplies chan string // values of input_reply messages

	stopping  atomic.Bool // a shutdown_request was answered
	restart   atomic.Bool
	readyOnce sync.Once // calls cfg.Ready
	stopOnce  sync.Once
	stopped   chan struct{} // closed once the shutdown request's idle status is out
}

// start checks cfg and binds the sockets.
func start(ctx context.Context, cfg Config) (*kernel, error) {
	if cfg.Conn == nil {
		return nil, errors.New("kernel: Config.Conn is nil: read a connection file with protocol.ReadConnectionFile")
	}
	if cfg.Interp == nil {
		return nil, errors.New("kernel: Config.Interp is nil")
	}
	if err := cfg.Conn.Validate(); err != nil {
		return nil, err
	}
	signer, err := cfg.Conn.Signer()
	if err != nil {
		return nil, err
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	k := &kernel{
		cfg:          cfg,
		log:          logger,
		signer:       signer,
		session:      protocol.NewSession("kernel"),
		shellQ:       make(chan *request, shellQueueSize),
		commQ:        make(chan *request, shellQueueSize),
		inputReplies: make(chan string, 1),
		stopped:      make(chan struct{}),
	}
	k.ctx, k.cancel = context.WithCancel(ctx)
	k.order.init()

	c := cfg.Conn
	for _, s := range []struct {
		sock **zsocket
		pub  bool
		name string
		port int
	}{
		{&k.hb, false, "heartbeat", c.HBPort},
		{&k.iopub, true, "iopub", c.IOPubPort},
		{&k.control, false, "control", c.ControlPort},
		{&k.stdin, false, "stdin", c.StdinPort},
		{&k.shell, false, "shell", c.ShellPort},
	} {
		ep := c.Endpoint(s.port)
		sock, err := listenSocket(s.name, s.pub, ep, logger)
		if err != nil {
			k.closeSockets()
			k.cancel()
			return nil, fmt.Errorf("kernel: binding the %s socket to %s: %w", s.name, ep, err)
		}
		*s.sock = sock
	}
	return k, nil
}

// serve runs the kernel until shutdown and returns the restart flag.
func (k *kernel) serve() bool {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)

	k.hb.serve(func(frames [][]byte) {
		// Echo every message to its sender. Like ipykernel, the
		// heartbeat is a ROUTER, which answers REQ and DEALER clients
		// alike.
		if err := k.hb.send(frames); err != nil {
			k.log.Warn("kernel: heartbeat echo failed", "err", err)
		}
	})
	k.iopub.serve(nil)
	k.control.serve(k.receiver("control", func(m *protocol.Message) {
		k.dispatch(&request{sock: k.control, channel: "control", msg: m})
	}))
	k.shell.serve(k.receiver("shell", func(m *protocol.Message) {
		r := &request{sock: k.shell, channel: "shell", msg: m}
		q := k.shellQ
		if commTypes[m.Header.MsgType] {
			q = k.commQ
			k.order.received()
		} else {
			r.commBefore = k.order.snapshot()
		}
		select {
		case q <- r:
		case <-k.ctx.Done():
		}
	}))
	k.stdin.serve(k.receiver("stdin", k.stdinMessage))
	// The execution and comm goroutines are not waited for: a cell that
	// ignores its context must not keep Run from returning.
	go k.shellWorker()
	go k.commWorker()

	k.publish(nil, "status", statusStarting)
	k.log.Info("kernel: started", "shell", k.cfg.Conn.Endpoint(k.cfg.Conn.ShellPort), "session", k.session.ID)

	for done := false; !done; {
		select {
		case <-sigs:
			k.log.Info("kernel: SIGINT: interrupting the running cell")
			k.interruptCell()
		case <-k.stopped:
			time.Sleep(shutdownFlush)
			done = true
		case <-k.ctx.Done():
			done = true
		}
	}
	k.interruptCell()
	k.cancel()
	k.closeSockets()
	waited := make(chan struct{})
	go func() {
		for _, s := range k.sockets() {
			s.wait()
		}
		close(waited)
	}()
	select {
	case <-waited:
	case <-time.After(2 * time.Second):
		k.log.Warn("kernel: socket loops did not stop within 2s")
	}
	k.log.Info("kernel: stopped", "restart", k.restart.Load())
	return k.restart.Load()
}

// sockets returns the kernel's sockets that are bound.
func (k *kernel) sockets() []*zsocket {
	var socks []*zsocket
	for _, s := range []*zsocket{k.shell, k.control, k.stdin, k.iopub, k.hb} {
		if s != nil {
			socks = append(socks, s)
		}
	}
	return socks
}

func (k *kernel) closeSockets() {
	for _, s := range k.sockets() {
		s.close()
	}
}

// receiver returns a socket handler that decodes and verifies each
// message, drops those that fail, and passes the rest to handle.
func (k *kernel) receiver(name string, handle func(*protocol.Message)) func([][]byte) {
	return func(frames [][]byte) {
		if k.ctx.Err() != nil {
			return
		}
		m, err := protocol.Decode(frames, k.signer)
		if err != nil {
			k.log.Warn("kernel: dropping message", "socket", name, "err", err)
			return
		}
		handle(m)
	}
}

// shellWorker is the execution goroutine: it handles shell requests one at
// a time, in arrival order. Comm messages are served beside it, on the
// comm goroutine (comm.go), so that they reach a running cell; an
// execute_request waits for the comm messages received before it.
func (k *kernel) shellWorker() {
	for {
		select {
		case <-k.ctx.Done():
			return
		case r := <-k.shellQ:
			if r.msg.Header.MsgType == "execute_request" {
				k.order.wait(k.ctx, r.commBefore)
			}
			if k.abortQueued > 0 {
				k.abortQueued--
				if r.msg.Header.MsgType == "execute_request" {
					k.abort(r)
					continue
				}
			}
			k.dispatch(r)
		}
	}
}

// dispatch publishes busy, runs the handler for r's message type, and
// publishes idle. A panic in the handler is logged and, for a request,
// answered with an error reply; the kernel lives on.
func (k *kernel) dispatch(r *request) {
	msgType := r.msg.Header.MsgType
	handlers := shellHandlers
	if r.channel == "control" {
		handlers = controlHandlers
	}
	k.iopub.settle() // a subscriber that connected with the request hears its busy
	if msgType == "execute_request" {
		// busy and execute_input go out together when the cell starts
		// (execute releases iopub before it runs the cell; any reply
		// on another socket releases it first).
		k.iopub.hold()
	}
	k.publish(r.msg, "status", statusBusy)
	if h, ok := handlers[msgType]; ok {
		k.safely(r, h)
	} else {
		k.log.Warn("kernel: unknown message type, ignored", "channel", r.channel, "msg_type", msgType)
	}
	k.iopub.release()
	k.publish(r.msg, "status", statusIdle)
	if msgType == "shutdown_request" && k.stopping.Load() {
		k.stopOnce.Do(func() { close(k.stopped) })
	} else if k.cfg.Ready != nil {
		k.readyOnce.Do(k.cfg.Ready)
	}
}

func (k *kernel) safely(r *request, h func(*kernel, *request)) {
	defer func() {
		if p := recover(); p != nil {
			msgType := r.msg.Header.MsgType
			k.log.Error("kernel: panic while handling a message", "msg_type", msgType, "panic", p)
			if reply, ok := replyType(msgType); ok {
				k.reply(r, reply, errorContent("InternalError", fmt.Sprint(p), nil))
			}
		}
	}()
	h(k, r)
}

// replyType maps "x_request" to "x_reply".
func replyType(msgType string) (string, bool) {
	const req = "_request"
	if len(msgType) > len(req) && msgType[len(msgType)-len(req):] == req {
		return msgType[:len(msgType)-len(req)] + "_reply", true
	}
	return "", false
}

// reply answers r on the socket it came from.
func (k *kernel) reply(r *request, msgType string, content any) {
	m, err := k.session.NewMessage(msgType, r.msg, content)
	if err != nil {
		k.log.Error("kernel: cannot encode reply", "msg_type", msgType, "err", err)
		m, _ = k.session.NewMessage(msgType, r.msg, errorContent("EncodingError", err.Error(), nil))
	}
	k.send(r.sock, r.channel, m)
}

// publish sends a message of msgType on iopub with parent as its parent
// (nil for none).
func (k *kernel) publish(parent *protocol.Message, msgType string, content any) error {
	m, err := k.session.NewMessage(msgType, parent, content)
	if err != nil {
		k.log.Error("kernel: cannot encode iopub message", "msg_type", msgType, "err", err)
		return err
	}
	m.Identities = [][]byte{[]byte("kernel." + k.session.ID + "." + msgType)}
	return k.send(k.iopub, "iopub", m)
}

func (k *kernel) send(sock *zsocket, name string, m *protocol.Message) error {
	frames, err := m.Encode(k.signer)
	if sock != k.iopub {
		k.iopub.release() // what iopub holds came first
	}
	if err == nil {
		err = sock.send(frames)
	}
	if err != nil {
		k.log.Warn("kernel: send failed", "socket", name, "msg_type", m.Header.MsgType, "err", err)
	}
	return err
}

// interruptCell cancels the running cell, if any, and the handling of a
// comm message (a widget's callback run between cells).
func (k *kernel) interruptCell() {
	k.mu.Lock()
	if k.cellCancel != nil {
		k.cellCancel()
	}
	if k.commCancel != nil {
		k.commCancel()
	}
	k.mu.Unlock()
}

func errorContent(ename, evalue string, traceback []string) map[string]any {
	if traceback == nil {
		traceback = []string{}
	}
	return map[string]any{"status": "error", "ename": ename, "evalue": evalue, "traceback": traceback}
}
