package kernel

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
)

// executeRequest is the content of an execute_request.
type executeRequest struct {
	Code            string         `json:"code"`
	Silent          bool           `json:"silent"`
	StoreHistory    *bool          `json:"store_history"`    // default true
	UserExpressions map[string]any `json:"user_expressions"` // not evaluated; the reply has {}
	AllowStdin      bool           `json:"allow_stdin"`      // default false: never wait on a front end that did not ask
	StopOnError     *bool          `json:"stop_on_error"`    // default true
}

// executeInput is the content of execute_input.
type executeInput struct {
	Code           string `json:"code"`
	ExecutionCount int    `json:"execution_count"`
}

// executeReply is the content of a successful execute_reply. (Structs
// encode faster than maps, whose keys are sorted.)
type executeReply struct {
	Status          string   `json:"status"`
	ExecutionCount  int      `json:"execution_count"`
	UserExpressions struct{} `json:"user_expressions"`
	Payload         []any    `json:"payload"`
}

// execute answers execute_request: it runs the cell on this goroutine (the
// execution goroutine) with a context that interrupt_request cancels.
//
// execution_count follows IPython: it increments only for a run that is
// neither silent nor store_history false, and such a run is the one saved
// in the history. Other runs report the current count.
func (k *kernel) execute(r *request) {
	var c executeRequest
	if !k.decode(r, &c) {
		return
	}
	store := !c.Silent && (c.StoreHistory == nil || *c.StoreHistory)
	if store {
		k.executionCount++
	}
	n := k.executionCount
	if !c.Silent {
		k.publish(r.msg, "execute_input", executeInput{Code: c.Code, ExecutionCount: n})
	}

	ctx, cancel := context.WithCancel(k.ctx)
	k.mu.Lock()
	k.cellCancel = cancel
	k.running = r.msg
	k.mu.Unlock()
	out := &cellOutput{k: k, req: r, ctx: ctx, silent: c.Silent, allowStdin: c.AllowStdin}
	k.iopub.release() // busy and execute_input, held by dispatch
	bundle, err := k.runCell(ctx, c.Code, out)
	k.mu.Lock()
	k.cellCancel = nil
	k.running = nil
	k.mu.Unlock()
	interrupted := ctx.Err() != nil
	cancel()

	if store {
		k.hist = append(k.hist, historyEntry{line: n, input: c.Code, output: plainText(bundle)})
	}
	if err != nil {
		e := asCellError(err, interrupted)
		content := errorContent(e.Name, e.Value, e.Traceback)
		if !c.Silent {
			k.publish(r.msg, "error", map[string]any{"ename": content["ename"], "evalue": content["evalue"], "traceback": content["traceback"]})
		}
		content["execution_count"] = n
		if !c.Silent && (c.StopOnError == nil || *c.StopOnError) {
			// Abort the execute_requests already waiting, as ipykernel
			// does with its default stop_on_error_timeout of 0. They are
			// counted before the reply goes out: a request sent once the
			// front end has the reply is not one of them.
			k.abortQueued = len(k.shellQ)
		}
		k.reply(r, "execute_reply", content)
		return
	}
	if bundle != nil && !c.Silent {
		if err := k.publish(r.msg, "execute_result", map[string]any{
			"execution_count": n,
			"data":            orEmpty(bundle.Data),
			"metadata":        orEmpty(bundle.Metadata),
		}); err != nil {
			out.Stream("stderr", "kernel: cannot show the cell's value: "+err.Error()+"\n")
		}
	}
	k.reply(r, "execute_reply", executeReply{Status: "ok", ExecutionCount: n, UserExpressions: struct{}{}, Payload: out.payload()})
}

// runCell calls the interpreter, turning a panic into an error.
func (k *kernel) runCell(ctx context.Context, code string, out *cellOutput) (b *Bundle, err error) {
	defer func() {
		if p := recover(); p != nil {
			stack := string(debug.Stack())
			k.log.Error("kernel: the interpreter panicked", "panic", p, "stack", stack)
			b, err = nil, &Error{
				Name:      "InternalError",
				Value:     fmt.Sprintf("the interpreter panicked: %v", p),
				Traceback: append([]string{fmt.Sprintf("panic: %v", p)}, strings.Split(stack, "\n")...),
			}
		}
	}()
	return k.cfg.Interp.Execute(ctx, code, out)
}

// abort answers an execute_request that was queued behind a failed cell.
func (k *kernel) abort(r *request) {
	k.publish(r.msg, "status", statusBusy)
	k.log.Info("kernel: aborting queued execute_request", "msg_id", r.msg.Header.MsgID)
	k.reply(r, "execute_reply", map[string]any{"status": "aborted", "execution_count": k.executionCount})
	k.publish(r.msg, "status", statusIdle)
}

// asCellError shapes err as a Jupyter error.
func asCellError(err error, interrupted bool) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if interrupted || errors.Is(err, context.Canceled) {
		return &Error{Name: "Interrupted", Value: "the cell was interrupted", Traceback: []string{"Interrupted: the cell was interrupted"}}
	}
	return &Error{Name: "Error", Value: err.Error(), Traceback: []string{err.Error()}}
}

// plainText returns b's text/plain representation, or nil.
func plainText(b *Bundle) any {
	if b == nil {
		return nil
	}
	if s, ok := b.Data["text/plain"].(string); ok {
		return s
	}
	return nil
}
