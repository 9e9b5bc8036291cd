package nbrun

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gotensor/gotensor/kernel"
)

// terminal shows a run's progress to a person: a line per cell, the cell's
// stream text as it arrives and its rich outputs as their text/plain. On a
// terminal, an update of the display printed last (a progress bar) redraws
// it in place; elsewhere (a log file) updates of one display are printed at
// most every throttle, and its final state when the cell ends.
type terminal struct {
	mu       sync.Mutex
	w        io.Writer
	tty      bool
	throttle time.Duration

	inCell    bool
	header    string // "[3/12] cell 5"
	bare      bool   // only the header is on the current line
	lineStart bool   // the cursor is at the start of a line

	lastID    string // the display id printed last, when nothing followed it
	lastLines int    // how many lines it took

	printed map[string]time.Time // non-tty: when each id was last printed
	pending map[string]string    // non-tty: the latest text not printed
}

func newTerminal(w io.Writer) *terminal {
	if w == nil {
		w = io.Discard
	}
	return &terminal{w: w, tty: isTerminal(w), throttle: 10 * time.Second, lineStart: true}
}

// isTerminal reports whether w is a character device.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// begin prints the header of code cell k of n, cell index i of the notebook.
func (t *terminal) begin(k, n, i int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.newlineLocked()
	t.header = fmt.Sprintf("[%d/%d] cell %d", k, n, i+1)
	fmt.Fprintf(t.w, "%s ...", t.header)
	t.inCell, t.bare, t.lineStart = true, true, false
	t.lastID = ""
	t.printed = map[string]time.Time{}
	t.pending = map[string]string{}
}

// end prints how the cell ended.
func (t *terminal) end(d time.Duration, failed bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	ids := make([]string, 0, len(t.pending))
	for id := range t.pending {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		t.textLocked(t.pending[id], true)
	}
	t.inCell = false
	secs := fmt.Sprintf("%.1fs", d.Seconds())
	switch {
	case t.bare && failed:
		fmt.Fprintf(t.w, " failed after %s\n", secs)
	case t.bare:
		fmt.Fprintf(t.w, " %s\n", secs)
	case failed:
		t.newlineLocked()
		fmt.Fprintf(t.w, "%s failed after %s\n", t.header, secs)
	default:
		t.newlineLocked()
		fmt.Fprintf(t.w, "%s done in %s\n", t.header, secs)
	}
	t.bare, t.lineStart, t.lastID = false, true, ""
}

func (t *terminal) Stream(name, text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.inCell || text == "" {
		return
	}
	t.textLocked(text, false)
}

func (t *terminal) Display(b kernel.Bundle, id string, update bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.inCell {
		return // a live output redrawn after its cell ended
	}
	text := plainText(b)
	if !update || id == "" {
		t.textLocked(text, true)
		t.markLocked(id, text)
		return
	}
	if t.tty {
		if t.lastID == id {
			// The cursor is on the line below the display: back up to
			// the display's first line and clear from there down.
			fmt.Fprintf(t.w, "\x1b[%dA\r\x1b[J", t.lastLines)
		}
		t.textLocked(text, true)
		t.markLocked(id, text)
		return
	}
	if time.Since(t.printed[id]) < t.throttle {
		t.pending[id] = text
		return
	}
	t.textLocked(text, true)
	t.markLocked(id, text)
}

func (t *terminal) ClearOutput(wait bool) {}

// result prints a cell's last value.
func (t *terminal) result(b *kernel.Bundle, n int) {
	if b == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.textLocked(fmt.Sprintf("Out[%d]: %s", n, plainText(*b)), true)
}

// markLocked records that id's text was just printed.
func (t *terminal) markLocked(id, text string) {
	t.lastID = id
	t.lastLines = strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
	if id != "" {
		t.printed[id] = time.Now()
		delete(t.pending, id)
	}
}

// textLocked prints text after the header. Rich text (whole) goes on lines
// of its own; stream text continues where the last text stopped.
func (t *terminal) textLocked(text string, rich bool) {
	if t.bare {
		fmt.Fprintln(t.w)
		t.bare, t.lineStart = false, true
	}
	t.lastID = ""
	if text == "" {
		return
	}
	if rich {
		t.newlineLocked()
	}
	io.WriteString(t.w, text)
	t.lineStart = strings.HasSuffix(text, "\n")
	if rich {
		t.newlineLocked()
	}
}

func (t *terminal) newlineLocked() {
	if !t.lineStart {
		fmt.Fprintln(t.w)
		t.lineStart = true
	}
}

// plainText returns b's text/plain, or a note naming its richest type.
func plainText(b kernel.Bundle) string {
	if s, ok := b.Data["text/plain"].(string); ok {
		return s
	}
	for _, m := range []string{"text/html", "image/png", "image/svg+xml", "image/jpeg", "text/markdown", "text/latex", "application/json"} {
		if _, ok := b.Data[m]; ok {
			return "<" + m + " output>"
		}
	}
	return ""
}
