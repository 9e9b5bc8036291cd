package remote

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gotensor/gotensor/protocol"
)

// freeConn returns a connection file's content with five free ports on
// 127.0.0.1 and a key.
func freeConn(t *testing.T) *protocol.ConnectionInfo {
	t.Helper()
	ports, err := freePorts("127.0.0.1", 5)
	if err != nil {
		t.Fatal(err)
	}
	return &protocol.ConnectionInfo{
		Transport: "tcp", IP: "127.0.0.1",
		ShellPort: ports[0], ControlPort: ports[1], StdinPort: ports[2], IOPubPort: ports[3], HBPort: ports[4],
		SignatureScheme: "hmac-sha256", Key: "secret-key",
	}
}

// fakeProcess is a node side run in this process: its node goroutine
// answers the handshake with Accept and then serves, on each of the five
// ports, a TCP server that answers every line with "CHANNEL:line".
type fakeProcess struct {
	stdinR  *io.PipeReader
	stdinW  *io.PipeWriter
	stdoutR *io.PipeReader
	stdoutW *io.PipeWriter

	handshake  chan Handshake // what the node read
	interrupts atomic.Int32
	stops      atomic.Int32
	end        chan error // what Wait returns; sent by the test or by Stop
	endOnce    sync.Once
	node       *Node
	nodeReady  chan struct{}
	listeners  []net.Listener
}

func newFakeProcess() *fakeProcess {
	p := &fakeProcess{handshake: make(chan Handshake, 1), end: make(chan error, 1), nodeReady: make(chan struct{})}
	p.stdinR, p.stdinW = io.Pipe()
	p.stdoutR, p.stdoutW = io.Pipe()
	return p
}

func (p *fakeProcess) Stdin() io.WriteCloser { return p.stdinW }
func (p *fakeProcess) Stdout() io.Reader     { return p.stdoutR }
func (p *fakeProcess) Interrupt() error      { p.interrupts.Add(1); return nil }
func (p *fakeProcess) Stop() error {
	p.stops.Add(1)
	p.finish(nil)
	return nil
}
func (p *fakeProcess) Wait() error {
	err := <-p.end
	p.stdoutW.Close()
	for _, l := range p.listeners {
		l.Close()
	}
	return err
}
func (p *fakeProcess) finish(err error) { p.endOnce.Do(func() { p.end <- err }) }

// runNode plays the node: Accept, then the echo servers.
func (p *fakeProcess) runNode(t *testing.T) {
	// Tee stdin so that the test sees the handshake the node parsed.
	node, err := Accept(p.stdinR, p.stdoutW)
	if err != nil {
		p.finish(err)
		return
	}
	p.node = node
	var h Handshake
	h.Key, h.SignatureScheme = node.Conn.Key, node.Conn.SignatureScheme
	h.NodeOptions = node.opts
	p.handshake <- h
	for _, name := range channels {
		l, err := net.Listen("tcp", net.JoinHostPort(node.Conn.IP, strconv.Itoa(node.Ready.port(name))))
		if err != nil {
			p.finish(err)
			return
		}
		p.listeners = append(p.listeners, l)
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				go func() {
					defer c.Close()
					sc := bufio.NewScanner(c)
					for sc.Scan() {
						fmt.Fprintf(c, "%s:%s\n", name, sc.Text())
					}
				}()
			}
		}()
	}
	close(p.nodeReady)
}

type fakeStarter struct {
	p   *fakeProcess
	t   *testing.T
	err error
}

func (s fakeStarter) Start(ctx context.Context) (Process, error) {
	if s.err != nil {
		return nil, s.err
	}
	go s.p.runNode(s.t)
	return s.p, nil
}

// launch runs Launch in the background and returns its result channel.
func launch(t *testing.T, ctx context.Context, cfg Config) <-chan error {
	t.Helper()
	done := make(chan error, 1)
	returned := make(chan struct{})
	go func() {
		done <- Launch(ctx, cfg)
		close(returned)
	}()
	t.Cleanup(func() {
		select {
		case <-returned:
		case <-time.After(10 * time.Second):
			t.Error("Launch did not return")
		}
	})
	return done
}

// roundTrip sends line on the client's port and returns the answer.
func roundTrip(t *testing.T, port int, line string) string {
	t.Helper()
	// Launch may not be listening yet.
	var c net.Conn
	var err error
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		c, err = net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintln(c, line)
	got, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the answer to %q: %v", line, err)
	}
	return strings.TrimSpace(got)
}

func TestLaunchForwardsEachChannelToItsNodeSocket(t *testing.T) {
	conn := freeConn(t)
	p := newFakeProcess()
	opts := NodeOptions{Toward: "127.0.0.1", Report: []string{"GOTENSOR_TEST_REPORT"}, LifelineMS: 60_000}
	t.Setenv("GOTENSOR_TEST_REPORT", "job-7")
	done := launch(t, context.Background(), Config{Conn: conn, Starter: fakeStarter{p: p, t: t}, Node: opts})

	// A connection made before the node is ready waits for it.
	for name, port := range map[string]int{"shell": conn.ShellPort, "control": conn.ControlPort, "stdin": conn.StdinPort, "iopub": conn.IOPubPort, "hb": conn.HBPort} {
		if got, want := roundTrip(t, port, "ping"), name+":ping"; got != want {
			t.Errorf("the client's %s port answered %q; want %q", name, got, want)
		}
	}
	h := <-p.handshake
	if h.Key != "secret-key" || h.SignatureScheme != "hmac-sha256" || h.Toward != "127.0.0.1" || h.LifelineMS != 60_000 {
		t.Errorf("the node read the handshake %+v", h)
	}
	if got := p.node.Ready.Report["GOTENSOR_TEST_REPORT"]; got != "job-7" {
		t.Errorf("Ready.Report = %v; want GOTENSOR_TEST_REPORT=job-7", p.node.Ready.Report)
	}
	if p.node.Conn.IP != "127.0.0.1" {
		t.Errorf("the node bound %s; want 127.0.0.1, its address toward the launcher", p.node.Conn.IP)
	}
	p.finish(nil) // the kernel exits by itself (shutdown_request)
	if err := <-done; err != nil {
		t.Errorf("Launch = %v after a clean exit; want nil", err)
	}
	if p.stops.Load() == 0 {
		t.Error("Launch did not call Stop after the kernel ended: the machine would not be released")
	}
	// The client's ports are free again, for the restarted kernel.
	for _, port := range []int{conn.ShellPort, conn.HBPort} {
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			t.Errorf("port %d still taken after Launch returned: %v", port, err)
			continue
		}
		l.Close()
	}
}

func TestLaunchInterruptAndCancel(t *testing.T) {
	conn := freeConn(t)
	p := newFakeProcess()
	ints := make(chan os.Signal, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := launch(t, ctx, Config{Conn: conn, Starter: fakeStarter{p: p, t: t}, Node: NodeOptions{Toward: "127.0.0.1"}, Interrupts: ints})
	<-p.nodeReady
	roundTrip(t, conn.ShellPort, "up") // Launch has seen Ready
	ints <- os.Interrupt
	deadline := time.Now().Add(5 * time.Second)
	for p.interrupts.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if p.interrupts.Load() != 1 {
		t.Errorf("Interrupt called %d times after one SIGINT; want 1", p.interrupts.Load())
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Launch = %v after cancel; want nil", err)
	}
	if p.stops.Load() == 0 {
		t.Error("cancelling Launch did not Stop the node side")
	}
}

func TestLaunchReportsWhyTheNodeDidNotStart(t *testing.T) {
	conn := freeConn(t)
	p := newFakeProcess()
	why := errors.New("slurm: no partition \"gpu\"")
	// The node side ends before Ready: read the handshake and quit.
	s := starterFunc(func(ctx context.Context) (Process, error) {
		go func() {
			io.Copy(io.Discard, io.LimitReader(p.stdinR, 1))
			p.finish(why)
		}()
		return p, nil
	})
	err := <-launch(t, context.Background(), Config{Conn: conn, Starter: s})
	if !errors.Is(err, why) || !strings.Contains(err.Error(), "did not start") {
		t.Errorf("Launch = %v; want it to wrap %v and say the kernel did not start", err, why)
	}
}

type starterFunc func(context.Context) (Process, error)

func (f starterFunc) Start(ctx context.Context) (Process, error) { return f(ctx) }

func TestLaunchRefusesNoKeyAndTakenPorts(t *testing.T) {
	conn := freeConn(t)
	conn.Key, conn.SignatureScheme = "", ""
	if err := Launch(context.Background(), Config{Conn: conn, Starter: fakeStarter{}}); !errors.Is(err, ErrNoKey) {
		t.Errorf("Launch without a key = %v; want ErrNoKey", err)
	}
	conn = freeConn(t)
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(conn.IOPubPort)))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	err = Launch(context.Background(), Config{Conn: conn, Starter: fakeStarter{err: errors.New("must not start")}})
	if err == nil || !strings.Contains(err.Error(), "iopub") || !strings.Contains(err.Error(), strconv.Itoa(conn.IOPubPort)) {
		t.Errorf("Launch with the iopub port taken = %v; want an error naming iopub and its port", err)
	}
}

func TestAcceptRefusesNoKey(t *testing.T) {
	for i, in := range []string{
		`{"key":"","toward":"127.0.0.1"}` + "\n",
		"",
		"not json\n",
	} {
		var out bytes.Buffer
		_, err := Accept(strings.NewReader(in), &out)
		if err == nil {
			t.Errorf("%d: Accept(%q) succeeded", i, in)
		}
		if out.Len() != 0 {
			t.Errorf("%d: Accept(%q) wrote %q; want nothing, since it listens nowhere", i, in, out.String())
		}
	}
}

func TestAcceptBindsTheGivenAddress(t *testing.T) {
	var out bytes.Buffer
	node, err := Accept(strings.NewReader(`{"key":"k","signature_scheme":"hmac-sha256","bind":"127.0.0.1"}`+"\n"), &out)
	if err != nil {
		t.Fatal(err)
	}
	r, ok, err := ParseReady(out.String())
	if !ok || err != nil {
		t.Fatalf("Accept wrote %q: not a ready line (%v)", out.String(), err)
	}
	if r.IP != "127.0.0.1" || node.Conn.IP != "127.0.0.1" {
		t.Errorf("ready IP %s, bound %s; want 127.0.0.1", r.IP, node.Conn.IP)
	}
	seen := map[int]bool{}
	for _, p := range []int{r.ShellPort, r.ControlPort, r.StdinPort, r.IOPubPort, r.HBPort} {
		if seen[p] {
			t.Errorf("port %d chosen twice in %+v", p, r)
		}
		seen[p] = true
	}
	if r.PID != os.Getpid() || node.Conn.Key != "k" {
		t.Errorf("ready %+v, key %q", r, node.Conn.Key)
	}
}

func TestAddressesUnspecifiedBindDialsTheRoute(t *testing.T) {
	bind, dial, err := addresses("0.0.0.0", "127.0.0.1")
	if err != nil || bind != "0.0.0.0" || dial != "127.0.0.1" {
		t.Errorf("addresses(0.0.0.0, 127.0.0.1) = %q, %q, %v; want 0.0.0.0, 127.0.0.1", bind, dial, err)
	}
	if _, _, err := addresses("", ""); err == nil || !strings.Contains(err.Error(), "--bind") {
		t.Errorf("addresses with nothing to go on = %v; want an error that names --bind", err)
	}
}

func TestWatchEndsTheKernelWhenTheLauncherGoes(t *testing.T) {
	// stdin closes: the launcher exited or its srun died cleanly.
	r, w := io.Pipe()
	node := &Node{in: bufio.NewReader(r)}
	ctx := node.Watch(context.Background())
	w.Write([]byte("\n"))
	w.Close()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("Watch did not cancel after stdin closed")
	}
	if why, lost := node.Lost(); !lost || !strings.Contains(why, "closed") {
		t.Errorf("Lost = %q, %v", why, lost)
	}

	// stdin stays open but falls silent: the launcher and its srun were
	// killed without a word. Keepalives hold it off until they stop.
	r, w = io.Pipe()
	defer w.Close()
	node = &Node{in: bufio.NewReader(r), opts: NodeOptions{LifelineMS: 300}}
	ctx = node.Watch(context.Background())
	for range 6 {
		w.Write([]byte("\n"))
		time.Sleep(100 * time.Millisecond)
	}
	if ctx.Err() != nil {
		t.Fatal("Watch cancelled while keepalives came every 100ms with a 300ms lifeline")
	}
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("Watch did not cancel after the keepalives stopped")
	}
	if why, _ := node.Lost(); !strings.Contains(why, "no word from the launcher for 300ms") {
		t.Errorf("Lost = %q", why)
	}
}

func TestReleaseRunsOnceWithTheNodesEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GOTENSOR_TEST_JOB", "42")
	marker := filepath.Join(dir, "released")
	node := &Node{opts: NodeOptions{Release: []string{"sh", "-c", "echo ${GOTENSOR_TEST_JOB} >> " + marker}}}
	for range 2 {
		if _, err := node.Release(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(marker)
	if err != nil || string(got) != "42\n" {
		t.Errorf("the release command wrote %q (%v); want \"42\\n\" once", got, err)
	}
}

func TestReadyRoundTrip(t *testing.T) {
	in := Ready{IP: "10.0.0.2", ShellPort: 1, ControlPort: 2, StdinPort: 3, IOPubPort: 4, HBPort: 5, Host: "n1", PID: 9, Report: map[string]string{"SLURM_JOB_ID": "3"}}
	out, ok, err := ParseReady(in.String() + "\n")
	if !ok || err != nil {
		t.Fatalf("ParseReady(%q) = %v, %v", in.String(), ok, err)
	}
	a, _ := json.Marshal(in)
	b, _ := json.Marshal(out)
	if !bytes.Equal(a, b) {
		t.Errorf("round trip: %s != %s", b, a)
	}
	if _, ok, _ := ParseReady("hello\n"); ok {
		t.Error("ParseReady took an ordinary line for the ready line")
	}
	if _, _, err := ParseReady(ReadyPrefix + `{"ip":"x","shell_port":0}`); err == nil {
		t.Error("ParseReady accepted port 0")
	}
}

func TestLaunchListensOnIPCWhenJupyterAsks(t *testing.T) {
	conn := freeConn(t)
	conn.Transport, conn.IP = "ipc", filepath.Join(t.TempDir(), "kernel")
	p := newFakeProcess()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := launch(t, ctx, Config{Conn: conn, Starter: fakeStarter{p: p, t: t}, Node: NodeOptions{Toward: "127.0.0.1"}})
	path := strings.TrimPrefix(conn.Endpoint(conn.HBPort), "ipc://")
	var c net.Conn
	var err error
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if c, err = net.Dial("unix", path); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("no ipc listener at %s: %v", path, err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintln(c, "beat")
	if got, err := bufio.NewReader(c).ReadString('\n'); err != nil || got != "hb:beat\n" {
		t.Errorf("the ipc heartbeat answered %q, %v; want hb:beat", got, err)
	}
	cancel()
	<-done
}
