package remote

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/gotensor/gotensor/protocol"
)

// A Starter starts the node side, `gotensor kernel --remote`, on a machine
// of its choosing (a Slurm allocation, a Kubernetes pod).
type Starter interface {
	// Start starts the node side and returns at once; the node may still
	// be waiting for its machine (in a queue) when Start returns.
	Start(ctx context.Context) (Process, error)
}

// A Process is a node side that a Starter started.
type Process interface {
	// Stdin is the node process's standard input: Launch writes the
	// Handshake and then keepalives on it, and closes it to say goodbye.
	Stdin() io.WriteCloser
	// Stdout is the node process's standard output, where the Ready line
	// comes.
	Stdout() io.Reader
	// Interrupt delivers SIGINT to the kernel on the node.
	Interrupt() error
	// Stop asks the node side to end and its machine to be released, and
	// returns without waiting; Wait waits. Launch calls it when it is
	// cancelled and again after the process ended: it must be safe to call
	// more than once.
	Stop() error
	// Wait waits for the node side to end. Its error says why when that
	// was not the kernel's own clean exit or a Stop.
	Wait() error
}

// Config configures Launch.
type Config struct {
	// Conn is Jupyter's connection file: the ports the client connects to
	// on this machine and the key. Required, with a key.
	Conn *protocol.ConnectionInfo
	// Starter starts the node side. Required.
	Starter Starter
	// Node goes to the node in the Handshake.
	Node NodeOptions
	// Log receives the launcher's diagnostics; nil discards them.
	Log *slog.Logger
	// Interrupts, when not nil, delivers the signals (SIGINT) that
	// Jupyter's signal interrupt mode sends the launcher; each is passed
	// to the kernel with Process.Interrupt.
	Interrupts <-chan os.Signal
	// DialTimeout bounds how long a client connection waits for the
	// kernel's socket on the node to accept, once the node is ready.
	// Zero means 30 seconds.
	DialTimeout time.Duration
	// StopTimeout bounds how long Launch waits for the node side to end
	// after Stop. Zero means 60 seconds.
	StopTimeout time.Duration
}

// ErrNoKey is returned by Launch for a connection file without a key:
// the kernel would listen unsigned on an address other machines reach.
var ErrNoKey = errors.New("remote: the connection file has no key: a kernel on another machine must sign its messages; let Jupyter write one (do not set Session.key to empty)")

// Launch serves Jupyter's connection file cfg.Conn with a kernel on
// another machine: it listens on the file's five ports, starts the node
// side with cfg.Starter, sends the Handshake, waits for the Ready line
// (as long as the node waits for its machine), then forwards the client's
// connections to the node until the node side ends. Cancelling ctx stops
// the node side and releases its machine; so does any return.
//
// It returns nil when the kernel ended by itself (shutdown, restart) or
// after ctx was cancelled, and an error saying why otherwise: the node
// side failed to start or ended unasked (a scheduler's time limit, a
// cancelled job).
func Launch(ctx context.Context, cfg Config) (err error) {
	if cfg.Conn == nil || cfg.Starter == nil {
		return errors.New("remote: Config.Conn and Config.Starter are required")
	}
	if cfg.Conn.Key == "" {
		return ErrNoKey
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	dialTimeout := cfg.DialTimeout
	if dialTimeout == 0 {
		dialTimeout = 30 * time.Second
	}
	stopTimeout := cfg.StopTimeout
	if stopTimeout == 0 {
		stopTimeout = 60 * time.Second
	}
	handshake, err := json.Marshal(Handshake{
		Key:             cfg.Conn.Key,
		SignatureScheme: cfg.Conn.SignatureScheme,
		KernelName:      cfg.Conn.KernelName,
		NodeOptions:     cfg.Node,
	})
	if err != nil {
		return fmt.Errorf("remote: encoding the handshake: %w", err)
	}

	rel, err := listen(cfg.Conn, log, dialTimeout)
	if err != nil {
		return err
	}
	defer rel.close(2 * time.Second)

	proc, err := cfg.Starter.Start(ctx)
	if err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- proc.Wait() }()
	stopped := false
	defer func() {
		if !stopped {
			proc.Stop() // release whatever is left; harmless after a clean end
		}
	}()

	// The handshake, then a keepalive four times per lifeline, until
	// Launch returns and closes stdin.
	talking := make(chan struct{})
	defer close(talking)
	go func() {
		w := proc.Stdin()
		defer w.Close()
		if _, err := w.Write(append(handshake, '\n')); err != nil {
			log.Warn("remote: writing the handshake to the node failed", "err", err)
			return
		}
		if cfg.Node.LifelineMS <= 0 {
			<-talking
			return
		}
		tick := time.NewTicker(max(time.Duration(cfg.Node.LifelineMS)*time.Millisecond/4, 50*time.Millisecond))
		defer tick.Stop()
		for {
			select {
			case <-talking:
				return
			case <-tick.C:
				if _, err := w.Write([]byte{'\n'}); err != nil {
					return
				}
			}
		}
	}()

	readyc := make(chan Ready, 1)
	badReady := make(chan error, 1)
	go readStdout(proc.Stdout(), log, readyc, badReady)

	// stop stops the node side and waits, within stopTimeout, for it.
	stop := func(why string) error {
		log.Info("remote: stopping the kernel", "why", why)
		if err := proc.Stop(); err != nil {
			log.Warn("remote: stopping the kernel", "err", err)
		}
		stopped = true
		select {
		case <-exited:
		case <-time.After(stopTimeout):
			log.Warn("remote: the node side did not end in time after being stopped", "waited", stopTimeout)
		}
		return nil
	}

	start := time.Now()
	var ready Ready
waiting:
	for {
		select {
		case ready = <-readyc:
			break waiting
		case err := <-badReady:
			stop("the node's ready line is broken")
			return err
		case err := <-exited:
			if err == nil {
				err = errors.New("it ended without saying where it listens")
			}
			return fmt.Errorf("remote: the kernel did not start: %w", err)
		case <-ctx.Done():
			return stop("cancelled while the kernel was starting")
		case <-cfg.Interrupts:
			log.Info("remote: interrupt before the kernel started: nothing to interrupt")
		}
	}
	rel.setTarget(ready)
	attrs := []any{"node", ready.Host, "addr", ready.IP, "pid", ready.PID, "after", time.Since(start).Round(time.Millisecond)}
	for k, v := range ready.Report {
		attrs = append(attrs, k, v)
	}
	log.Info("remote: the kernel is up on the node", attrs...)

	for {
		select {
		case err := <-exited:
			if err != nil {
				log.Error("remote: the kernel ended", "err", err)
				return fmt.Errorf("remote: the kernel ended: %w", err)
			}
			log.Info("remote: the kernel ended")
			return nil
		case <-ctx.Done():
			return stop("the launcher was told to stop")
		case <-cfg.Interrupts:
			if err := proc.Interrupt(); err != nil {
				log.Warn("remote: interrupting the kernel", "err", err)
			} else {
				log.Info("remote: interrupt passed to the kernel")
			}
		}
	}
}

// readStdout reads the node's standard output: it sends the Ready line on
// readyc (or its decoding error on bad), logs any other line, and goes on
// reading until the end, so that the node never blocks on a full pipe.
func readStdout(r io.Reader, log *slog.Logger, readyc chan<- Ready, bad chan<- error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	seen := false
	for sc.Scan() {
		line := sc.Text()
		if !seen {
			r, ok, err := ParseReady(line)
			if ok {
				seen = true
				if err != nil {
					bad <- err
				} else {
					readyc <- r
				}
				continue
			}
		}
		log.Info("remote: node stdout", "line", line)
	}
	io.Copy(io.Discard, r)
}
