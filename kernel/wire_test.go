package kernel

import (
	"bytes"
	"encoding/binary"
	"net"
	"testing"
)

// recordConn is a net.Conn that records what each Write call passed on.
type recordConn struct {
	net.Conn
	writes [][]byte
}

func (c *recordConn) Write(p []byte) (int, error) {
	c.writes = append(c.writes, bytes.Clone(p))
	return len(p), nil
}

// zmtpFrame encodes one frame as ZMTP 3 (RFC 23) writes it: a flags byte
// (MORE 0x01, LONG 0x02, COMMAND 0x04), a one-byte size or, from 256
// bytes, an eight-byte big-endian size, and the body.
func zmtpFrame(flags byte, body []byte) []byte {
	if len(body) > 255 {
		b := []byte{flags | 0x02, 0, 0, 0, 0, 0, 0, 0, 0}
		binary.BigEndian.PutUint64(b[1:], uint64(len(body)))
		return append(b, body...)
	}
	return append([]byte{flags, byte(len(body))}, body...)
}

// zmtpMessage encodes a message: every frame but the last has MORE set.
func zmtpMessage(frames ...[]byte) []byte {
	var b []byte
	for i, f := range frames {
		flags := byte(0)
		if i < len(frames)-1 {
			flags = 0x01
		}
		b = append(b, zmtpFrame(flags, f)...)
	}
	return b
}

// TestMessageConnWrites checks that a messageConn passes on each greeting,
// command and message with one Write, whatever pieces it is written in,
// and that the bytes are unchanged.
func TestMessageConnWrites(t *testing.T) {
	greeting := append([]byte{0xff, 0, 0, 0, 0, 0, 0, 0, 1, 0x7f, 3, 0}, make([]byte, 52)...)
	ready := zmtpFrame(0x04, []byte("\x05READY\x0bSocket-Type\x00\x00\x00\x06ROUTER"))
	units := [][]byte{
		greeting,
		ready,
		zmtpMessage([]byte("<IDS|MSG>"), []byte("sig"), []byte(`{"msg_type":"status"}`), []byte("{}"), []byte("{}"), []byte(`{"execution_state":"busy"}`)),
		zmtpMessage([]byte("one frame")),
		zmtpMessage([]byte{}), // an empty message
		zmtpMessage([]byte("a"), bytes.Repeat([]byte("m"), 300), []byte{}), // a long frame that is not last, an empty last one
		zmtpFrame(0x04, []byte("\x04PING\x00\x00")),
	}
	var stream []byte
	for _, u := range units {
		stream = append(stream, u...)
	}

	for _, split := range []struct {
		name   string
		pieces func([]byte) [][]byte
	}{
		{"whole", func(b []byte) [][]byte { return [][]byte{b} }},
		{"bytes", func(b []byte) [][]byte {
			var ps [][]byte
			for i := range b {
				ps = append(ps, b[i:i+1])
			}
			return ps
		}},
		{"sevens", func(b []byte) [][]byte {
			var ps [][]byte
			for len(b) > 7 {
				ps, b = append(ps, b[:7]), b[7:]
			}
			return append(ps, b)
		}},
	} {
		rc := &recordConn{}
		c := newMessageConn(rc)
		for _, p := range split.pieces(stream) {
			if n, err := c.Write(p); n != len(p) || err != nil {
				t.Fatalf("%s: Write = %d, %v; want %d, nil", split.name, n, err, len(p))
			}
		}
		if len(rc.writes) != len(units) {
			t.Errorf("%s: %d writes, want one for each of the %d greetings, commands and messages", split.name, len(rc.writes), len(units))
			continue
		}
		for i, w := range rc.writes {
			if !bytes.Equal(w, units[i]) {
				t.Errorf("%s: write %d = %q, want %q", split.name, i, w, units[i])
			}
		}
	}
}

// TestMessageConnLargeBody checks that a body of directBody bytes or more
// is passed on from the caller's slice, behind what was buffered, and that
// the stream is unchanged.
func TestMessageConnLargeBody(t *testing.T) {
	greeting := make([]byte, 64)
	big := bytes.Repeat([]byte("x"), 70000)
	msg := zmtpMessage([]byte("head"), big, []byte("tail"))
	rc := &recordConn{}
	c := newMessageConn(rc)
	// As zmq4 writes it: the greeting, then each frame's header and body.
	c.Write(greeting)
	c.Write(msg[:6])       // "head" frame header and body
	c.Write(msg[6:15])     // the long frame's header
	c.Write(msg[15:70015]) // its body
	c.Write(msg[70015:])   // the last frame
	got := bytes.Join(rc.writes, nil)
	if want := append(append([]byte{}, greeting...), msg...); !bytes.Equal(got, want) {
		t.Fatalf("the stream changed: got %d bytes, want %d", len(got), len(want))
	}
	// The greeting; what was buffered, then the body (net.Buffers writes
	// them in turn to a conn that is no *net.TCPConn); the last frame.
	if len(rc.writes) != 4 || len(rc.writes[2]) != len(big) {
		sizes := []int{}
		for _, w := range rc.writes {
			sizes = append(sizes, len(w))
		}
		t.Errorf("write sizes %v, want [64 15 70000 6]", sizes)
	}
}

func TestListenEndpoint(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"tcp://127.0.0.1:5555", wireTCP + "://127.0.0.1:5555"},
		{"tcp://[::1]:5555", wireTCP + "://[::1]:5555"},
		{"ipc:///tmp/kernel-abc-3", wireIPC + ":///tmp/kernel-abc-3"},
	} {
		if got := listenEndpoint(c.in); got != c.want {
			t.Errorf("listenEndpoint(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
