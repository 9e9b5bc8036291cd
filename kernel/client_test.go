package kernel

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/gotensor/gotensor/protocol"
)

// timeout bounds every wait for a message in these tests: a safety net
// against a hang, not a measure of speed, so it is generous enough for a
// busy machine (a reply normally comes in a millisecond).
const timeout = 30 * time.Second

// client is a Jupyter front end for tests: DEALER sockets on shell, control
// and stdin sharing one identity (as jupyter_client does), and a SUB socket
// on iopub, talking over tcp on 127.0.0.1 to a kernel run in-process.
type client struct {
	t       *testing.T
	conn    *protocol.ConnectionInfo
	signer  *protocol.Signer
	session protocol.Session

	shell, control, stdin, sub  zmq4.Socket
	shellIn, controlIn, stdinIn chan *protocol.Message
	iopub                       chan *protocol.Message

	done chan bool                  // receives serve's restart flag
	sent map[string]protocol.Header // the headers of requests sent, by msg_id
	// stash keeps the replies that reply read while it looked for another.
	stash map[chan *protocol.Message][]*protocol.Message
}

// freePorts returns n distinct free tcp ports on 127.0.0.1.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// startKernel runs a kernel with interp in-process from a connection file it
// writes, and connects a client to it over tcp on 127.0.0.1.
func startKernel(t *testing.T, in Interpreter) *client {
	t.Helper()
	return startKernelOn(t, in, "tcp")
}

// startKernelOn is startKernel on the given transport, "tcp" or "ipc";
// each of configure, if any, changes the kernel's Config first.
func startKernelOn(t *testing.T, in Interpreter, transport string, configure ...func(*Config)) *client {
	t.Helper()
	dir := t.TempDir()
	ip, p := "127.0.0.1", []int{1, 2, 3, 4, 5}
	if transport == "tcp" {
		p = freePorts(t, 5)
	} else {
		ip = dir + "/kernel-ipc"
	}
	path := dir + "/kernel.json"
	file := fmt.Sprintf(`{"transport":%q,"ip":%q,"shell_port":%d,"control_port":%d,"stdin_port":%d,"iopub_port":%d,"hb_port":%d,"signature_scheme":"hmac-sha256","key":"test-key-%d","kernel_name":"gotensor"}`,
		transport, ip, p[0], p[1], p[2], p[3], p[4], time.Now().UnixNano())
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	conn, err := protocol.ReadConnectionFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var logger *slog.Logger
	if testing.Verbose() {
		logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	cfg := Config{
		Conn: conn, Interp: in, Logger: logger,
		Implementation: "gotensor", ImplementationVersion: "0.1.0", LanguageVersion: "1.26",
		Banner: "gotensor test", HelpLinks: []HelpLink{{Text: "Go", URL: "https://go.dev/doc"}},
	}
	for _, f := range configure {
		f(&cfg)
	}
	k, err := start(ctx, cfg)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	c := &client{t: t, conn: conn, session: protocol.NewSession("tester"), done: make(chan bool, 1), sent: make(map[string]protocol.Header), stash: make(map[chan *protocol.Message][]*protocol.Message)}
	c.signer, _ = conn.Signer()
	go func() { c.done <- k.serve() }()

	cctx, ccancel := context.WithCancel(context.Background())
	id := zmq4.WithID(zmq4.SocketIdentity(c.session.ID))
	c.shell = zmq4.NewDealer(cctx, id)
	c.control = zmq4.NewDealer(cctx, id)
	c.stdin = zmq4.NewDealer(cctx, id)
	c.sub = zmq4.NewSub(cctx)
	for _, s := range []struct {
		sock zmq4.Socket
		port int
	}{{c.shell, conn.ShellPort}, {c.control, conn.ControlPort}, {c.stdin, conn.StdinPort}, {c.sub, conn.IOPubPort}} {
		if err := s.sock.Dial(conn.Endpoint(s.port)); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.sub.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		t.Fatal(err)
	}
	c.shellIn, c.controlIn, c.stdinIn, c.iopub = c.reader(c.shell), c.reader(c.control), c.reader(c.stdin), c.reader(c.sub)
	t.Cleanup(func() {
		cancel()
		select {
		case <-c.done:
		case <-time.After(timeout):
			t.Error("kernel did not stop after its context was cancelled")
		}
		ccancel()
		for _, s := range []zmq4.Socket{c.shell, c.control, c.stdin, c.sub} {
			s.Close()
		}
	})

	// Like jupyter_client, probe with kernel_info_request until iopub
	// delivers: a SUB socket misses what is published before it subscribes.
	for deadline := time.Now().Add(timeout); ; {
		c.send(c.shell, "kernel_info_request", map[string]any{})
		select {
		case <-c.iopub:
			return c
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("iopub never delivered a message")
		}
	}
}

// reader decodes the messages arriving on sock into a channel.
func (c *client) reader(sock zmq4.Socket) chan *protocol.Message {
	ch := make(chan *protocol.Message, 4096)
	go func() {
		for {
			zm, err := sock.Recv()
			if err != nil {
				return
			}
			m, err := protocol.Decode(zm.Frames, c.signer)
			if err != nil {
				c.t.Errorf("client: the kernel sent an undecodable message: %v", err)
				continue
			}
			ch <- m
		}
	}()
	return ch
}

// send sends a request and returns its msg_id.
func (c *client) send(sock zmq4.Socket, msgType string, content any) string {
	c.t.Helper()
	m, err := c.session.NewMessage(msgType, nil, content)
	if err != nil {
		c.t.Fatal(err)
	}
	c.sendMsg(sock, m)
	c.sent[m.Header.MsgID] = m.Header
	return m.Header.MsgID
}

func (c *client) sendMsg(sock zmq4.Socket, m *protocol.Message) {
	c.t.Helper()
	frames, err := m.Encode(c.signer)
	if err != nil {
		c.t.Fatal(err)
	}
	c.sendFrames(sock, frames)
}

func (c *client) sendFrames(sock zmq4.Socket, frames [][]byte) {
	c.t.Helper()
	if err := sock.Send(zmq4.NewMsgFrom(frames...)); err != nil {
		c.t.Fatal(err)
	}
}

// reply waits for the reply to msgID on ch; replies to others wait for
// their turn.
func (c *client) reply(ch chan *protocol.Message, msgID string) *protocol.Message {
	c.t.Helper()
	for i, m := range c.stash[ch] {
		if m.ParentHeader != nil && m.ParentHeader.MsgID == msgID {
			c.stash[ch] = append(c.stash[ch][:i], c.stash[ch][i+1:]...)
			return m
		}
	}
	deadline := time.After(timeout)
	for {
		select {
		case m := <-ch:
			if m.ParentHeader != nil && m.ParentHeader.MsgID == msgID {
				return m
			}
			c.stash[ch] = append(c.stash[ch], m)
		case <-deadline:
			c.t.Fatalf("no reply to %s within %v", msgID, timeout)
			return nil
		}
	}
}

// noReply checks that nothing answers msgID on ch for a while.
func (c *client) noReply(ch chan *protocol.Message, msgID string, wait time.Duration) {
	c.t.Helper()
	deadline := time.After(wait)
	for {
		select {
		case m := <-ch:
			if m.ParentHeader != nil && m.ParentHeader.MsgID == msgID {
				c.t.Errorf("unexpected %s to %s", m.Header.MsgType, msgID)
			}
		case <-deadline:
			return
		}
	}
}

// outputs returns the iopub messages whose parent is msgID, from the first
// through status idle.
func (c *client) outputs(msgID string) []*protocol.Message {
	c.t.Helper()
	var got []*protocol.Message
	deadline := time.After(timeout)
	for {
		select {
		case m := <-c.iopub:
			if m.ParentHeader == nil || m.ParentHeader.MsgID != msgID {
				continue
			}
			got = append(got, m)
			if m.Header.MsgType == "status" && content(c.t, m)["execution_state"] == "idle" {
				return got
			}
		case <-deadline:
			c.t.Fatalf("no status idle for %s within %v; got %s", msgID, timeout, types(got))
			return nil
		}
	}
}

// waitFor returns the first iopub message of msgType whose parent is msgID.
func (c *client) waitFor(msgID, msgType string) *protocol.Message {
	c.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case m := <-c.iopub:
			if m.ParentHeader != nil && m.ParentHeader.MsgID == msgID && m.Header.MsgType == msgType {
				return m
			}
		case <-deadline:
			c.t.Fatalf("no %s for %s within %v", msgType, msgID, timeout)
			return nil
		}
	}
}

// execute runs code with the given extra content fields and returns the
// reply and the iopub messages.
func (c *client) execute(code string, extra map[string]any) (map[string]any, []*protocol.Message) {
	c.t.Helper()
	req := map[string]any{"code": code, "silent": false, "store_history": true, "user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true}
	for k, v := range extra {
		req[k] = v
	}
	id := c.send(c.shell, "execute_request", req)
	r := c.reply(c.shellIn, id)
	if r.Header.MsgType != "execute_reply" {
		c.t.Fatalf("reply type %s, want execute_reply", r.Header.MsgType)
	}
	return content(c.t, r), c.outputs(id)
}

func content(t *testing.T, m *protocol.Message) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(m.Content, &v); err != nil {
		t.Fatalf("%s content %s: %v", m.Header.MsgType, m.Content, err)
	}
	return v
}

func types(ms []*protocol.Message) []string {
	var s []string
	for _, m := range ms {
		t := m.Header.MsgType
		if t == "status" {
			var c map[string]any
			json.Unmarshal(m.Content, &c)
			t += ":" + fmt.Sprint(c["execution_state"])
		}
		s = append(s, t)
	}
	return s
}
