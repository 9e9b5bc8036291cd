package corpus

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A Job is one program to run in one mode.
type Job struct {
	Name    string        // the program's name, for reports
	Mode    string        // the Runner of the child that runs it
	Src     string        // the source handed to the Runner
	Timeout time.Duration // how long the child may run; zero means 20 s
}

// A Result is what a job's child did.
type Result struct {
	Job
	Stdout, Stderr string // what it printed, each cut at 1 MiB
	Err            string // the error the runner returned, if it returned one
	ExitCode       int    // the program's own exit status, -1 when killed by a signal
	TimedOut       bool
	Elapsed        time.Duration
}

// An Outcome classifies a Result against the output expected.
type Outcome string

// The outcomes.
const (
	Pass    Outcome = "pass"    // the runner returned nil and the output was the one expected
	Fail    Outcome = "fail"    // the runner returned nil with another output
	Error   Outcome = "error"   // the runner returned an error (compile error, panic)
	Exit    Outcome = "exit"    // the process ended early: os.Exit, a fatal error, a signal
	Timeout Outcome = "timeout" // still running when the job's time was up
)

// Outcome compares r's standard output with want using same
// (SameTrimmed, or == for an exact comparison).
func (r Result) Outcome(want string, same func(got, want string) bool) Outcome {
	switch {
	case r.TimedOut:
		return Timeout
	case r.Err != "":
		return Error
	case r.ExitCode != 0:
		return Exit
	case !same(r.Stdout, want):
		return Fail
	}
	return Pass
}

// Why returns a line that says how r ended, for a report: the runner's
// error, the exit status or the time limit; "" for a run that ended
// normally.
func (r Result) Why() string {
	switch {
	case r.TimedOut:
		return fmt.Sprintf("still running after %v", r.Timeout)
	case r.Err != "":
		return firstLine(r.Err)
	case r.ExitCode != 0:
		return fmt.Sprintf("exit status %d: %s", r.ExitCode, lastLine(r.Stderr))
	}
	return ""
}

// Run runs each job in a child process, workers at a time, and returns the
// results in the order of jobs. A child is this executable started again
// with the job in its environment (see ServeChild), in a fresh working
// directory that is also its TMPDIR, removed afterwards, with an empty
// standard input. A child still running when its time is up is killed with
// every process it started.
func Run(ctx context.Context, jobs []Job, workers int) ([]Result, error) {
	// /proc/self/exe is this executable even when its file has been
	// replaced since it started.
	exe := "/proc/self/exe"
	if _, err := os.Stat(exe); err != nil {
		if exe, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("corpus: finding this executable: %w", err)
		}
	}
	if workers < 1 {
		workers = 1
	}
	results := make([]Result, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				results[i], errs[i] = runChild(ctx, exe, jobs[i])
			}
		})
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	return results, errors.Join(errs...)
}

// maxOutput is how much of a child's stdout and stderr a Result keeps.
const maxOutput = 1 << 20

// runChild runs one job.
func runChild(ctx context.Context, exe string, job Job) (Result, error) {
	return runIn(ctx, exe, job, func(dir string) ([]string, error) {
		file := filepath.Join(dir, ".source.go")
		if err := os.WriteFile(file, []byte(job.Src), 0o644); err != nil {
			return nil, err
		}
		return []string{envMode + "=" + job.Mode, envFile + "=" + file}, nil
	})
}

// runIn runs exe for job in a fresh working directory that is also its
// TMPDIR, with the environment variables that prepare(dir) returns added.
func runIn(ctx context.Context, exe string, job Job, prepare func(dir string) ([]string, error)) (Result, error) {
	r := Result{Job: job}
	if r.Timeout == 0 {
		r.Timeout = 20 * time.Second
	}
	dir, err := os.MkdirTemp("", "corpus-")
	if err != nil {
		return r, fmt.Errorf("corpus: %s: %w", job.Name, err)
	}
	defer os.RemoveAll(dir)
	env, err := prepare(dir)
	if err != nil {
		return r, fmt.Errorf("corpus: %s: %w", job.Name, err)
	}
	ctx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), env...), "TMPDIR="+dir)
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// The child and what it starts form a process group, killed together.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// Grandchildren that keep the output pipes open must not hold Wait.
	cmd.WaitDelay = time.Second
	start := time.Now()
	err = cmd.Run()
	r.Elapsed = time.Since(start)
	if cmd.Process != nil {
		// Whatever the program started and left behind.
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	r.Stdout, r.Stderr = stdout.String(), stderr.String()
	var exit *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		r.TimedOut = true
	case errors.As(err, &exit):
		r.ExitCode = exit.ExitCode()
		if r.ExitCode == exitError {
			r.ExitCode = 0
			r.Err = "the runner returned an error"
			if i := strings.LastIndex(r.Stderr, errorMark); i >= 0 {
				r.Stderr, r.Err = r.Stderr[:i], strings.TrimSuffix(r.Stderr[i+len(errorMark):], "\n")
			}
		}
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		return r, fmt.Errorf("corpus: %s: %w", job.Name, err)
	}
	return r, nil
}

// capped is a buffer that keeps the first maxOutput bytes written to it.
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxOutput - c.Len(); room < len(p) {
		c.Buffer.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return c.Buffer.Write(p)
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	return s[strings.LastIndexByte(s, '\n')+1:]
}
