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
	held   bool                 // sends wait in the peers' held buffers; see hold
	closed bool
	// PUB: the subscribers still joining (connected, not subscribed
	// yet), each with the time after which settle stops waiting for it.
	joining map[chan struct{}]time.Time

	wg sync.WaitGroup // the accepting and reading goroutines
}

// listenSocket binds a ROUTER, or a PUB when pub is set, to endpoint
// ("tcp://host:port" or "ipc://path"). It accepts no connection until
// serve is called.
func listenSocket(name string, pub bool, endpoint string, log *slog.Logger) (*zsocket, error) {
	network, addr, ok := strings.Cut(endpoint, "://")
	s := &zsocket{name: name, pub: pub, log: log, byID: map[string]*zmtpConn{}, joining: map[chan struct{}]time.Time{}}
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
	joined := func() {}
	if s.pub {
		sockType, peers = "PUB", []string{"SUB", "XSUB"}
		joined = s.joiner()
		defer joined()
	}
	c, err := handshake(nc, peers)
	if err != nil {
		nc.Close()
		s.log.Warn("kernel: refused a connection", "socket", s.name, "peer", fmt.Sprint(nc.RemoteAddr()), "err", err)
		return
	}
	// The kernel's READY goes out once c is registered, ahead of
	// anything sent to it: a peer whose handshake is complete (a zmq4
	// Dial has returned) is then one a reply or an input_request can be
	// routed to at once.
	c.pending, c.flushing = appendCommand(nil, "READY", "Socket-Type", sockType), true
	if !s.add(c) {
		c.close()
		return
	}
	defer s.remove(c)
	c.flush()
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
			joined()
		case s.pub:
			// ZMTP 3.0 subscriptions: a one-frame message, 1 or 0 and
			// the topic. Anything else sent to a PUB is dropped.
			if len(frames) == 1 && len(frames[0]) > 0 && frames[0][0] <= 1 {
				c.subscribe(string(frames[0][1:]), frames[0][0] == 1)
			}
			joined()
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

// joinWait bounds how long settle waits for a subscriber that connected
// and has not subscribed yet.
const joinWait = 500 * time.Millisecond

// joiner counts a new connection to a PUB as joining until the returned
// function is called (at its first subscription, or when it ends).
func (s *zsocket) joiner() func() {
	ch := make(chan struct{})
	s.mu.Lock()
	s.joining[ch] = time.Now().Add(joinWait)
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			delete(s.joining, ch)
			s.mu.Unlock()
			close(ch)
		})
	}
}

// settle waits until the subscribers that connected less than joinWait
// ago have subscribed. A front end connects its SUB socket beside its
// shell socket and may send a request before its subscription has arrived
// (ZeroMQ's slow joiner): the request's busy and idle would go to nobody,
// and a client that waits for idle would wait forever. Nothing waits once
// every connected subscriber has subscribed.
func (s *zsocket) settle() {
	s.mu.Lock()
	if len(s.joining) == 0 {
		s.mu.Unlock()
		return
	}
	joining := make(map[chan struct{}]time.Time, len(s.joining))
	for ch, by := range s.joining {
		joining[ch] = by
	}
	s.mu.Unlock()
	for ch, by := range joining {
		wait := time.Until(by)
		if wait <= 0 {
			continue
		}
		t := time.NewTimer(wait)
		select {
		case <-ch:
		case <-t.C:
		}
		t.Stop()
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
		// As a ZeroMQ PUB, a subscriber that is gone or does not read
		// is no error of the publisher's: the others still get the
		// message.
		s.buf = appendMessage(s.buf[:0], frames)
		for _, c := range s.peers {
			if c.subscribed(frames[0]) {
				if e := s.sendTo(c, s.buf); e != nil {
					s.log.Debug("kernel: a subscriber missed a message", "socket", s.name, "err", e)
				}
			}
		}
	} else if c := s.byID[string(frames[0])]; c != nil {
		s.buf = appendMessage(s.buf[:0], frames[1:])
		err = s.sendTo(c, s.buf)
	}
	if cap(s.buf) > maxKeptBuffer {
		s.buf = nil
	}
	return err
}

// sendTo sends b to c, or keeps it in c's held buffer while s is held.
// s.mu is held.
func (s *zsocket) sendTo(c *zmtpConn, b []byte) error {
	if s.held {
		c.held = append(c.held, b...)
		return nil
	}
	return c.send(b)
}

// hold makes the messages sent from now on wait until release, which
// writes each peer's share with one system call: two messages sent a few
// microseconds apart (a request's busy status and execute_input) then
// cost the peer one wake-up, not two. Messages keep their order.
func (s *zsocket) hold() {
	s.mu.Lock()
	s.held = true
	s.mu.Unlock()
}

// release sends what was sent since hold.
func (s *zsocket) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.held {
		return
	}
	s.held = false
	for _, c := range s.peers {
		if len(c.held) > 0 {
			c.send(c.held)
			c.held = c.held[:0]
			if cap(c.held) > maxKeptBuffer {
				c.held = nil
			}
		}
	}
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
