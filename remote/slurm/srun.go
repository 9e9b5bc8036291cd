package slurm

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gotensor/gotensor/remote"
)

// Starter starts the node side with srun; it is a remote.Starter. Make it
// with NewStarter.
type Starter struct {
	opts      Options
	log       *slog.Logger
	kernelLog io.Writer

	// srun is the srun command; run runs the other Slurm commands
	// (scancel, squeue, sinfo, scontrol) and returns their output. Tests
	// replace both.
	srun string
	run  func(ctx context.Context, name string, args ...string) (string, error)
	// pendingEvery is how often a job waiting in the queue is reported.
	pendingEvery time.Duration
	// killAfter is how long srun has to end after Stop before it is
	// killed.
	killAfter time.Duration
}

// NewStarter returns a Starter for o. The launcher's own messages go to
// log; what the kernel on the node writes to its standard error (its log)
// comes back through srun and is copied, line by line, to kernelLog.
func NewStarter(o Options, log *slog.Logger, kernelLog io.Writer) *Starter {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if kernelLog == nil {
		kernelLog = io.Discard
	}
	return &Starter{
		opts:         o,
		log:          log,
		kernelLog:    kernelLog,
		srun:         "srun",
		run:          runCommand,
		pendingEvery: 30 * time.Second,
		killAfter:    30 * time.Second,
	}
}

// runCommand runs name with args, within 15 seconds, and returns its
// combined output without surrounding space.
func runCommand(ctx context.Context, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// Start runs srun, which asks Slurm for the allocation and runs
// `gotensor kernel --remote` in it. It returns as soon as srun runs: the
// job may wait in the queue.
func (s *Starter) Start(ctx context.Context) (remote.Process, error) {
	if err := s.opts.Validate(); err != nil {
		return nil, err
	}
	if s.opts.Binary == "" {
		return nil, errors.New("slurm: Options.Binary is empty: give the path of gotensor on the nodes (--node-binary)")
	}
	srun, err := exec.LookPath(s.srun)
	if err != nil {
		return nil, fmt.Errorf("slurm: %s is not on PATH: the launcher runs where Jupyter runs and needs Slurm's client commands there (Debian: apt install slurm-client)", s.srun)
	}
	args := s.opts.srunArgs()
	cmd := exec.Command(srun, args...)
	cmd.SysProcAttr = sysProcAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("slurm: %w", err)
	}
	// Pipes of our own, not StdoutPipe: their readers go on until the end
	// of the stream, whenever Wait is called.
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("slurm: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("slurm: %w", err)
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	s.log.Info("slurm: asking for an allocation", "srun", srun+" "+strings.Join(args, " "))
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("slurm: starting srun: %w", err)
	}
	p := &process{
		s:          s,
		cmd:        cmd,
		stdin:      stdin,
		stdout:     outR,
		stderrDone: make(chan struct{}),
		exited:     make(chan struct{}),
		started:    time.Now(),
	}
	go p.readStderr(errR)
	return p, nil
}

// process is a running srun.
type process struct {
	s          *Starter
	cmd        *exec.Cmd
	stdin      io.WriteCloser
	stdout     *os.File
	stderrDone chan struct{} // closed when srun's stderr has ended
	exited     chan struct{} // closed when srun has exited
	started    time.Time

	mu       sync.Mutex
	jobID    string
	node     string
	pending  bool
	errs     []string // srun's error lines
	ended    string   // Slurm's line saying that it ended the job or step
	said     []string // the kernel's last lines on stderr, for explain
	stopping bool

	cancelOnce sync.Once
	killOnce   sync.Once
}

func (p *process) Stdin() io.WriteCloser { return p.stdin }
func (p *process) Stdout() io.Reader     { return p.stdout }

// srunLines are the patterns of the lines of srun's standard error that
// say something about the job. They are compiled on first use, not at
// every start of the kernel, which links this package.
var srunLines = sync.OnceValue(func() *srunPatterns {
	return &srunPatterns{
		queued:    regexp.MustCompile(`^srun: job (\d+) queued and waiting for resources`),
		allocated: regexp.MustCompile(`^srun: job (\d+) has been allocated resources`),
		jobID:     regexp.MustCompile("^srun: jobid (\\d+): nodes\\(\\d+\\):`([^']*)'"),
		err:       regexp.MustCompile(`^srun: error: (.*)$`),
		ended:     regexp.MustCompile(`\*\*\* (?:JOB|STEP) [\d.]+ ON \S+ CANCELLED AT .*\*\*\*`),
		stepError: regexp.MustCompile(`^slurmstepd(?:-\S+)?: error: (.*)$`),
	}
})

type srunPatterns struct {
	queued, allocated, jobID, err, ended, stepError *regexp.Regexp
}

// readStderr reads srun's standard error to its end: srun's own messages
// go to the log (the job id and queue wait at Info, errors at Warn, its
// verbose chatter at Debug), everything else is the kernel's own log and
// is copied to kernelLog.
func (p *process) readStderr(r io.ReadCloser) {
	defer close(p.stderrDone)
	defer r.Close()
	log := p.s.log
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	re := srunLines()
	for sc.Scan() {
		line := sc.Text()
		if m := re.queued.FindStringSubmatch(line); m != nil {
			p.mu.Lock()
			p.jobID, p.pending = m[1], true
			p.mu.Unlock()
			log.Info("slurm: the job is queued, waiting for resources", "job", m[1])
			go p.reportPending(m[1])
		} else if m := re.allocated.FindStringSubmatch(line); m != nil {
			p.mu.Lock()
			p.jobID, p.pending = m[1], false
			p.mu.Unlock()
			log.Info("slurm: the job has its resources", "job", m[1], "waited", time.Since(p.started).Round(time.Second))
		} else if m := re.jobID.FindStringSubmatch(line); m != nil {
			p.mu.Lock()
			p.jobID, p.node, p.pending = m[1], m[2], false
			p.mu.Unlock()
			log.Info("slurm: the job is allocated", "job", m[1], "node", m[2])
		} else if m := re.err.FindStringSubmatch(line); m != nil {
			p.mu.Lock()
			p.errs = append(p.errs, m[1])
			p.mu.Unlock()
			log.Warn("srun: " + m[1])
		} else if ended := re.ended.FindString(line); ended != "" {
			p.mu.Lock()
			p.ended = ended
			p.mu.Unlock()
			log.Warn("slurm: " + line)
		} else if m := re.stepError.FindStringSubmatch(line); m != nil {
			p.mu.Lock()
			p.errs = append(p.errs, m[1])
			p.mu.Unlock()
			log.Warn(line)
		} else if strings.HasPrefix(line, "srun: ") {
			log.Debug(line)
		} else {
			fmt.Fprintln(p.s.kernelLog, line)
			p.mu.Lock()
			p.said = append(p.said[max(0, len(p.said)-2):], line)
			p.mu.Unlock()
		}
	}
}

// reportPending logs, every pendingEvery while job waits in the queue,
// how long it has waited and why (squeue's reason).
func (p *process) reportPending(job string) {
	t := time.NewTicker(p.s.pendingEvery)
	defer t.Stop()
	for {
		select {
		case <-p.exited:
			return
		case <-t.C:
		}
		p.mu.Lock()
		pending := p.pending
		p.mu.Unlock()
		if !pending {
			return
		}
		out, err := p.s.run(context.Background(), "squeue", "--noheader", "--jobs="+job, "--format=%T %r")
		if err != nil {
			out = "squeue: " + out
		}
		p.s.log.Info("slurm: the job is still waiting in the queue", "job", job, "waited", time.Since(p.started).Round(time.Second), "state", out)
	}
}

// Job returns the job id, once srun has said it ("" before).
func (p *process) Job() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.jobID
}

// Interrupt sends SIGINT to the kernel through Slurm (scancel --signal).
func (p *process) Interrupt() error {
	job := p.Job()
	if job == "" {
		return errors.New("slurm: no job yet to interrupt")
	}
	if out, err := p.s.run(context.Background(), "scancel", "--signal=INT", job); err != nil {
		return fmt.Errorf("slurm: scancel --signal=INT %s: %v: %s", job, err, out)
	}
	return nil
}

// Stop cancels the job (scancel, once) and asks srun to end (SIGTERM),
// and kills srun if it has not ended killAfter later. It returns at once.
func (p *process) Stop() error {
	p.mu.Lock()
	p.stopping = true
	job := p.jobID
	p.mu.Unlock()
	var err error
	if job != "" {
		p.cancelOnce.Do(func() {
			out, e := p.s.run(context.Background(), "scancel", job)
			if e != nil {
				select {
				case <-p.exited: // srun ended the job already: nothing to cancel
					p.s.log.Debug("slurm: scancel after the job ended", "job", job, "output", out)
				default:
					err = fmt.Errorf("slurm: scancel %s: %v: %s", job, e, out)
				}
				return
			}
			p.s.log.Info("slurm: released the job (scancel)", "job", job)
		})
	}
	select {
	case <-p.exited:
		return err
	default:
	}
	p.killOnce.Do(func() {
		p.cmd.Process.Signal(syscall.SIGTERM) // srun ends the job step, or withdraws the queued job
		go func() {
			select {
			case <-p.exited:
			case <-time.After(p.s.killAfter):
				p.s.log.Warn("slurm: srun did not end after SIGTERM: killing it", "after", p.s.killAfter)
				p.cmd.Process.Kill()
			}
		}()
	})
	return err
}

// Wait waits for srun to end. It returns nil after a Stop or a clean end
// of the kernel, and otherwise an error that says why, in Slurm's terms
// and with what to do: a job that Slurm ended (scancel, a time limit,
// preemption) is an error even when the kernel exited cleanly on the
// SIGTERM Slurm sent it.
func (p *process) Wait() error {
	err := p.cmd.Wait()
	close(p.exited)
	select { // srun's last words, for explain
	case <-p.stderrDone:
	case <-time.After(2 * time.Second):
	}
	p.mu.Lock()
	stopping, ended := p.stopping, p.ended != ""
	p.mu.Unlock()
	switch {
	case stopping:
		return nil
	case err == nil && !ended:
		return nil // the kernel's own end: shutdown or restart
	case err == nil:
		err = errors.New("srun exited with status 0")
	}
	return p.explain(err)
}

// explain turns srun's failure into an error that says what happened and
// what to do.
func (p *process) explain(waitErr error) error {
	p.mu.Lock()
	job, node, ended := p.jobID, p.node, p.ended
	said := strings.Join(p.errs, "; ")
	kernelSaid := strings.Join(p.said, " | ")
	p.mu.Unlock()
	o := p.s.opts
	ctx := context.Background()
	has := func(s ...string) bool {
		for _, x := range s {
			if strings.Contains(said, x) {
				return true
			}
		}
		return false
	}
	switch {
	case has("Invalid partition name", "invalid partition specified"):
		parts, err := p.s.run(ctx, "sinfo", "--noheader", "--format=%P")
		there := "sinfo lists none"
		if err == nil && parts != "" {
			there = "the partitions here are " + strings.Join(strings.Fields(parts), ", ") + " (* marks the default)"
		}
		return fmt.Errorf("slurm: Slurm has no partition %q (the kernelspec's --partition): %s; reinstall it with one of them: gotensor install --slurm --partition=NAME (srun said: %s)", o.Partition, there, said)
	case o.GPUs != "" && has("Invalid generic resource", "gres", "Requested node configuration is not available"):
		gres, err := p.s.run(ctx, "sinfo", "--noheader", "--format=%P %G")
		there := "sinfo says nothing"
		if err == nil && gres != "" {
			there = strings.Join(strings.Split(gres, "\n"), "; ")
		}
		return fmt.Errorf("slurm: no node here can give the kernel --gpus=%s%s: the generic resources by partition are: %s (\"(null)\": no GPUs); choose a partition with GPUs, or install the kernelspec without --gpus (srun said: %s)", o.GPUs, inPartition(o.Partition), there, said)
	case has("Unable to contact slurm controller", "Unable to establish controller", "Zero Bytes were transmitted"):
		ping, _ := p.s.run(ctx, "scontrol", "ping")
		return fmt.Errorf("slurm: Slurm's controller does not answer (scontrol ping: %s): is slurmctld running, and does this machine's slurm.conf ($SLURM_CONF) name it? (srun said: %s)", firstLine(ping), said)
	case has("execve", "No such file or directory", "Permission denied") && has(o.Binary):
		return fmt.Errorf("slurm: node %s cannot run %s: put gotensor where the nodes see it (a filesystem they share, like your home) or give its path on the nodes with --node-binary (srun said: %s)", orUnknown(node), o.Binary, said)
	}
	state := ""
	if job != "" {
		if out, err := p.s.run(ctx, "scontrol", "--oneliner", "show", "job", job); err == nil {
			state = jobState(out)
		}
	}
	switch {
	case ended != "":
		return fmt.Errorf("slurm: Slurm ended job %s%s: %s", job, state, ended)
	case job != "" && state != "":
		return fmt.Errorf("slurm: job %s ended%s; srun: %v%s%s", job, state, waitErr, saidSuffix(said), kernelSuffix(kernelSaid))
	}
	return fmt.Errorf("slurm: srun failed: %v%s%s", waitErr, saidSuffix(said), kernelSuffix(kernelSaid))
}

func inPartition(p string) string {
	if p == "" {
		return " in the default partition"
	}
	return " in partition " + p
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}

func saidSuffix(said string) string {
	if said == "" {
		return ""
	}
	return " (srun said: " + said + ")"
}

func kernelSuffix(said string) string {
	if said == "" {
		return ""
	}
	return " (the node side's last words: " + said + ")"
}

// jobState picks JobState and Reason out of `scontrol --oneliner show
// job`, as " (state TIMEOUT, reason ...)".
func jobState(out string) string {
	var state, reason string
	for _, f := range strings.Fields(out) {
		if v, ok := strings.CutPrefix(f, "JobState="); ok {
			state = v
		}
		if v, ok := strings.CutPrefix(f, "Reason="); ok {
			reason = v
		}
	}
	switch {
	case state == "":
		return ""
	case reason == "" || reason == "None":
		return " (state " + state + ")"
	}
	return " (state " + state + ", reason " + reason + ")"
}
