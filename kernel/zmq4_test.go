package kernel

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// TestZMQ4RouterIdentities pins down what the kernel relies on in zmq4
// v0.17.0 (router.go): a ROUTER prepends the peer's identity (the DEALER's
// WithID, sent in the ZMTP handshake) as the first frame of every message it
// receives; every frame, empty or long, arrives intact and in order; and a
// message sent on the ROUTER goes to the peer its first frame names, without
// that frame, and is dropped silently when no peer has that identity.
func TestZMQ4RouterIdentities(t *testing.T) {
	ctx := t.Context()
	port := freePorts(t, 1)[0]
	ep := "tcp://127.0.0.1:" + strconv.Itoa(port)
	router := zmq4.NewRouter(ctx, zmq4.WithTimeout(time.Second))
	defer router.Close()
	if err := router.Listen(ep); err != nil {
		t.Fatal(err)
	}
	dealers := map[string]zmq4.Socket{}
	for _, id := range []string{"alice", "bob"} {
		d := zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity(id)))
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
		m := recvWithin(t, router)
		if string(m.Frames[0]) != id {
			t.Errorf("first frame = %q, want the identity %q", m.Frames[0], id)
		}
		if !reflect.DeepEqual(m.Frames[1:], frames) {
			t.Errorf("frames from %s changed in transit", id)
		}
	}

	// Replies are routed by the first frame.
	reply := [][]byte{[]byte("bob"), []byte("to bob"), {}}
	if err := router.Send(zmq4.NewMsgFrom(reply...)); err != nil {
		t.Fatal(err)
	}
	if m := recvWithin(t, dealers["bob"]); !reflect.DeepEqual(m.Frames, reply[1:]) {
		t.Errorf("bob got %q, want %q", m.Frames, reply[1:])
	}
	// An unknown identity is no error; nobody gets the message.
	if err := router.Send(zmq4.NewMsgFrom([]byte("carol"), []byte("lost"))); err != nil {
		t.Errorf("send to an unknown identity: %v", err)
	}
	if err := router.Send(zmq4.NewMsgFrom([]byte("alice"), []byte("to alice"))); err != nil {
		t.Fatal(err)
	}
	if m := recvWithin(t, dealers["alice"]); string(m.Frames[0]) != "to alice" {
		t.Errorf("alice got %q first, want \"to alice\" (not carol's message)", m.Frames)
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
