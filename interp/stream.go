package interp

import (
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gotensor/gotensor/kernel"
)

// flushDelay is how long written text may wait before it is sent: output
// arrives in batches, neither character by character nor only at the end.
const flushDelay = 50 * time.Millisecond

// maxPending is the buffered size that triggers an immediate flush.
const maxPending = 64 << 10

// stream batches what a cell writes to stdout or stderr and sends it to the
// session's current Output.
type stream struct {
	name string
	out  func() kernel.Output // the running cell's output; nil between cells

	mu    sync.Mutex
	buf   []byte
	timer *time.Timer
}

// Write buffers p and arranges for it to be sent within flushDelay.
func (w *stream) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.buf = append(w.buf, p...)
	full := len(w.buf) >= maxPending
	if !full && w.timer == nil {
		w.timer = time.AfterFunc(flushDelay, w.flush)
	}
	w.mu.Unlock()
	if full {
		w.flush()
	}
	return len(p), nil
}

// WriteString is Write for strings.
func (w *stream) WriteString(s string) (int, error) { return w.Write([]byte(s)) }

// flush sends the buffered text, keeping an incomplete trailing UTF-8
// sequence for the next flush. Between cells the text waits for the next
// cell.
func (w *stream) flush() { w.send(false) }

// flushAll sends everything buffered.
func (w *stream) flushAll() { w.send(true) }

func (w *stream) send(all bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	out := w.out()
	if out == nil || len(w.buf) == 0 {
		return
	}
	n := len(w.buf)
	if !all {
		n = completeUTF8(w.buf)
	}
	if n == 0 {
		return
	}
	text := string(w.buf[:n])
	w.buf = append(w.buf[:0], w.buf[n:]...)
	// Sending under the lock keeps the order of concurrent writers.
	out.Stream(w.name, text)
}

// completeUTF8 returns the length of the longest prefix of b that does not
// end inside a UTF-8 sequence.
func completeUTF8(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}
