package remote

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/gotensor/gotensor/protocol"
)

// maxHandshake bounds the handshake line, so that a stray stream on stdin
// cannot make Accept read without end.
const maxHandshake = 64 << 10

// Node is the node side of a remote kernel, made by Accept.
type Node struct {
	// Conn is the connection the kernel serves: the chosen address and
	// ports, with the launcher's key.
	Conn *protocol.ConnectionInfo
	// Ready is what Accept printed for the launcher.
	Ready Ready

	opts NodeOptions
	in   *bufio.Reader

	once   sync.Once
	mu     sync.Mutex
	reason string // why the launcher is thought gone; "" while it is there
}

// Accept reads the launcher's Handshake from stdin, chooses the address to
// bind (NodeOptions.Bind, else the node's address toward
// NodeOptions.Toward) and five free ports there, and writes the Ready line
// to stdout. It refuses a handshake without a key: a kernel that other
// machines can reach must sign every message. The ports are free when
// chosen; the kernel binds them right after.
func Accept(stdin io.Reader, stdout io.Writer) (*Node, error) {
	in := bufio.NewReaderSize(stdin, 4096)
	line, err := readLine(in, maxHandshake)
	if err != nil {
		return nil, fmt.Errorf("remote: reading the launcher's handshake on stdin: %w (`gotensor kernel --remote` is started by a launcher such as `gotensor slurm`, which writes it)", err)
	}
	var h Handshake
	if err := json.Unmarshal(line, &h); err != nil {
		return nil, fmt.Errorf("remote: the handshake on stdin is not valid JSON: %w (`gotensor kernel --remote` is started by a launcher such as `gotensor slurm`)", err)
	}
	if h.Key == "" {
		return nil, errors.New("remote: the handshake has no signing key: a kernel that other machines can reach must sign its messages; let Jupyter write the key in the connection file")
	}
	bind, dial, err := addresses(h.Bind, os.ExpandEnv(h.Toward))
	if err != nil {
		return nil, err
	}
	ports, err := freePorts(bind, 5)
	if err != nil {
		return nil, err
	}
	conn := &protocol.ConnectionInfo{
		Transport:       "tcp",
		IP:              bind,
		ShellPort:       ports[0],
		ControlPort:     ports[1],
		StdinPort:       ports[2],
		IOPubPort:       ports[3],
		HBPort:          ports[4],
		SignatureScheme: h.SignatureScheme,
		Key:             h.Key,
		KernelName:      h.KernelName,
	}
	if err := conn.Validate(); err != nil {
		return nil, fmt.Errorf("remote: %w", err)
	}
	host, _ := os.Hostname()
	r := Ready{
		IP:          dial,
		ShellPort:   conn.ShellPort,
		ControlPort: conn.ControlPort,
		StdinPort:   conn.StdinPort,
		IOPubPort:   conn.IOPubPort,
		HBPort:      conn.HBPort,
		Host:        host,
		PID:         os.Getpid(),
	}
	for _, name := range h.Report {
		if v, ok := os.LookupEnv(name); ok {
			if r.Report == nil {
				r.Report = make(map[string]string)
			}
			r.Report[name] = v
		}
	}
	if _, err := io.WriteString(stdout, r.String()+"\n"); err != nil {
		return nil, fmt.Errorf("remote: writing the ready line to stdout: %w", err)
	}
	return &Node{Conn: conn, Ready: r, opts: h.NodeOptions, in: in}, nil
}

// readLine reads one line of at most max bytes, without its newline.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > max {
			return nil, fmt.Errorf("the first line is longer than %d bytes", max)
		}
		if err == nil {
			return line[:len(line)-1], nil
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(err, io.EOF) {
			return nil, errors.New("stdin closed before a line ended")
		}
		return nil, err
	}
}

// Watch returns a context that is cancelled with ctx, or when the launcher
// is gone: stdin reached its end, or no byte came for the handshake's
// lifeline. Lost then says why. Call it once.
func (n *Node) Watch(ctx context.Context) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	lifeline := time.Duration(n.opts.LifelineMS) * time.Millisecond
	got := make(chan struct{}, 1)
	ended := make(chan string, 1)
	go func() {
		buf := make([]byte, 512)
		for {
			_, err := n.in.Read(buf)
			if err != nil {
				if errors.Is(err, io.EOF) {
					ended <- "the launcher closed the kernel's stdin"
				} else {
					ended <- "reading stdin from the launcher: " + err.Error()
				}
				return
			}
			select {
			case got <- struct{}{}:
			default:
			}
		}
	}()
	go func() {
		var timeout <-chan time.Time
		var timer *time.Timer
		if lifeline > 0 {
			timer = time.NewTimer(lifeline)
			defer timer.Stop()
			timeout = timer.C
		}
		for {
			select {
			case <-ctx.Done():
				return
			case <-got:
				if timer != nil {
					timer.Reset(lifeline)
				}
			case why := <-ended:
				n.lose(why)
				cancel()
				return
			case <-timeout:
				n.lose(fmt.Sprintf("no word from the launcher for %v", lifeline))
				cancel()
				return
			}
		}
	}()
	return ctx
}

func (n *Node) lose(why string) {
	n.mu.Lock()
	if n.reason == "" {
		n.reason = why
	}
	n.mu.Unlock()
}

// Lost reports whether Watch decided that the launcher is gone, and why.
func (n *Node) Lost() (reason string, lost bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.reason, n.reason != ""
}

// Release runs the handshake's release command (once; later calls do
// nothing) with $VARIABLES expanded from the node's environment, and
// returns its combined output. A launcher that is gone cannot give the
// machine back itself: Watch's caller releases it.
func (n *Node) Release(ctx context.Context) (output string, err error) {
	if len(n.opts.Release) == 0 {
		return "", nil
	}
	ran := false
	n.once.Do(func() {
		ran = true
		args := make([]string, len(n.opts.Release))
		for i, a := range n.opts.Release {
			args[i] = os.ExpandEnv(a)
		}
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		var out []byte
		out, err = exec.CommandContext(ctx, args[0], args[1:]...).CombinedOutput()
		output = strings.TrimSpace(string(out))
		if err != nil {
			err = fmt.Errorf("remote: releasing the machine with %q: %w", strings.Join(args, " "), err)
		}
	})
	if !ran {
		return "", nil
	}
	return output, err
}

// addresses returns the address to bind and the one the launcher dials:
// bind itself when given (resolved when it is a name), else the node's
// address on the route toward the launcher. An unspecified bind address
// (0.0.0.0, ::) binds every interface, and the launcher dials the one
// toward it.
func addresses(bind, toward string) (bindIP, dialIP string, err error) {
	if bind != "" {
		ip, err := resolve(bind)
		if err != nil {
			return "", "", fmt.Errorf("remote: the address to bind, %q: %w", bind, err)
		}
		if !ip.IsUnspecified() {
			return ip.String(), ip.String(), nil
		}
		bindIP = ip.String()
	}
	if toward == "" {
		if bindIP != "" {
			if host, err := os.Hostname(); err == nil {
				return bindIP, host, nil
			}
		}
		return "", "", errors.New("remote: no address to bind: the launcher's address (NodeOptions.Toward) is empty here and no bind address was given (gotensor slurm --bind ADDR)")
	}
	route, err := routeToward(toward)
	if err != nil {
		return "", "", err
	}
	if bindIP == "" {
		bindIP = route
	}
	return bindIP, route, nil
}

// resolve returns the IP address of host, an address or a name.
func resolve(host string) (net.IP, error) {
	if ip := net.ParseIP(host); ip != nil {
		return ip, nil
	}
	addrs, err := net.LookupIP(host)
	if err != nil {
		return nil, err
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("no address for %s", host)
	}
	return addrs[0], nil
}

// routeToward returns this machine's address on the route to host: the
// local address of a UDP socket connected there, which sends nothing.
func routeToward(host string) (string, error) {
	ip, err := resolve(host)
	if err != nil {
		return "", fmt.Errorf("remote: the launcher's address %q: %w", host, err)
	}
	c, err := net.Dial("udp", net.JoinHostPort(ip.String(), "9"))
	if err != nil {
		return "", fmt.Errorf("remote: no route from this node to the launcher at %s: %w", ip, err)
	}
	defer c.Close()
	return c.LocalAddr().(*net.UDPAddr).IP.String(), nil
}

// freePorts returns n distinct TCP ports free on ip, held open together
// while they are chosen.
func freePorts(ip string, n int) ([]int, error) {
	var ports []int
	var held []net.Listener
	defer func() {
		for _, l := range held {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
		if err != nil {
			return nil, fmt.Errorf("remote: choosing a free port on %s: %w", ip, err)
		}
		held = append(held, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
