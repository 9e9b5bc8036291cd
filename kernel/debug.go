package kernel

import "encoding/json"

// Debugger is implemented by an Interpreter that a front end can debug:
// JupyterLab's visual debugger speaks the Debug Adapter Protocol in
// debug_request and debug_reply messages on the control channel, and the
// adapter's events arrive in debug_event messages on iopub. The kernel
// passes the protocol through as JSON and knows nothing of what it means.
// An Interpreter that implements Debugger makes the kernel announce the
// debugger in kernel_info_reply ("debugger": true, supported_features
// ["debugger"]).
type Debugger interface {
	// DebugRequest answers one Debug Adapter Protocol request (the content
	// of a debug_request) with its response (the content of the
	// debug_reply). It is called on the control channel's goroutine while
	// a cell may be running, stopped at a breakpoint, and must not wait
	// for the cell. events publishes an event (the content of a
	// debug_event); it is safe to call from any goroutine, also after
	// DebugRequest has returned.
	DebugRequest(request []byte, events func(event []byte)) []byte
}

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
	parent := r.msg
	reply := d.DebugRequest(raw, func(event []byte) {
		k.publish(parent, "debug_event", json.RawMessage(event))
	})
	if !json.Valid(reply) {
		k.reply(r, "debug_reply", map[string]any{"type": "response", "success": false, "message": "the debugger's reply is not JSON"})
		return
	}
	k.reply(r, "debug_reply", json.RawMessage(reply))
}
