package interp

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"
)

// fdCapture redirects the process's file descriptors 1 and 2 into pipes
// whose readers forward to the session's streams, so that what compiled code
// writes to os.Stdout and os.Stderr reaches the running cell.
type fdCapture struct {
	saved  [2]*os.File // the original stdout and stderr, dup'ed
	wg     sync.WaitGroup
	synced [2]chan struct{} // a forwarder got past the sync marker
}

// syncMarker is written to a captured fd to learn when everything written
// before it has been forwarded.
var syncMarker = []byte("\x00gotensor:sync\x00")

// captureFDs starts the redirection of fds 1 and 2 to out and errOut.
func captureFDs(out, errOut io.Writer) (*fdCapture, error) {
	c := &fdCapture{synced: [2]chan struct{}{make(chan struct{}, 1), make(chan struct{}, 1)}}
	for i, w := range []io.Writer{out, errOut} {
		fd := i + 1
		saved, err := syscall.Dup(fd)
		if err != nil {
			c.restore()
			return nil, fmt.Errorf("interp: capturing fd %d: %w", fd, err)
		}
		syscall.CloseOnExec(saved)
		r, pw, err := os.Pipe()
		if err != nil {
			syscall.Close(saved)
			c.restore()
			return nil, fmt.Errorf("interp: capturing fd %d: %w", fd, err)
		}
		if err := syscall.Dup3(int(pw.Fd()), fd, 0); err != nil {
			syscall.Close(saved)
			r.Close()
			pw.Close()
			c.restore()
			return nil, fmt.Errorf("interp: capturing fd %d: %w", fd, err)
		}
		pw.Close() // fd now holds the only write end
		c.saved[i] = os.NewFile(uintptr(saved), []string{"/dev/stdout", "/dev/stderr"}[i])
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			defer r.Close()
			c.forward(w, r, c.synced[i])
		}()
	}
	return c, nil
}

// forward copies r to w, dropping sync markers and signalling each one.
func (c *fdCapture) forward(w io.Writer, r io.Reader, synced chan struct{}) {
	buf := make([]byte, 32<<10)
	var pending []byte
	for {
		n, err := r.Read(buf)
		pending = append(pending, buf[:n]...)
		for {
			i := bytes.Index(pending, syncMarker)
			if i < 0 {
				break
			}
			w.Write(pending[:i])
			pending = pending[i+len(syncMarker):]
			select {
			case synced <- struct{}{}:
			default:
			}
		}
		// Keep a tail that may be the start of a marker.
		keep := 0
		for k := len(syncMarker) - 1; k > 0; k-- {
			if len(pending) >= k && bytes.Equal(pending[len(pending)-k:], syncMarker[:k]) {
				keep = k
				break
			}
		}
		if len(pending) > keep {
			w.Write(pending[:len(pending)-keep])
			pending = append(pending[:0], pending[len(pending)-keep:]...)
		}
		if err != nil {
			w.Write(pending)
			return
		}
	}
}

// sync waits until what was written to fds 1 and 2 so far has been
// forwarded, or for at most a tenth of a second.
func (c *fdCapture) sync() {
	timeout := time.After(100 * time.Millisecond)
	for i := range 2 {
		select {
		case <-c.synced[i]: // drop a stale signal
		default:
		}
		syscall.Write(i+1, syncMarker)
		select {
		case <-c.synced[i]:
		case <-timeout:
			return
		}
	}
}

// restore points fds 1 and 2 back at the original files and waits until the
// forwarders have sent what was left in the pipes.
func (c *fdCapture) restore() {
	for i, f := range c.saved {
		if f != nil {
			syscall.Dup3(int(f.Fd()), i+1, 0)
		}
	}
	c.wg.Wait()
}
