package kernel

import (
	"bytes"
	"io"
	"log/slog"
	"net"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// listenTest binds a kernel socket on a free port of 127.0.0.1 and serves
// it, sending what a ROUTER receives to the returned channel.
func listenTest(t *testing.T, pub bool) (*zsocket, string, chan [][]byte) {
	t.Helper()
	ep := "tcp://127.0.0.1:" + strconv.Itoa(freePorts(t, 1)[0])
	s, err := listenSocket("test", pub, ep, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan [][]byte, 16)
	s.serve(func(frames [][]byte) { got <- frames })
	t.Cleanup(func() { s.close(); s.wait() })
	return s, ep, got
}

// TestRouterWithZMQ4Dealers checks the kernel's ROUTER against zmq4's
// DEALER: every received message starts with the identity the dealer
// gave (WithID, sent in its READY), and every frame, empty or long,
// arrives intact and in order; a message sent goes to the peer its first
// frame names, without that frame, and is dropped when no peer has that
// identity.
func TestRouterWithZMQ4Dealers(t *testing.T) {
	router, ep, got := listenTest(t, false)
	dealers := map[string]zmq4.Socket{}
	for _, id := range []string{"alice", "bob"} {
		d := zmq4.NewDealer(t.Context(), zmq4.WithID(zmq4.SocketIdentity(id)))
		defer d.Close()
		if err := d.Dial(ep); err != nil {
			t.Fatal(err)
		}
		dealers[id] = d
	}

	long := bytes.Repeat([]byte("x"), 70000) // a ZMTP long frame
	frames := [][]byte{[]byte("<IDS|MSG>"), {}, []byte("{}"), long, {}}
	for _, id := range []string{"alice", "bob"} {
		if err := dealers[id].Send(zmq4.NewMsgFrom(frames...)); err != nil {
			t.Fatal(err)
		}
		m := within(t, got)
		if string(m[0]) != id {
			t.Errorf("first frame = %q, want the identity %q", m[0], id)
		}
		if !reflect.DeepEqual(m[1:], frames) {
			t.Errorf("frames from %s changed in transit", id)
		}
	}

	reply := [][]byte{[]byte("bob"), []byte("to bob"), {}, long}
	if err := router.send(reply); err != nil {
		t.Fatal(err)
	}
	if m := recvWithin(t, dealers["bob"]); !reflect.DeepEqual(m.Frames, reply[1:]) {
		t.Errorf("bob got %d frames, want %d, intact", len(m.Frames), len(reply)-1)
	}
	if err := router.send([][]byte{[]byte("carol"), []byte("lost")}); err != nil {
		t.Errorf("send to an unknown identity: %v", err)
	}
	if err := router.send([][]byte{[]byte("alice"), []byte("to alice")}); err != nil {
		t.Fatal(err)
	}
	if m := recvWithin(t, dealers["alice"]); string(m.Frames[0]) != "to alice" {
		t.Errorf("alice got %q first, want \"to alice\" (not carol's message)", m.Frames)
	}
}

// TestPubWithZMQ4Subs checks the kernel's PUB against zmq4's SUB: each
// subscriber gets the messages whose first frame starts with one of its
// topics, in order, and nothing after it cancels.
func TestPubWithZMQ4Subs(t *testing.T) {
	pub, ep, _ := listenTest(t, true)
	subs := map[string]zmq4.Socket{}
	for _, topic := range []string{"", "kernel.a."} {
		s := zmq4.NewSub(t.Context())
		defer s.Close()
		if err := s.Dial(ep); err != nil {
			t.Fatal(err)
		}
		if err := s.SetOption(zmq4.OptionSubscribe, topic); err != nil {
			t.Fatal(err)
		}
		subs[topic] = s
	}
	// Subscriptions travel after the handshake: publish until both
	// subscribers are known.
	for deadline := time.Now().Add(timeout); ; {
		pub.mu.Lock()
		n := 0
		for _, c := range pub.peers {
			if c.subscribed([]byte("kernel.a.x")) {
				n++
			}
		}
		pub.mu.Unlock()
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the subscriptions did not arrive")
		}
		time.Sleep(time.Millisecond)
	}
	msgs := [][][]byte{
		{[]byte("kernel.b.status"), []byte("1")},
		{[]byte("kernel.a.status"), []byte("2"), bytes.Repeat([]byte("y"), 300)},
		{[]byte("kernel.a.stream"), []byte("3")},
	}
	for _, m := range msgs {
		if err := pub.send(m); err != nil {
			t.Fatal(err)
		}
	}
	for i, m := range msgs {
		if got := recvWithin(t, subs[""]); !reflect.DeepEqual(got.Frames, m) {
			t.Errorf("the subscriber to everything got %q as message %d, want %q", got.Frames, i, m)
		}
	}
	for _, m := range msgs[1:] {
		if got := recvWithin(t, subs["kernel.a."]); !reflect.DeepEqual(got.Frames, m) {
			t.Errorf("the subscriber to kernel.a. got %q, want %q", got.Frames, m)
		}
	}
}

// TestHandshakeBytes speaks to the kernel's ROUTER byte by byte, as RFC
// 23 (ZMTP 3.0) writes them, rather than through a ZeroMQ library: a
// DEALER without an identity gets one made up, and the reply arrives as
// the frames it was sent as.
func TestHandshakeBytes(t *testing.T) {
	router, ep, got := listenTest(t, false)
	nc := dialRaw(t, ep)
	ready := append([]byte{0x04, 28, 5, 'R', 'E', 'A', 'D', 'Y', 11}, "Socket-Type\x00\x00\x00\x06DEALER"...)
	msg := []byte{0x01, 0, 0x00, 5, 'h', 'e', 'l', 'l', 'o'} // an empty frame, then "hello"
	if _, err := nc.Write(append(append(rawGreeting(), ready...), msg...)); err != nil {
		t.Fatal(err)
	}
	var theirs [64]byte
	if _, err := io.ReadFull(nc, theirs[:]); err != nil {
		t.Fatal(err)
	}
	if theirs[0] != 0xff || theirs[9] != 0x7f || theirs[10] != 3 || string(theirs[12:16]) != "NULL" || theirs[32] != 0 {
		t.Errorf("greeting % x: want signature ff..7f, version 3, NULL, not as-server", theirs)
	}
	wantReady := append([]byte{0x04, 28, 5, 'R', 'E', 'A', 'D', 'Y', 11}, "Socket-Type\x00\x00\x00\x06ROUTER"...)
	gotReady := make([]byte, len(wantReady))
	if _, err := io.ReadFull(nc, gotReady); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gotReady, wantReady) {
		t.Errorf("READY = %q, want %q", gotReady, wantReady)
	}

	m := within(t, got)
	if len(m) != 3 || len(m[0]) != 5 || m[0][0] != 0 || len(m[1]) != 0 || string(m[2]) != "hello" {
		t.Fatalf("received %q, want a made-up identity (a zero, four bytes), an empty frame and hello", m)
	}
	if err := router.send([][]byte{m[0], []byte("a"), bytes.Repeat([]byte("z"), 256)}); err != nil {
		t.Fatal(err)
	}
	want := append([]byte{0x01, 1, 'a', 0x02, 0, 0, 0, 0, 0, 0, 1, 0}, bytes.Repeat([]byte("z"), 256)...)
	reply := make([]byte, len(want))
	if _, err := io.ReadFull(nc, reply); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(reply, want) {
		t.Errorf("reply bytes % x..., want % x...", reply[:12], want[:12])
	}
}

// TestHandshakeRefused checks that a peer of a kind a ROUTER does not talk
// to (a PUB) is disconnected.
func TestHandshakeRefused(t *testing.T) {
	_, ep, _ := listenTest(t, false)
	nc := dialRaw(t, ep)
	nc.Write(append(rawGreeting(), appendCommand(nil, "READY", "Socket-Type", "PUB")...))
	if b, err := io.ReadAll(nc); err != nil || len(b) != 64 {
		t.Errorf("read %d bytes, %v; want the greeting, then the end of the connection", len(b), err)
	}
}

// dialRaw connects to ep with a plain TCP connection, closed when the
// test ends.
func dialRaw(t *testing.T, ep string) net.Conn {
	t.Helper()
	nc, err := net.Dial("tcp", strings.TrimPrefix(ep, "tcp://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	nc.SetDeadline(time.Now().Add(timeout))
	return nc
}

// rawGreeting is the greeting of a ZMTP 3.1 peer with the NULL mechanism,
// as libzmq 4.3 sends it.
func rawGreeting() []byte {
	return append([]byte{0xff, 0, 0, 0, 0, 0, 0, 0, 1, 0x7f, 3, 1, 'N', 'U', 'L', 'L'}, make([]byte, 48)...)
}

func within(t *testing.T, ch chan [][]byte) [][]byte {
	t.Helper()
	select {
	case m := <-ch:
		return m
	case <-time.After(timeout):
		t.Fatal("no message within", timeout)
		return nil
	}
}

func recvWithin(t *testing.T, s zmq4.Socket) zmq4.Msg {
	t.Helper()
	ch := make(chan zmq4.Msg, 1)
	go func() {
		m, err := s.Recv()
		if err != nil && !strings.Contains(err.Error(), "context canceled") {
			t.Errorf("recv: %v", err)
		}
		ch <- m
	}()
	select {
	case m := <-ch:
		return m
	case <-time.After(timeout):
		t.Fatal("no message within", timeout)
		return zmq4.Msg{}
	}
}

// recordConn is a net.Conn that records what each Write call passed on.
type recordConn struct {
	net.Conn
	writes [][]byte
}

func (c *recordConn) Write(p []byte) (int, error) {
	c.writes = append(c.writes, bytes.Clone(p))
	return len(p), nil
}

// TestHoldRelease checks that messages sent while a socket is held reach
// each subscriber, in order, with one write when it is released, and that
// a message is written at once otherwise.
func TestHoldRelease(t *testing.T) {
	rec := &recordConn{}
	s := &zsocket{pub: true, log: slog.New(slog.DiscardHandler)}
	s.peers = []*zmtpConn{{nc: rec, subs: map[string]int{"": 1}}}
	m1 := [][]byte{[]byte("kernel.x.status"), []byte("busy")}
	m2 := [][]byte{[]byte("kernel.x.execute_input"), []byte("1+1")}
	s.hold()
	s.send(m1)
	s.send(m2)
	if len(rec.writes) != 0 {
		t.Fatalf("%d writes while held, want none", len(rec.writes))
	}
	s.release()
	want := appendMessage(appendMessage(nil, m1), m2)
	if len(rec.writes) != 1 || !bytes.Equal(rec.writes[0], want) {
		t.Fatalf("after release: writes %q, want one: %q", rec.writes, want)
	}
	s.send(m1)
	if len(rec.writes) != 2 || !bytes.Equal(rec.writes[1], appendMessage(nil, m1)) {
		t.Errorf("a message sent when not held was not written at once: %q", rec.writes)
	}
}

// TestSettle checks that settle waits for a subscriber that has connected
// but not yet subscribed, so that a message published next reaches it.
func TestSettle(t *testing.T) {
	pub, ep, _ := listenTest(t, true)
	nc := dialRaw(t, ep)
	if _, err := nc.Write(append(rawGreeting(), appendCommand(nil, "READY", "Socket-Type", "SUB")...)); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(timeout); ; time.Sleep(time.Millisecond) {
		pub.mu.Lock()
		n := len(pub.joining)
		pub.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the connection was not accepted")
		}
	}
	go func() {
		time.Sleep(20 * time.Millisecond)
		nc.Write(appendMessage(nil, [][]byte{[]byte("\x01kernel.")}))
	}()
	pub.settle()
	pub.mu.Lock()
	defer pub.mu.Unlock()
	if len(pub.peers) != 1 || !pub.peers[0].subscribed([]byte("kernel.x.status")) {
		t.Error("settle returned before the subscription arrived")
	}
}

// TestSendDoesNotBlock checks that sending to a peer that does not read
// returns at once, the bytes its connection does not take queued, and
// that the peer gets every message whole and in order once it reads.
func TestSendDoesNotBlock(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	peer, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	nc, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	c := &zmtpConn{nc: nc}
	defer c.close()

	const n, size = 64, 256 << 10 // 16 MiB: more than the sockets buffer
	var want []byte
	for i := range n {
		m := appendMessage(nil, [][]byte{{byte(i)}, bytes.Repeat([]byte{byte(i)}, size)})
		want = append(want, m...)
		if err := c.send(m); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
	c.mu.Lock()
	queued := c.flushing
	c.mu.Unlock()
	if !queued {
		t.Error("16 MiB went out without queueing: the test did not fill the connection")
	}
	peer.SetDeadline(time.Now().Add(timeout))
	got := make([]byte, len(want))
	if _, err := io.ReadFull(peer, got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("the peer got the messages changed or out of order")
	}
}
