package kernel

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/gotensor/gotensor/protocol"
)

// cellOutput publishes what one cell produces on iopub, with the cell's
// execute_request as the parent. It implements Pager and CommOutput and is safe
// for concurrent use: goroutines a cell starts may print too.
type cellOutput struct {
	k          *kernel
	req        *request
	ctx        context.Context // the cell's; cancelled by interrupts
	silent     bool            // publish nothing
	allowStdin bool
	page       atomic.Pointer[Bundle] // what Page was given last, for the reply's payload
}

var (
	_ Pager      = (*cellOutput)(nil)
	_ CommOutput = (*cellOutput)(nil)
)

// Stream publishes text on the "stdout" or "stderr" stream.
func (o *cellOutput) Stream(name, text string) {
	if o.silent || text == "" {
		return
	}
	o.k.publish(o.req.msg, "stream", map[string]string{"name": name, "text": text})
}

// Display publishes b as display_data, or as update_display_data when update
// is set and id names an earlier output.
func (o *cellOutput) Display(b Bundle, id string, update bool) {
	if o.silent {
		return
	}
	msgType := "display_data"
	if update && id != "" {
		msgType = "update_display_data"
	}
	content := map[string]any{"data": orEmpty(b.Data), "metadata": orEmpty(b.Metadata)}
	if id != "" {
		content["transient"] = map[string]string{"display_id": id}
	}
	if err := o.k.publish(o.req.msg, msgType, content); err != nil {
		o.Stream("stderr", "kernel: cannot display a value: "+err.Error()+"\n")
	}
}

// ClearOutput publishes clear_output.
func (o *cellOutput) ClearOutput(wait bool) {
	if o.silent {
		return
	}
	o.k.publish(o.req.msg, "clear_output", map[string]bool{"wait": wait})
}

// Input sends input_request on the stdin socket to the front end that sent
// the execute_request and waits for its input_reply, or for an interrupt.
func (o *cellOutput) Input(prompt string, password bool) (string, error) {
	if !o.allowStdin {
		return "", errors.New("kernel: this front end does not accept input (the execute_request has allow_stdin false)")
	}
	k := o.k
	k.inputMu.Lock()
	defer k.inputMu.Unlock()
	select {
	case <-k.inputReplies: // a stale reply to an earlier, interrupted request
	default:
	}
	m, err := k.session.NewMessage("input_request", o.req.msg, map[string]any{"prompt": prompt, "password": password})
	if err != nil {
		return "", err
	}
	if err := k.send(k.stdin, "stdin", m); err != nil {
		return "", errors.New("kernel: cannot send input_request: " + err.Error())
	}
	select {
	case v := <-k.inputReplies:
		return v, nil
	case <-o.ctx.Done():
		return "", errors.New("kernel: input interrupted")
	}
}

// stdinMessage handles a message received on the stdin socket.
func (k *kernel) stdinMessage(m *protocol.Message) {
	if m.Header.MsgType != "input_reply" {
		k.log.Warn("kernel: unexpected message on stdin, ignored", "msg_type", m.Header.MsgType)
		return
	}
	var c struct {
		Value string `json:"value"`
	}
	if err := m.DecodeContent(&c); err != nil {
		k.log.Warn("kernel: malformed input_reply", "err", err)
		return
	}
	select {
	case k.inputReplies <- c.Value:
	default:
		k.log.Warn("kernel: input_reply without a pending input_request, ignored")
	}
}

// Page keeps b for the execute_reply's "page" payload.
func (o *cellOutput) Page(b Bundle) {
	if o.silent {
		return
	}
	o.page.Store(&b)
}

// payload returns the execute_reply's payload: the page Page was given,
// if any.
func (o *cellOutput) payload() []any {
	b := o.page.Load()
	if b == nil {
		return []any{}
	}
	return []any{map[string]any{"source": "page", "data": orEmpty(b.Data), "start": 0}}
}

// Comm publishes one of the Interpreter's comm messages.
func (o *cellOutput) Comm(m CommMessage) {
	if err := o.k.publishComm(o.req.msg, m); err != nil {
		o.Stream("stderr", "kernel: cannot send a comm message: "+err.Error()+"\n")
	}
}
