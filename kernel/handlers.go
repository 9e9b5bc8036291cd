package kernel

import (
	"unicode/utf8"

	"github.com/gotensor/gotensor/protocol"
)

// kernelInfo answers kernel_info_request.
func (k *kernel) kernelInfo(r *request) {
	links := k.cfg.HelpLinks
	if links == nil {
		links = []HelpLink{}
	}
	_, debugger := k.cfg.Interp.(Debugger)
	features := []string{}
	if debugger {
		features = append(features, "debugger")
	}
	k.reply(r, "kernel_info_reply", map[string]any{
		"status":                 "ok",
		"debugger":               debugger,
		"supported_features":     features,
		"protocol_version":       protocol.Version,
		"implementation":         k.cfg.Implementation,
		"implementation_version": k.cfg.ImplementationVersion,
		"language_info": map[string]any{
			"name":            "go",
			"version":         k.cfg.LanguageVersion,
			"mimetype":        "text/x-go",
			"file_extension":  ".go",
			"pygments_lexer":  "go",
			"codemirror_mode": "go",
		},
		"banner":     k.cfg.Banner,
		"help_links": links,
	})
}

// complete answers complete_request.
func (k *kernel) complete(r *request) {
	var c struct {
		Code      string `json:"code"`
		CursorPos *int   `json:"cursor_pos"`
	}
	if !k.decode(r, &c) {
		return
	}
	cursor := cursorPos(c.Code, c.CursorPos)
	comp := k.cfg.Interp.Complete(c.Code, cursor)
	matches := comp.Matches
	if matches == nil {
		matches = []string{}
	}
	start, end := comp.Start, comp.End
	if start == 0 && end == 0 && len(matches) == 0 {
		start, end = cursor, cursor
	}
	k.reply(r, "complete_reply", map[string]any{
		"status":       "ok",
		"matches":      matches,
		"cursor_start": start,
		"cursor_end":   end,
		"metadata":     orEmpty(comp.Metadata),
	})
}

// inspect answers inspect_request.
func (k *kernel) inspect(r *request) {
	var c struct {
		Code        string `json:"code"`
		CursorPos   *int   `json:"cursor_pos"`
		DetailLevel int    `json:"detail_level"`
	}
	if !k.decode(r, &c) {
		return
	}
	in := k.cfg.Interp.Inspect(c.Code, cursorPos(c.Code, c.CursorPos), c.DetailLevel)
	data := in.Data.Data
	if !in.Found {
		data = nil
	}
	k.reply(r, "inspect_reply", map[string]any{
		"status":   "ok",
		"found":    in.Found,
		"data":     orEmpty(data),
		"metadata": orEmpty(in.Data.Metadata),
	})
}

// isComplete answers is_complete_request.
func (k *kernel) isComplete(r *request) {
	var c struct {
		Code string `json:"code"`
	}
	if !k.decode(r, &c) {
		return
	}
	res := k.cfg.Interp.IsComplete(c.Code)
	content := map[string]any{"status": res.Status}
	switch res.Status {
	case "complete", "invalid":
	case "incomplete":
		content["indent"] = res.Indent
	default:
		content["status"] = "unknown"
	}
	k.reply(r, "is_complete_reply", content)
}

// shutdown answers shutdown_request (on shell or control). The kernel stops
// once dispatch has published idle.
func (k *kernel) shutdown(r *request) {
	var c struct {
		Restart bool `json:"restart"`
	}
	_ = r.msg.DecodeContent(&c) // a malformed request still shuts down
	content := map[string]any{"status": "ok", "restart": c.Restart}
	k.reply(r, "shutdown_reply", content)
	k.publish(r.msg, "shutdown_reply", content)
	k.restart.Store(c.Restart)
	k.stopping.Store(true)
	k.interruptCell()
}

// interrupt answers interrupt_request (on control) by cancelling the
// running cell.
func (k *kernel) interrupt(r *request) {
	k.interruptCell()
	k.reply(r, "interrupt_reply", map[string]any{"status": "ok"})
}

// decode decodes r's content into v; on failure it answers r with an error
// reply and returns false.
func (k *kernel) decode(r *request, v any) bool {
	err := r.msg.DecodeContent(v)
	if err == nil {
		return true
	}
	k.log.Warn("kernel: malformed request", "msg_type", r.msg.Header.MsgType, "err", err)
	if reply, ok := replyType(r.msg.Header.MsgType); ok {
		k.reply(r, reply, errorContent("BadRequest", err.Error(), nil))
	}
	return false
}

// cursorPos returns the cursor in code points, clamped to code, and the
// end of code when the front end sent none.
func cursorPos(code string, pos *int) int {
	n := utf8.RuneCountInString(code)
	if pos == nil || *pos > n {
		return n
	}
	return max(*pos, 0)
}

// orEmpty returns m, or an empty map for nil so that it encodes as {}.
func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
