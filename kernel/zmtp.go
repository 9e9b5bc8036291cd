package kernel

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"
)

// The kernel speaks ZMTP 3.0 (https://rfc.zeromq.org/spec/23/) with the
// NULL mechanism on its own sockets (sockets.go), so that a message is
// written by the goroutine that sends it, in one system call, and a
// received one is handed to the kernel by the goroutine that read it:
// github.com/go-zeromq/zmq4 passed every message through a goroutine of
// its own and a channel on each side. This file is one connection: the
// handshake, the framing and the writes.

// ZMTP frame flags.
const (
	zmtpMore    = 0x01
	zmtpLong    = 0x02
	zmtpCommand = 0x04
)

const (
	zmtpGreetingSize = 64
	// handshakeTimeout bounds the greeting and READY exchange of a new
	// connection, so that a peer that connects and says nothing does not
	// hold a goroutine forever.
	handshakeTimeout = 10 * time.Second
	// maxPending bounds the bytes queued for a peer that does not read
	// (a suspended front end): beyond it, whole messages are dropped, as
	// ZeroMQ drops them beyond its high-water mark, and the kernel never
	// blocks on a slow peer.
	maxPending = 64 << 20
	// smallFrame is the largest frame body read into memory sized from
	// its header; a larger one grows as its bytes arrive, so that a bogus
	// size does not allocate.
	smallFrame = 1 << 20
)

// errDropped is returned by send for a message dropped because the peer
// has maxPending bytes waiting.
var errDropped = errors.New("the peer is not reading: message dropped")

// zmtpConn is one ZMTP connection accepted by a kernel socket.
type zmtpConn struct {
	nc       net.Conn
	r        *bufio.Reader
	peerType string // the peer's Socket-Type, e.g. "DEALER"
	identity []byte // the peer's Identity, or one made up for it

	mu       sync.Mutex
	pending  []byte // bytes queued behind a write that could not finish
	flushing bool   // a goroutine is writing pending; send queues behind it
	closed   bool
	subs     map[string]int // a subscriber's topics, with how often each is subscribed

	held []byte // messages held by the socket (zsocket.hold); guarded by the socket's mu
}

// zmtpGreeting returns the greeting of a NULL-mechanism ZMTP 3.0 peer
// that is not a server.
func zmtpGreeting() []byte {
	g := make([]byte, zmtpGreetingSize)
	g[0], g[9] = 0xff, 0x7f // signature: 0xff, 8 bytes of padding, 0x7f
	g[10], g[11] = 3, 0     // version 3.0
	copy(g[12:32], "NULL")  // mechanism, padded with zeros; as-server 0
	return g
}

// handshake exchanges greetings with the peer of nc, reads its READY
// command and checks that its socket type is one of peers. The caller
// sends the kernel's READY (see zsocket.serveConn).
func handshake(nc net.Conn, peers []string) (*zmtpConn, error) {
	c := &zmtpConn{nc: nc, r: bufio.NewReaderSize(nc, 16<<10)}
	nc.SetDeadline(time.Now().Add(handshakeTimeout))
	defer nc.SetDeadline(time.Time{})

	if _, err := nc.Write(zmtpGreeting()); err != nil {
		return nil, fmt.Errorf("sending the greeting: %w", err)
	}
	var g [zmtpGreetingSize]byte
	if _, err := io.ReadFull(c.r, g[:]); err != nil {
		return nil, fmt.Errorf("reading the peer's greeting: %w", err)
	}
	if g[0] != 0xff || g[9]&1 != 1 {
		return nil, fmt.Errorf("the peer did not send a ZMTP greeting (it starts % x)", g[:10])
	}
	if g[10] < 3 {
		return nil, fmt.Errorf("the peer speaks ZMTP %d.%d; only 3.x is supported", g[10], g[11])
	}
	if mech := string(bytes.TrimRight(g[12:32], "\x00")); mech != "NULL" {
		return nil, fmt.Errorf("the peer asks for the %q security mechanism; only NULL is supported", mech)
	}
	flags, body, err := c.readFrame()
	if err != nil {
		return nil, fmt.Errorf("reading the peer's READY: %w", err)
	}
	name, props, ok := parseCommand(body)
	if flags&zmtpCommand == 0 || !ok || name != "READY" {
		return nil, fmt.Errorf("the peer's first command is not READY (%.20q)", body)
	}
	c.peerType = props["socket-type"]
	c.identity = []byte(props["identity"])
	for _, p := range peers {
		if c.peerType == p {
			return c, nil
		}
	}
	return nil, fmt.Errorf("cannot talk to a %q socket (want %s)", c.peerType, strings.Join(peers, " or "))
}

// appendCommand appends a command frame with the given name and
// metadata properties (name, value pairs) to b.
func appendCommand(b []byte, name string, props ...string) []byte {
	body := append([]byte{byte(len(name))}, name...)
	for i := 0; i+1 < len(props); i += 2 {
		body = append(body, byte(len(props[i])))
		body = append(body, props[i]...)
		body = binary.BigEndian.AppendUint32(body, uint32(len(props[i+1])))
		body = append(body, props[i+1]...)
	}
	return appendFrame(b, zmtpCommand, body)
}

// parseCommand splits a command frame's body into its name and, for
// READY, its metadata properties, whose names are lower-cased (they are
// case-insensitive).
func parseCommand(body []byte) (name string, props map[string]string, ok bool) {
	if len(body) < 1 || len(body) < 1+int(body[0]) {
		return "", nil, false
	}
	name, rest := string(body[1:1+int(body[0])]), body[1+int(body[0]):]
	if name != "READY" {
		return name, nil, true
	}
	props = map[string]string{}
	for len(rest) > 0 {
		n := int(rest[0])
		if len(rest) < 1+n+4 {
			return name, nil, false
		}
		key := strings.ToLower(string(rest[1 : 1+n]))
		size := binary.BigEndian.Uint32(rest[1+n:])
		rest = rest[1+n+4:]
		if uint64(len(rest)) < uint64(size) {
			return name, nil, false
		}
		props[key], rest = string(rest[:size]), rest[size:]
	}
	return name, props, true
}

// appendFrame appends one frame, its flags (zmtpMore, zmtpCommand) and
// body, to b.
func appendFrame(b []byte, flags byte, body []byte) []byte {
	if len(body) > 255 {
		b = append(b, flags|zmtpLong)
		b = binary.BigEndian.AppendUint64(b, uint64(len(body)))
	} else {
		b = append(b, flags, byte(len(body)))
	}
	return append(b, body...)
}

// appendMessage appends frames to b as one message.
func appendMessage(b []byte, frames [][]byte) []byte {
	for i, f := range frames {
		var flags byte
		if i < len(frames)-1 {
			flags = zmtpMore
		}
		b = appendFrame(b, flags, f)
	}
	return b
}

// readFrame reads one frame.
func (c *zmtpConn) readFrame() (flags byte, body []byte, err error) {
	var hdr [9]byte
	if _, err := io.ReadFull(c.r, hdr[:2]); err != nil {
		return 0, nil, err
	}
	flags = hdr[0]
	size := uint64(hdr[1])
	if flags&zmtpLong != 0 {
		if _, err := io.ReadFull(c.r, hdr[2:]); err != nil {
			return 0, nil, err
		}
		size = binary.BigEndian.Uint64(hdr[1:])
	}
	if size <= smallFrame {
		body = make([]byte, size)
		_, err = io.ReadFull(c.r, body)
		return flags, body, err
	}
	if size > 1<<40 {
		return 0, nil, fmt.Errorf("a frame of %d bytes is too large", size)
	}
	var buf bytes.Buffer
	if _, err := io.CopyN(&buf, c.r, int64(size)); err != nil {
		return 0, nil, err
	}
	return flags, buf.Bytes(), nil
}

// readMessage reads the next message, or the next command: for a command
// it returns its body as the only frame and isCommand true.
func (c *zmtpConn) readMessage() (frames [][]byte, isCommand bool, err error) {
	for {
		flags, body, err := c.readFrame()
		if err != nil {
			return nil, false, err
		}
		if flags&zmtpCommand != 0 {
			if len(frames) > 0 {
				return nil, false, errors.New("a command inside a message")
			}
			return [][]byte{body}, true, nil
		}
		frames = append(frames, body)
		if flags&zmtpMore == 0 {
			return frames, false, nil
		}
	}
}

// send writes b, one or more whole messages, to the peer. It does not
// block: what the connection does not take at once is queued and written
// by a goroutine, behind which later messages queue until it is done.
func (c *zmtpConn) send(b []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.closed:
		return net.ErrClosed
	case c.flushing && len(c.pending) >= maxPending:
		return errDropped
	case c.flushing:
		c.pending = append(c.pending, b...)
		return nil
	}
	n, err := tryWrite(c.nc, b)
	if err != nil {
		c.closeLocked()
		return err
	}
	if n < len(b) {
		c.pending = append(c.pending[:0], b[n:]...)
		c.flushing = true
		go c.flush()
	}
	return nil
}

// flush writes what send queued until nothing is left.
func (c *zmtpConn) flush() {
	for {
		c.mu.Lock()
		b := c.pending
		if len(b) == 0 || c.closed {
			c.flushing = false
			c.mu.Unlock()
			return
		}
		c.pending = nil
		c.mu.Unlock()
		if _, err := c.nc.Write(b); err != nil {
			c.close()
			return
		}
	}
}

func (c *zmtpConn) close() {
	c.mu.Lock()
	c.closeLocked()
	c.mu.Unlock()
}

func (c *zmtpConn) closeLocked() {
	if !c.closed {
		c.closed = true
		c.pending = nil
		c.nc.Close()
	}
}

// subscribe applies a subscriber's SUBSCRIBE (on) or CANCEL (off) of
// topic.
func (c *zmtpConn) subscribe(topic string, on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.subs == nil {
		c.subs = map[string]int{}
	}
	switch {
	case on:
		c.subs[topic]++
	case c.subs[topic] > 1:
		c.subs[topic]--
	default:
		delete(c.subs, topic)
	}
}

// subscribed reports whether a subscriber takes messages whose first
// frame is topic: whether one of its subscriptions is a prefix of it.
func (c *zmtpConn) subscribed(topic []byte) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for s := range c.subs {
		if bytes.HasPrefix(topic, []byte(s)) {
			return true
		}
	}
	return false
}
