package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gotensor/gotensor/protocol"
)

// channels names the five sockets in the order the relay listens.
var channels = []string{"hb", "iopub", "control", "stdin", "shell"}

// clientPort returns c's port for the channel named name.
func clientPort(c *protocol.ConnectionInfo, name string) int {
	switch name {
	case "shell":
		return c.ShellPort
	case "control":
		return c.ControlPort
	case "stdin":
		return c.StdinPort
	case "iopub":
		return c.IOPubPort
	case "hb":
		return c.HBPort
	}
	return 0
}

// A relay listens where the client expects the kernel and joins every
// connection it accepts to the same channel's socket on the node: a TCP
// byte pipe per connection, which ZeroMQ's protocol crosses unchanged.
// Connections accepted before the node is ready wait for it.
type relay struct {
	log         *slog.Logger
	dialTimeout time.Duration

	listeners map[string]net.Listener

	ready   chan struct{} // closed by setTarget
	target  Ready
	closing chan struct{} // closed by close
	wg      sync.WaitGroup

	mu       sync.Mutex
	conns    map[net.Conn]struct{}
	warnedMu sync.Mutex
	warned   map[string]bool // channels whose dial failure is logged
}

// listen starts a relay on the five endpoints of c.
func listen(c *protocol.ConnectionInfo, log *slog.Logger, dialTimeout time.Duration) (*relay, error) {
	r := &relay{
		log:         log,
		dialTimeout: dialTimeout,
		listeners:   make(map[string]net.Listener),
		ready:       make(chan struct{}),
		closing:     make(chan struct{}),
		conns:       make(map[net.Conn]struct{}),
		warned:      make(map[string]bool),
	}
	for _, name := range channels {
		ep := c.Endpoint(clientPort(c, name))
		network, addr := "tcp", strings.TrimPrefix(ep, "tcp://")
		if c.Transport == "ipc" {
			network, addr = "unix", strings.TrimPrefix(ep, "ipc://")
			os.Remove(addr) // a socket file left by an earlier kernel
		}
		l, err := net.Listen(network, addr)
		if err != nil {
			r.closeListeners()
			return nil, fmt.Errorf("remote: listening for the client's %s channel on %s: %w", name, ep, err)
		}
		r.listeners[name] = l
	}
	for name, l := range r.listeners {
		r.wg.Add(1)
		go r.accept(name, l)
	}
	return r, nil
}

// setTarget points the relay at the node's sockets; waiting connections
// go on.
func (r *relay) setTarget(t Ready) {
	r.target = t
	close(r.ready)
}

func (r *relay) accept(name string, l net.Listener) {
	defer r.wg.Done()
	for {
		c, err := l.Accept()
		if err != nil {
			select {
			case <-r.closing:
				return
			default:
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			r.log.Warn("remote: accepting a client connection failed", "channel", name, "err", err)
			time.Sleep(50 * time.Millisecond) // never spin
			continue
		}
		r.track(c, true)
		r.wg.Add(1)
		go r.pipe(name, c)
	}
}

func (r *relay) track(c net.Conn, add bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if add {
		r.conns[c] = struct{}{}
	} else {
		delete(r.conns, c)
	}
}

// pipe joins the client connection c to the node's socket of the channel
// named name, once the node is ready.
func (r *relay) pipe(name string, c net.Conn) {
	defer r.wg.Done()
	defer r.track(c, false)
	defer c.Close()
	select {
	case <-r.ready:
	case <-r.closing:
		return
	}
	addr := net.JoinHostPort(r.target.IP, strconv.Itoa(r.target.port(name)))
	n, err := r.dial(addr)
	if err != nil {
		r.warnedMu.Lock()
		first := !r.warned[name]
		r.warned[name] = true
		r.warnedMu.Unlock()
		if first {
			r.log.Warn("remote: cannot reach the kernel on the node (is a firewall between them?)", "channel", name, "addr", addr, "err", err)
		}
		return
	}
	r.track(n, true)
	defer r.track(n, false)
	defer n.Close()
	done := make(chan struct{}, 2)
	go func() { io.Copy(n, c); done <- struct{}{} }()
	go func() { io.Copy(c, n); done <- struct{}{} }()
	<-done // either side hung up: end both
}

// dial connects to addr, retrying while the kernel on the node binds its
// sockets (the node prints Ready just before), until dialTimeout.
func (r *relay) dial(addr string) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), r.dialTimeout)
	defer cancel()
	go func() {
		select {
		case <-r.closing:
			cancel()
		case <-ctx.Done():
		}
	}()
	var d net.Dialer
	for wait := 20 * time.Millisecond; ; wait = min(2*wait, time.Second) {
		n, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			return n, nil
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(wait):
		}
	}
}

func (r *relay) closeListeners() {
	for _, l := range r.listeners {
		l.Close()
	}
}

// close stops listening, gives the open connections up to grace to finish
// (the kernel's last replies are on their way when it exits), then cuts
// them.
func (r *relay) close(grace time.Duration) {
	select {
	case <-r.closing:
		return
	default:
	}
	close(r.closing)
	r.closeListeners()
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	select {
	case <-done:
		return
	case <-time.After(grace):
	}
	r.mu.Lock()
	for c := range r.conns {
		c.Close()
	}
	r.mu.Unlock()
	<-done
}
