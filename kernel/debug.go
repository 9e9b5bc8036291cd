package kernel

import "encoding/json"

// Debugger is implemented by an Interpreter that a front end can debug:
// JupyterLab's visual debugger speaks the Debug Adapter Protocol in
// debug_request and debug_reply messages on the control channel, and the
// adapter's events arrive in debug_event messages on iopub. The kernel's
// DebugAdapter answers the protocol's plumbing (the envelope, cells'
// source paths, dumpCell, debugInfo, breakpoints' bookkeeping) and hands
// each request to the Debugger's handler of its command. An Interpreter
// that implements Debugger makes the kernel announce the debugger in
// kernel_info_reply ("debugger": true, supported_features ["debugger"]).
type Debugger interface {
	// DebugHandlers returns the language's handlers of the protocol's
	// requests, by command (threads, stackTrace, scopes, variables,
	// continue, next, stepIn, stepOut, pause, evaluate, ...; see
	// DebugAdapter for the commands both answer). It is called once, at
	// the first request, with the adapter through which the handlers send
	// events, name cells' sources and read the breakpoints. The handlers
	// are called on the control channel's goroutine while a cell may be
	// running, stopped at a breakpoint, and must not wait for the cell.
	DebugHandlers(a *DebugAdapter) map[string]DebugHandler
}

// A DebugHandler answers one Debug Adapter Protocol request: args are the
// request's arguments, the body is the response's (nil for none), and an
// error makes a failed response with its message.
type DebugHandler func(args map[string]any) (body map[string]any, err error)

// debugRequest answers debug_request (on control): through the
// Interpreter's Debugger, or with a failed response when it has none.
func (k *kernel) debugRequest(r *request) {
	var raw json.RawMessage
	if !k.decode(r, &raw) {
		return
	}
	d, ok := k.cfg.Interp.(Debugger)
	if !ok {
		var req struct {
			Seq     int    `json:"seq"`
			Command string `json:"command"`
		}
		_ = json.Unmarshal(raw, &req)
		k.reply(r, "debug_reply", map[string]any{
			"type": "response", "seq": 0, "request_seq": req.Seq, "command": req.Command,
			"success": false, "message": "this kernel has no debugger",
		})
		return
	}
	k.debugOnce.Do(func() { k.debug = NewDebugAdapter(d) })
	parent := r.msg
	reply := k.debug.Request(raw, func(event []byte) {
		k.publish(parent, "debug_event", json.RawMessage(event))
	})
	k.reply(r, "debug_reply", json.RawMessage(reply))
}
