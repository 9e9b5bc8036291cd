package kernel

import (
	"bufio"
	"context"
	"encoding/binary"
	"net"
	"strings"
	"sync"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/transport"
)

// zmq4 v0.17.0 writes each frame of a message with two system calls (its
// size, then its body) and reads it with two more: a reply of seven frames
// took fourteen writes, and a request's five messages about seventy, each
// one a trip through the TCP stack and a wake-up of the front end. The
// kernel's sockets therefore listen through transports of their own, under
// the names below, whose connections buffer a message's frames and write
// them with one call when its last frame is complete, and read through a
// buffer. Only the system calls change: the bytes on the wire are the same.
const (
	wireTCP = "gotensor-tcp"
	wireIPC = "gotensor-ipc"
)

func init() {
	// Registering twice is an error only for a name already taken, and
	// nothing else in the process uses these names.
	_ = zmq4.RegisterTransport(wireTCP, wire{transport.New("tcp")})
	_ = zmq4.RegisterTransport(wireIPC, wire{transport.New("unix")})
}

// listenEndpoint returns the endpoint the kernel listens on for ep (as
// protocol.ConnectionInfo.Endpoint writes it): the same address on the
// kernel's own transport.
func listenEndpoint(ep string) string {
	if rest, ok := strings.CutPrefix(ep, "tcp://"); ok {
		return wireTCP + "://" + rest
	}
	if rest, ok := strings.CutPrefix(ep, "ipc://"); ok {
		return wireIPC + "://" + rest
	}
	return ep
}

// wire is a zmq4 transport whose connections are messageConns.
type wire struct{ transport.Transport }

// Listen listens as the wrapped transport does; what it accepts is
// wrapped.
func (w wire) Listen(ctx context.Context, addr string) (net.Listener, error) {
	l, err := w.Transport.Listen(ctx, addr)
	if err != nil {
		return nil, err
	}
	return wireListener{l}, nil
}

// Dial dials as the wrapped transport does and wraps the connection.
func (w wire) Dial(ctx context.Context, d transport.Dialer, addr string) (net.Conn, error) {
	c, err := w.Transport.Dial(ctx, d, addr)
	if err != nil {
		return nil, err
	}
	return newMessageConn(c), nil
}

type wireListener struct{ net.Listener }

func (l wireListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return newMessageConn(c), nil
}

// ZMTP 3 framing: a 64-byte greeting, then frames, each a flags byte, a
// size (one byte, or eight when the long flag is set) and a body.
const (
	zmtpGreeting = 64
	zmtpMore     = 0x01
	zmtpLong     = 0x02
	zmtpCommand  = 0x04
)

// directBody is the size from which a frame's body is written from the
// caller's slice (with what is buffered before it, in one writev) rather
// than copied into the buffer.
const directBody = 32 << 10

// messageConn is a ZMTP connection that writes whole messages: it follows
// the framing of the bytes written to it and passes them on when a
// message's last frame, a command or the greeting is complete. Reads go
// through a buffer.
type messageConn struct {
	net.Conn
	r *bufio.Reader

	mu  sync.Mutex
	buf []byte // written, not yet passed on

	greeting int    // greeting bytes still to come
	hdr      []byte // the frame header read so far (flags, size)
	body     uint64 // body bytes still to come in the current frame
	last     bool   // the current frame ends a message or is a command
}

func newMessageConn(c net.Conn) *messageConn {
	return &messageConn{Conn: c, r: bufio.NewReaderSize(c, 16<<10), greeting: zmtpGreeting, hdr: make([]byte, 0, 9)}
}

func (c *messageConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// Write takes p as the next bytes of the stream and passes on every
// complete greeting, command or message; it reports len(p) written once
// they are.
func (c *messageConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		switch {
		case c.greeting > 0:
			k := min(c.greeting, len(p))
			c.buf = append(c.buf, p[:k]...)
			p, c.greeting = p[k:], c.greeting-k
			if c.greeting == 0 {
				if err := c.flush(nil); err != nil {
					return 0, err
				}
			}
		case c.body > 0:
			k := int(min(c.body, uint64(len(p))))
			c.body -= uint64(k)
			if k >= directBody {
				// A large body goes out from p, behind what is
				// buffered, rather than through a copy.
				if err := c.flush(p[:k]); err != nil {
					return 0, err
				}
				p = p[k:]
				continue
			}
			c.buf = append(c.buf, p[:k]...)
			p = p[k:]
			if c.body == 0 && c.last {
				if err := c.flush(nil); err != nil {
					return 0, err
				}
			}
		default:
			// A frame header: flags, then one or eight bytes of size.
			c.hdr = append(c.hdr, p[0])
			c.buf = append(c.buf, p[0])
			p = p[1:]
			flags := c.hdr[0]
			size := 2
			if flags&zmtpLong != 0 {
				size = 9
			}
			if len(c.hdr) < size {
				continue
			}
			if size == 2 {
				c.body = uint64(c.hdr[1])
			} else {
				c.body = binary.BigEndian.Uint64(c.hdr[1:])
			}
			c.last = flags&zmtpMore == 0 || flags&zmtpCommand != 0
			c.hdr = c.hdr[:0]
			if c.body == 0 && c.last {
				if err := c.flush(nil); err != nil {
					return 0, err
				}
			}
		}
	}
	return n, nil
}

// flush writes what is buffered, then tail, with one call.
func (c *messageConn) flush(tail []byte) error {
	var err error
	switch {
	case len(tail) == 0 && len(c.buf) == 0:
		return nil
	case len(tail) == 0:
		_, err = c.Conn.Write(c.buf)
	case len(c.buf) == 0:
		_, err = c.Conn.Write(tail)
	default:
		bufs := net.Buffers{c.buf, tail}
		_, err = bufs.WriteTo(c.Conn)
	}
	c.buf = c.buf[:0]
	if cap(c.buf) > 4*directBody {
		c.buf = nil // a large message's buffer is not kept
	}
	return err
}
