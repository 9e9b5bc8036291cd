package interp

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"os"
	"sync"
	"syscall"
	"time"
)

// stdioCapture sends what the process writes to standard output and error
// into the running cell's streams, whoever writes it: interpreted fmt,
// compiled code writing to os.Stdout or os.Stderr, the log package, a
// goroutine.
//
// Standard output is file descriptor 1 itself, pointed at a pipe (dup2), and
// the interpreter writes there too: one pipe keeps everything in the order
// it was written (interpreted fmt and compiled code writing to os.Stdout
// would otherwise reach the notebook by two paths and overtake each other).
//
// Standard error is a pipe as well, but file descriptor 2 keeps pointing at
// the kernel's own standard error (its log): os.Stderr, the log package's
// output and the interpreter's standard error are pointed at the pipe
// instead. A Go runtime fatal error, which ends the process before any of
// our code can forward anything, then reaches the log whole, its reason and
// its stacks, rather than dying in a pipe.
type stdioCapture struct {
	stdout, stderr *os.File // the pipes' write ends: what cells write to
	savedStdout    *os.File // a duplicate of the original fd 1
	savedStderr    *os.File // the original os.Stderr (fd 2)
	wg             sync.WaitGroup
	synced         [2]chan struct{} // a forwarder got past the sync marker
}

// syncMarker is written to a captured stream to learn when everything
// written before it has been forwarded.
var syncMarker = []byte("\x00gotensor:sync\x00")

// captureStdio starts forwarding standard output to out and standard error
// to errOut.
func captureStdio(out, errOut io.Writer) (*stdioCapture, error) {
	c := &stdioCapture{synced: [2]chan struct{}{make(chan struct{}, 1), make(chan struct{}, 1)}}
	saved, err := syscall.Dup(1)
	if err != nil {
		return nil, fmt.Errorf("interp: capturing standard output: %w", err)
	}
	syscall.CloseOnExec(saved)
	c.savedStdout = os.NewFile(uintptr(saved), "/dev/stdout")

	rOut, wOut, err := os.Pipe()
	if err != nil {
		c.savedStdout.Close()
		return nil, fmt.Errorf("interp: capturing standard output: %w", err)
	}
	if err := syscall.Dup3(int(wOut.Fd()), 1, 0); err != nil {
		c.savedStdout.Close()
		rOut.Close()
		wOut.Close()
		return nil, fmt.Errorf("interp: capturing standard output: %w", err)
	}
	// fd 1 now holds the write end too; sync writes its markers through
	// wOut, and restore closes it. (An *os.File made for fd 1 itself would
	// close fd 1, the real standard output again by then, when collected.)
	c.stdout = wOut

	rErr, wErr, err := os.Pipe()
	if err != nil {
		c.restore()
		return nil, fmt.Errorf("interp: capturing standard error: %w", err)
	}
	c.stderr = wErr
	c.savedStderr = os.Stderr
	os.Stderr = wErr
	log.SetOutput(wErr)

	for i, p := range []struct {
		r *os.File
		w io.Writer
	}{{rOut, out}, {rErr, errOut}} {
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			defer p.r.Close()
			c.forward(p.w, p.r, c.synced[i])
		}()
	}
	return c, nil
}

// forward copies r to w, dropping sync markers and signalling each one.
func (c *stdioCapture) forward(w io.Writer, r io.Reader, synced chan struct{}) {
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

// sync waits until what was written to standard output and error so far
// has been forwarded, or for at most a tenth of a second. Both markers go
// out before it waits, so that the two forwarders pass them at once.
func (c *stdioCapture) sync() {
	timeout := time.After(100 * time.Millisecond)
	for i, f := range []*os.File{c.stdout, c.stderr} {
		select {
		case <-c.synced[i]: // drop a stale signal
		default:
		}
		f.Write(syncMarker)
	}
	for i := range c.synced {
		select {
		case <-c.synced[i]:
		case <-timeout:
			return
		}
	}
}

// restore points standard output and error back at the original files and
// waits until the forwarders have sent what was left in the pipes.
func (c *stdioCapture) restore() {
	if c.savedStdout != nil {
		syscall.Dup3(int(c.savedStdout.Fd()), 1, 0) // closes fd 1's write end of the pipe
		c.savedStdout.Close()
		c.savedStdout = nil
		c.stdout.Close() // the pipe's last write end: its forwarder ends
	}
	if c.savedStderr != nil {
		os.Stderr = c.savedStderr
		log.SetOutput(c.savedStderr)
		c.stderr.Close()
		c.savedStderr = nil
	}
	c.wg.Wait()
}
