package interp

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
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
	// readers are the pipes' read ends; busy[i] is set while forwarder i
	// holds bytes it took from its pipe and has not written yet (see
	// sync).
	readers [2]syscall.RawConn
	busy    [2]atomic.Bool
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
		raw, err := p.r.SyscallConn()
		if err != nil {
			c.restore()
			return nil, fmt.Errorf("interp: capturing standard output and error: %w", err)
		}
		c.readers[i] = raw
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			defer p.r.Close()
			c.forward(p.w, raw, i)
		}()
	}
	return c, nil
}

// forward copies the pipe r to w, dropping sync markers and signalling
// each one on synced[i]. busy[i] is set before each read from the pipe
// and cleared once what the read took has been written: sync then knows
// that a forwarder that is not busy, of a pipe that is empty, has
// forwarded everything written before.
func (c *stdioCapture) forward(w io.Writer, r syscall.RawConn, i int) {
	synced, busy := c.synced[i], &c.busy[i]
	buf := make([]byte, 32<<10)
	var pending []byte
	for {
		var n int
		var err error
		rerr := r.Read(func(fd uintptr) bool {
			busy.Store(true)
			n, err = syscall.Read(int(fd), buf)
			if err == syscall.EINTR {
				return false
			}
			if err == syscall.EAGAIN {
				busy.Store(len(pending) > 0)
				return false // wait until the pipe is readable
			}
			return true
		})
		switch {
		case rerr != nil:
			err = rerr
		case err == nil && n == 0:
			err = io.EOF
		}
		n = max(n, 0)
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
			busy.Store(false)
			return
		}
		// A kept tail waits for the rest of a marker: the forwarder
		// stays busy, and sync writes its marker.
		busy.Store(len(pending) > 0)
	}
}

// sync waits until what was written to standard output and error so far
// has been forwarded, or for at most a tenth of a second. Both markers go
// out before it waits, so that the two forwarders pass them at once.
// When both pipes are empty and neither forwarder holds what it read,
// everything has been forwarded already and no marker goes out: a cell
// that printed nothing costs two system calls, not a round of the
// forwarders.
func (c *stdioCapture) sync() {
	if c.idle(0) && c.idle(1) {
		return
	}
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

// idle reports whether forwarder i has written everything written to its
// pipe so far. The pipe is looked at before the forwarder: a forwarder
// sets busy before its read takes bytes from the pipe, so bytes that were
// in the pipe are either still there or held by a busy forwarder.
func (c *stdioCapture) idle(i int) bool {
	unread := -1
	c.readers[i].Control(func(fd uintptr) {
		var n int32
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); e == 0 {
			unread = int(n)
		}
	})
	return unread == 0 && !c.busy[i].Load()
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
