package kernel

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/gotensor/gotensor/protocol"
)

// Comms is implemented by an Interpreter that has comm targets: the custom
// messages of Jupyter's protocol (comm_open, comm_msg, comm_close), on
// which ipywidgets' widgets are built. Its methods are called on the
// kernel's comm goroutine, one message at a time in arrival order, while a
// cell may be running: they must not wait for the cell. The kernel sends
// the Interpreter's own comm messages through CommOutput.Comm.
//
// A kernel whose Interpreter has no Comms answers as one without targets:
// every comm_open is closed at once and comm_info_reply lists no comm.
type Comms interface {
	// CommOpen handles a front end's comm_open. It reports whether the
	// target exists; when it does not, the kernel closes the comm (the
	// messaging specification's answer to an unknown target).
	CommOpen(ctx context.Context, m CommMessage, out CommOutput) bool
	// CommMsg handles a front end's comm_msg. It reports whether the comm
	// is open; when it is not, the kernel answers with comm_close, so that
	// the front end drops a comm the kernel does not know, as it must for
	// an unknown target.
	CommMsg(ctx context.Context, m CommMessage, out CommOutput) bool
	// CommClose handles a front end's comm_close.
	CommClose(ctx context.Context, m CommMessage, out CommOutput)
	// CommInfo returns the open comms (comm id → target name), those of
	// target only when target is not empty.
	CommInfo(target string) map[string]string
}

// CommMessage is one comm message, received or sent.
type CommMessage struct {
	Type     string          // "comm_open", "comm_msg" or "comm_close"
	ID       string          // the comm_id
	Target   string          // the target_name (comm_open only)
	Data     json.RawMessage // the content's data; empty travels as {}
	Metadata map[string]any  // the message's metadata (ipywidgets puts its protocol version there)
	Buffers  [][]byte        // binary frames after the content
}

// commTypes are the shell messages served on the comm goroutine, beside a
// running cell, instead of waiting in the execution queue.
var commTypes = map[string]bool{
	"comm_open":         true,
	"comm_msg":          true,
	"comm_close":        true,
	"comm_info_request": true,
}

// commOrder lets an execute_request wait for the comm messages that
// arrived before it: a slider moved and then a cell run that reads the
// slider must see the new value.
type commOrder struct {
	mu      sync.Mutex
	cond    sync.Cond
	queued  int64 // comm messages received
	handled int64 // comm messages handled
}

func (o *commOrder) init() { o.cond.L = &o.mu }

// received counts a comm message received and returns the count.
func (o *commOrder) received() int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.queued++
	return o.queued
}

// snapshot returns how many comm messages were received so far.
func (o *commOrder) snapshot() int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.queued
}

// done counts a comm message handled.
func (o *commOrder) done() {
	o.mu.Lock()
	o.handled++
	o.mu.Unlock()
	o.cond.Broadcast()
}

// wait waits until the first n comm messages are handled, or ctx ends.
func (o *commOrder) wait(ctx context.Context, n int64) {
	stop := context.AfterFunc(ctx, func() {
		o.mu.Lock()
		o.mu.Unlock()
		o.cond.Broadcast()
	})
	defer stop()
	o.mu.Lock()
	defer o.mu.Unlock()
	for o.handled < n && ctx.Err() == nil {
		o.cond.Wait()
	}
}

// commWorker handles comm messages in arrival order, beside the execution
// goroutine.
func (k *kernel) commWorker() {
	for {
		select {
		case <-k.ctx.Done():
			return
		case r := <-k.commQ:
			k.dispatch(r)
			// Before the message counts as handled: an execute_request
			// received after it waits for that, so a cell running now
			// is one received before it, whose busy the comm's idle
			// hid; a cell started after it sends its own.
			k.reassertBusy()
			k.order.done()
		}
	}
}

// reassertBusy publishes busy again, on behalf of the running cell, after
// a comm message handled beside it published its idle: front ends show
// the kernel's state from the latest status message, and the cell is
// still running. It publishes with k.mu held, which execute takes to mark
// the cell ended before its idle goes out, so that this busy never
// follows the cell's idle.
func (k *kernel) reassertBusy() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.running != nil {
		k.publish(k.running, "status", statusBusy)
	}
}

// commContext returns a context for handling one comm message that an
// interrupt cancels (a widget's callback run between cells stops like a
// cell), and its cancel function.
func (k *kernel) commContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(k.ctx)
	k.mu.Lock()
	k.commCancel = cancel
	k.mu.Unlock()
	return ctx, func() {
		k.mu.Lock()
		k.commCancel = nil
		k.mu.Unlock()
		cancel()
	}
}

// commRequest decodes a comm message's content.
func commRequest(r *request) (CommMessage, error) {
	var c struct {
		CommID     string          `json:"comm_id"`
		TargetName string          `json:"target_name"`
		Data       json.RawMessage `json:"data"`
	}
	err := r.msg.DecodeContent(&c)
	return CommMessage{
		Type:     r.msg.Header.MsgType,
		ID:       c.CommID,
		Target:   c.TargetName,
		Data:     c.Data,
		Metadata: r.msg.Metadata,
		Buffers:  r.msg.Buffers,
	}, err
}

// commOutput returns the Output through which the Interpreter answers a
// comm message and prints while handling it (a widget's callback run
// between cells): its messages have the comm message as their parent.
func (k *kernel) commOutput(ctx context.Context, r *request) *cellOutput {
	return &cellOutput{k: k, req: r, ctx: ctx}
}

// commOpen handles a front end's comm_open: the Interpreter's target, or,
// when there is none, a comm_close at once, as the messaging
// specification asks ("to avoid an inconsistent state").
func (k *kernel) commOpen(r *request) {
	k.handleComm(r, Comms.CommOpen)
}

// commMsg handles a front end's comm_msg; one to a comm the Interpreter
// does not have open is answered with comm_close.
func (k *kernel) commMsg(r *request) {
	k.handleComm(r, Comms.CommMsg)
}

// commClose handles a front end's comm_close.
func (k *kernel) commClose(r *request) {
	k.handleComm(r, func(c Comms, ctx context.Context, m CommMessage, out CommOutput) bool {
		c.CommClose(ctx, m, out)
		return true
	})
}

// handleComm decodes a comm message, hands it to the Interpreter's Comms
// with a context that an interrupt cancels, and closes the comm when the
// Interpreter does not know it.
func (k *kernel) handleComm(r *request, handle func(Comms, context.Context, CommMessage, CommOutput) bool) {
	m, err := commRequest(r)
	if err != nil || m.ID == "" {
		k.log.Warn("kernel: comm message without a comm_id", "msg_type", r.msg.Header.MsgType, "err", err)
		return
	}
	if c, ok := k.cfg.Interp.(Comms); ok {
		ctx, done := k.commContext()
		known := handle(c, ctx, m, k.commOutput(ctx, r))
		done()
		if known {
			return
		}
	}
	if m.Type == "comm_close" {
		return
	}
	k.log.Info("kernel: no such comm or comm target, closing the comm", "msg_type", m.Type, "target_name", m.Target, "comm_id", m.ID)
	k.publish(r.msg, "comm_close", map[string]any{"comm_id": m.ID, "data": map[string]any{}})
}

// commInfo answers comm_info_request with the Interpreter's open comms,
// those of the request's target_name when it names one.
func (k *kernel) commInfo(r *request) {
	var c struct {
		TargetName string `json:"target_name"`
	}
	if !k.decode(r, &c) {
		return
	}
	comms := map[string]any{}
	if cm, ok := k.cfg.Interp.(Comms); ok {
		for id, target := range cm.CommInfo(c.TargetName) {
			comms[id] = map[string]string{"target_name": target}
		}
	}
	k.reply(r, "comm_info_reply", map[string]any{"status": "ok", "comms": comms})
}

// publishComm publishes one of the Interpreter's comm messages on iopub,
// with its buffers, as the child of parent.
func (k *kernel) publishComm(parent *protocol.Message, m CommMessage) error {
	data := m.Data
	if len(data) == 0 {
		data = json.RawMessage("{}")
	}
	content := map[string]any{"comm_id": m.ID, "data": data}
	if m.Type == "comm_open" {
		content["target_name"] = m.Target
	}
	msg, err := k.session.NewMessage(m.Type, parent, content)
	if err != nil {
		k.log.Error("kernel: cannot encode a comm message", "msg_type", m.Type, "err", err)
		return err
	}
	msg.Metadata = m.Metadata
	msg.Buffers = m.Buffers
	msg.Identities = [][]byte{[]byte("kernel." + k.session.ID + "." + m.Type)}
	return k.send(k.iopub, "iopub", msg)
}
