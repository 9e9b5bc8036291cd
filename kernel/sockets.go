package kernel

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"time"
)

// A zsocket is one of the kernel's five ZeroMQ sockets, bound to an
// endpoint: a ROUTER (shell, control, stdin, heartbeat) or a PUB (iopub).
// It speaks ZMTP 3.0 (zmtp.go) to DEALER, REQ and ROUTER peers, or to SUB
// and XSUB ones, as libzmq does for a bound socket of its kind:
//
//   - ROUTER: each received message is handed to the socket's handler
//     with the identity of the peer that sent it as its first frame (the
//     peer's Identity, or a made-up one when it gave none); send routes a
//     message to the peer its first frame names, without that frame, and
//     drops it when no peer has that identity.
//   - PUB: send writes a message to every peer with a subscription that
//     is a prefix of the message's first frame; peers subscribe and
//     cancel with messages (ZMTP 3.0) or commands (ZMTP 3.1).
//
// Messages are written by the goroutine that sends them and never block
// it (a peer that does not read gets them queued, then dropped: see
// maxPending); received ones are handled by the goroutine that read them,
// one at a time for the whole socket.
type zsocket struct {
	name   string // "shell", "iopub" ... for errors and logs
	pub    bool   // a PUB socket; a ROUTER otherwise
	ln     net.Listener
	unlink string // the ipc socket file to remove on close
	log    *slog.Logger

	handleMu sync.Mutex // held while handle runs
	handle   func(frames [][]byte)

	mu     sync.Mutex
	peers  []*zmtpConn
	byID   map[string]*zmtpConn // ROUTER: the peers by identity
	nextID uint32               // for made-up identities
	buf    []byte               // the message being sent
	closed bool

	wg sync.WaitGroup // the accepting and reading goroutines
}

// listenSocket binds a ROUTER, or a PUB when pub is set, to endpoint
// ("tcp://host:port" or "ipc://path"). It accepts no connection until
// serve is called.
func listenSocket(name string, pub bool, endpoint string, log *slog.Logger) (*zsocket, error) {
	network, addr, ok := strings.Cut(endpoint, "://")
	s := &zsocket{name: name, pub: pub, log: log, byID: map[string]*zmtpConn{}}
	switch {
	case ok && network == "tcp":
		if host, port, err := net.SplitHostPort(addr); err == nil && host == "*" {
			addr = net.JoinHostPort("", port) // ZeroMQ's every-interface
		}
	case ok && network == "ipc":
		network, s.unlink = "unix", addr
	default:
		return nil, fmt.Errorf("unsupported endpoint %q: want tcp:// or ipc://", endpoint)
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, err
	}
	s.ln = ln
	return s, nil
}

// serve accepts connections and hands each message received on a ROUTER
// to handle; a PUB's handle is never called. It returns at once.
func (s *zsocket) serve(handle func(frames [][]byte)) {
	s.handle = handle
	s.wg.Add(1)
	go s.accept()
}

func (s *zsocket) accept() {
	defer s.wg.Done()
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			if s.isClosed() || errors.Is(err, net.ErrClosed) {
				return
			}
			s.log.Warn("kernel: accept failed", "socket", s.name, "err", err)
			time.Sleep(10 * time.Millisecond) // never spin
			continue
		}
		s.wg.Add(1)
		go s.serveConn(nc)
	}
}

// serveConn shakes hands with a new peer and reads from it until it goes.
func (s *zsocket) serveConn(nc net.Conn) {
	defer s.wg.Done()
	sockType, peers := "ROUTER", []string{"DEALER", "REQ", "ROUTER"}
	if s.pub {
		sockType, peers = "PUB", []string{"SUB", "XSUB"}
	}
	c, err := handshake(nc, sockType, peers)
	if err != nil {
		nc.Close()
		s.log.Warn("kernel: refused a connection", "socket", s.name, "peer", fmt.Sprint(nc.RemoteAddr()), "err", err)
		return
	}
	if !s.add(c) {
		c.close()
		return
	}
	defer s.remove(c)
	for {
		frames, isCommand, err := c.readMessage()
		if err != nil {
			if !s.isClosed() && !errors.Is(err, net.ErrClosed) && !errors.Is(err, io.EOF) {
				s.log.Debug("kernel: connection ended", "socket", s.name, "err", err)
			}
			return
		}
		switch {
		case isCommand:
			s.command(c, frames[0])
		case s.pub:
			// ZMTP 3.0 subscriptions: a one-frame message, 1 or 0 and
			// the topic. Anything else sent to a PUB is dropped.
			if len(frames) == 1 && len(frames[0]) > 0 && frames[0][0] <= 1 {
				c.subscribe(string(frames[0][1:]), frames[0][0] == 1)
			}
		default:
			frames = append([][]byte{c.identity}, frames...)
			s.handleMu.Lock()
			s.handle(frames)
			s.handleMu.Unlock()
		}
	}
}

// command handles a command received after the handshake: ZMTP 3.1's
// SUBSCRIBE and CANCEL on a PUB, and PING, answered with PONG. Others are
// ignored.
func (s *zsocket) command(c *zmtpConn, body []byte) {
	name, _, ok := parseCommand(body)
	if !ok {
		return
	}
	rest := body[1+len(name):]
	switch {
	case s.pub && name == "SUBSCRIBE":
		c.subscribe(string(rest), true)
	case s.pub && name == "CANCEL":
		c.subscribe(string(rest), false)
	case name == "PING" && len(rest) >= 2:
		// A PING is a TTL of two bytes and a context that PONG returns.
		c.send(appendFrame(nil, zmtpCommand, append([]byte("\x04PONG"), rest[2:]...)))
	}
}

// add registers c, giving it an identity if it has none (five bytes, a
// zero and a counter, as libzmq makes them). A newer peer with an
// identity already taken replaces the older one for routing.
func (s *zsocket) add(c *zmtpConn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	if !s.pub {
		if len(c.identity) == 0 {
			s.nextID++
			c.identity = []byte{0, byte(s.nextID >> 24), byte(s.nextID >> 16), byte(s.nextID >> 8), byte(s.nextID)}
		}
		s.byID[string(c.identity)] = c
	}
	s.peers = append(s.peers, c)
	return true
}

func (s *zsocket) remove(c *zmtpConn) {
	c.close()
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, p := range s.peers {
		if p == c {
			s.peers = append(s.peers[:i], s.peers[i+1:]...)
			break
		}
	}
	if !s.pub && s.byID[string(c.identity)] == c {
		delete(s.byID, string(c.identity))
	}
}

// maxKeptBuffer is the largest send buffer kept for the next message.
const maxKeptBuffer = 1 << 20

// send sends a message: on a ROUTER, to the peer frames[0] names; on a
// PUB, to the subscribers of frames[0].
func (s *zsocket) send(frames [][]byte) error {
	if len(frames) == 0 {
		return errors.New("an empty message")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return net.ErrClosed
	}
	var err error
	if s.pub {
		s.buf = appendMessage(s.buf[:0], frames)
		for _, c := range s.peers {
			if c.subscribed(frames[0]) {
				if e := c.send(s.buf); e != nil && err == nil {
					err = e
				}
			}
		}
	} else if c := s.byID[string(frames[0])]; c != nil {
		s.buf = appendMessage(s.buf[:0], frames[1:])
		err = c.send(s.buf)
	}
	if cap(s.buf) > maxKeptBuffer {
		s.buf = nil
	}
	return err
}

func (s *zsocket) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// close stops accepting, closes every connection and removes an ipc
// socket's file. The reading goroutines end soon after; wait waits for
// them.
func (s *zsocket) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	peers := append([]*zmtpConn(nil), s.peers...)
	s.mu.Unlock()
	s.ln.Close()
	for _, c := range peers {
		c.close()
	}
	if s.unlink != "" {
		os.Remove(s.unlink)
	}
}

// wait waits for the socket's goroutines to end after close.
func (s *zsocket) wait() { s.wg.Wait() }
