package kernel

import (
	"fmt"
	"regexp"
	"strings"
)

// historyEntry is one cell of this session's input history. Line numbers
// are execution counts.
type historyEntry struct {
	line   int
	input  string
	output any // the text/plain of the cell's value, or nil
}

// historyRequest is the content of a history_request.
type historyRequest struct {
	Output         bool   `json:"output"`
	Raw            bool   `json:"raw"`
	HistAccessType string `json:"hist_access_type"`
	Session        int    `json:"session"`
	Start          int    `json:"start"`
	Stop           *int   `json:"stop"`
	N              *int   `json:"n"`
	Pattern        string `json:"pattern"`
	Unique         bool   `json:"unique"`
}

// history answers history_request from this session's inputs. Items are
// [session, line, input], or [session, line, [input, output]] when output
// is requested; session 0 is this session, as IPython reports it.
func (k *kernel) history(r *request) {
	var c historyRequest
	if !k.decode(r, &c) {
		return
	}
	entries, err := queryHistory(k.hist, c)
	if err != nil {
		k.reply(r, "history_reply", errorContent("BadRequest", err.Error(), nil))
		return
	}
	items := make([]any, len(entries))
	for i, e := range entries {
		var v any = e.input
		if c.Output {
			v = []any{e.input, e.output}
		}
		items[i] = []any{0, e.line, v}
	}
	k.reply(r, "history_reply", map[string]any{"status": "ok", "history": items})
}

// queryHistory selects entries the way IPython's HistoryManager does for
// the current session.
func queryHistory(hist []historyEntry, c historyRequest) ([]historyEntry, error) {
	switch c.HistAccessType {
	case "tail":
		n := 10 // IPython's get_tail default
		if c.N != nil {
			n = *c.N
		}
		return tail(hist, n), nil
	case "range":
		// Only this session (0, or -0 relative) is kept.
		if c.Session != 0 {
			return nil, nil
		}
		// As IPython: lines are 1..len; negative start and stop count from
		// the end; a missing or zero stop means the end; stop is exclusive.
		end := len(hist) + 1
		start := c.Start
		if start < 0 {
			start += end
		}
		stop := end
		if c.Stop != nil && *c.Stop != 0 {
			stop = *c.Stop
			if stop < 0 {
				stop += end
			}
		}
		start, stop = max(start, 1), min(stop, end)
		if start >= stop {
			return nil, nil
		}
		return hist[start-1 : stop-1], nil
	case "search":
		pattern := c.Pattern
		if pattern == "" {
			pattern = "*"
		}
		re, err := globRegexp(pattern)
		if err != nil {
			return nil, err
		}
		var found []historyEntry
		seen := make(map[string]bool)
		// Newest first, so that unique keeps the latest occurrence.
		for i := len(hist) - 1; i >= 0; i-- {
			e := hist[i]
			if !re.MatchString(e.input) || (c.Unique && seen[e.input]) {
				continue
			}
			seen[e.input] = true
			found = append(found, e)
			if c.N != nil && *c.N > 0 && len(found) == *c.N {
				break
			}
		}
		for i, j := 0, len(found)-1; i < j; i, j = i+1, j-1 {
			found[i], found[j] = found[j], found[i]
		}
		return found, nil
	default:
		return nil, fmt.Errorf("kernel: history_request: unknown hist_access_type %q: want \"tail\", \"range\" or \"search\"", c.HistAccessType)
	}
}

// tail returns the last n entries.
func tail(hist []historyEntry, n int) []historyEntry {
	if n <= 0 {
		return nil
	}
	return hist[max(len(hist)-n, 0):]
}

// globRegexp compiles a glob with SQLite's GLOB syntax, which IPython's
// history search uses: * matches any text, ? one character, [abc], [a-z]
// and [^abc] character classes (an unclosed '[' matches nothing); matching
// is case-sensitive and covers the whole input.
func globRegexp(glob string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString(`\A(?s:`)
	rs := []rune(glob)
	for i := 0; i < len(rs); i++ {
		switch c := rs[i]; c {
		case '*':
			b.WriteString(`.*`)
		case '?':
			b.WriteString(`.`)
		case '[':
			// Find the closing bracket; a ']' right after '[' or '[^' is a
			// literal member.
			j := i + 1
			if j < len(rs) && rs[j] == '^' {
				j++
			}
			if j < len(rs) && rs[j] == ']' {
				j++
			}
			for j < len(rs) && rs[j] != ']' {
				j++
			}
			if j >= len(rs) {
				// No closing bracket: as in SQLite, nothing matches.
				b.WriteString(`[^\x00-\x{10FFFF}]`)
				i = len(rs)
				continue
			}
			b.WriteString(globClass(rs[i+1 : j]))
			i = j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`)\z`)
	return regexp.Compile(b.String())
}

// globClass turns the inside of a glob bracket expression into a regexp
// character class.
func globClass(body []rune) string {
	var b strings.Builder
	b.WriteByte('[')
	if len(body) > 0 && body[0] == '^' {
		b.WriteByte('^')
		body = body[1:]
	}
	for i, c := range body {
		switch {
		case c == '-' && i > 0 && i < len(body)-1:
			b.WriteByte('-') // a range such as a-z
		case strings.ContainsRune(`\]-[^`, c):
			b.WriteByte('\\')
			b.WriteRune(c)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte(']')
	return b.String()
}
