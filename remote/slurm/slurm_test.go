package slurm

import (
	"bytes"
	"context"
	"flag"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestArgsRoundTripThroughTheFlags(t *testing.T) {
	for i, o := range []Options{
		{},
		{Partition: "gpu", GPUs: "a100:2", CPUs: 8, Mem: "64G", Time: "8:00:00", Account: "lab", QOS: "high",
			Constraint: "ib", SrunArgs: []string{"--reservation=r", "--exclusive"}, Binary: "/opt/gotensor/bin/gotensor",
			NodeCUDA: "on", Bind: "10.1.2.3", Lifeline: 5 * time.Minute},
		{Lifeline: -1}, // --lifeline=0: none
	} {
		args := o.Args()
		var got Options
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		got.AddFlags(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatalf("%d: parsing %q: %v", i, args, err)
		}
		want := o
		if want.NodeCUDA == "" {
			want.NodeCUDA = "auto"
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%d: %q parsed back to %+v; want %+v", i, args, got, want)
		}
		if life := got.Node().LifelineMS; (o.Lifeline < 0) != (life == 0) {
			t.Errorf("%d: lifeline %v gave LifelineMS %d", i, o.Lifeline, life)
		}
	}
	if ms := (Options{}).Node().LifelineMS; ms != DefaultLifeline.Milliseconds() {
		t.Errorf("the default lifeline is %dms; want %v", ms, DefaultLifeline)
	}
}

func TestSrunArgs(t *testing.T) {
	o := Options{Partition: "gpu", GPUs: "1", CPUs: 4, Time: "1:00:00", SrunArgs: []string{"--exclusive"}, Binary: "/shared/gotensor"}
	want := []string{"--verbose", "--job-name=gotensor-kernel", "--nodes=1", "--ntasks=1",
		"--partition=gpu", "--gpus=1", "--cpus-per-task=4", "--time=1:00:00", "--exclusive",
		"/shared/gotensor", "kernel", "--remote", "--cuda=auto"}
	if got := o.srunArgs(); !reflect.DeepEqual(got, want) {
		t.Errorf("srunArgs = %q\nwant       %q", got, want)
	}
}

func TestValidate(t *testing.T) {
	for i, tc := range []struct {
		o    Options
		want string
	}{
		{Options{NodeCUDA: "maybe"}, "--node-cuda"},
		{Options{SrunArgs: []string{"exclusive"}}, "dashes"},
		{Options{CPUs: -1}, "--cpus"},
	} {
		if err := tc.o.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%d: Validate = %v; want an error about %s", i, err, tc.want)
		}
	}
}

// fakeSlurm is a Starter whose srun is a shell script and whose other
// Slurm commands answer from a table.
type fakeSlurm struct {
	*Starter
	log, kernel bytes.Buffer
	mu          sync.Mutex
	calls       []string
}

// newFake makes the fake; script is srun's body, which finds files[name]
// as "$D/name" (srun's messages hold backquotes, which sh would run).
func newFake(t *testing.T, o Options, script string, files map[string]string, answers map[string]string) *fakeSlurm {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srun := filepath.Join(dir, "srun")
	if err := os.WriteFile(srun, []byte("#!/bin/sh\nD=\"$(dirname \"$0\")\"\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	if o.Binary == "" {
		o.Binary = "/shared/gotensor"
	}
	f := &fakeSlurm{}
	f.Starter = NewStarter(o, slog.New(slog.NewTextHandler(syncWriter{&f.mu, &f.log}, nil)), syncWriter{&f.mu, &f.kernel})
	f.srun = srun
	f.run = func(ctx context.Context, name string, args ...string) (string, error) {
		call := strings.Join(append([]string{name}, args...), " ")
		f.mu.Lock()
		f.calls = append(f.calls, call)
		f.mu.Unlock()
		for prefix, out := range answers {
			if strings.HasPrefix(call, prefix) {
				return out, nil
			}
		}
		return "", nil
	}
	return f
}

type syncWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (w syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

func (f *fakeSlurm) called(prefix string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.calls {
		if strings.HasPrefix(c, prefix) {
			return true
		}
	}
	return false
}

func (f *fakeSlurm) logged() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.log.String()
}

// start starts the fake srun and returns its process, with its stdout
// drained as Launch drains it.
func (f *fakeSlurm) start(t *testing.T) *process {
	t.Helper()
	p, err := f.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, p.Stdout())
	return p.(*process)
}

func TestRefusedAllocationsAreExplained(t *testing.T) {
	for i, tc := range []struct {
		o       Options
		stderr  string
		answers map[string]string
		want    []string
	}{
		{
			Options{Partition: "nosuch"},
			"srun: error: invalid partition specified: nosuch\nsrun: error: Unable to allocate resources: Invalid partition name specified",
			map[string]string{"sinfo": "debug*\ngpu"},
			[]string{`Slurm has no partition "nosuch"`, "debug*, gpu", "--partition=NAME"},
		},
		{
			Options{GPUs: "1", Partition: "cpu"},
			"srun: error: Invalid generic resource (gres) specification",
			map[string]string{"sinfo": "cpu (null)\ngpu gpu:a100:4"},
			[]string{"no node here can give the kernel --gpus=1 in partition cpu", "gpu gpu:a100:4", "without --gpus"},
		},
		{
			Options{},
			"srun: error: Unable to allocate resources: Unable to contact slurm controller (connect failure)",
			map[string]string{"scontrol ping": "Slurmctld(primary) at ctl is DOWN"},
			[]string{"controller does not answer", "is DOWN", "slurmctld"},
		},
		{
			Options{Binary: "/home/u/bin/gotensor"},
			"srun: jobid 5: nodes(1):`n7', cpu counts: 1(x1)\nslurmstepd-n7: error: execve(): /home/u/bin/gotensor: No such file or directory\nsrun: error: n7: task 0: Exited with exit code 2",
			nil,
			[]string{"node n7 cannot run /home/u/bin/gotensor", "--node-binary"},
		},
	} {
		f := newFake(t, tc.o, "cat \"$D/err\" >&2\nexit 1\n", map[string]string{"err": tc.stderr}, tc.answers)
		p := f.start(t)
		err := p.Wait()
		if err == nil {
			t.Errorf("%d: Wait = nil after srun failed", i)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%d: Wait = %v\nwant it to say %q", i, err, w)
			}
		}
	}
}

func TestQueueWaitIsLoggedAndKernelLogPassedOn(t *testing.T) {
	f := newFake(t, Options{}, `cat "$D/queued" >&2; sleep 0.3; cat "$D/running" >&2`, map[string]string{
		"queued": "srun: job 12 queued and waiting for resources",
		"running": "srun: job 12 has been allocated resources\n" +
			"srun: jobid 12: nodes(1):`n3', cpu counts: 1(x1)\n" +
			"srun: launch/slurm: _task_start: Node n3, 1 tasks started\n" +
			`time=T level=INFO msg="kernel: started"`,
	}, map[string]string{"squeue": "PENDING Resources"})
	f.pendingEvery = 100 * time.Millisecond
	p := f.start(t)
	if err := p.Wait(); err != nil {
		t.Fatalf("Wait = %v after srun's clean exit", err)
	}
	log := f.logged()
	for _, w := range []string{
		`msg="slurm: the job is queued, waiting for resources"`, "job=12",
		`msg="slurm: the job is still waiting in the queue"`, `state="PENDING Resources"`,
		`msg="slurm: the job has its resources"`, `msg="slurm: the job is allocated"`, "node=n3",
	} {
		if !strings.Contains(log, w) {
			t.Errorf("the launcher's log lacks %s:\n%s", w, log)
		}
	}
	if strings.Contains(log, "_task_start") {
		t.Errorf("srun's verbose chatter is in the log at Info:\n%s", log)
	}
	if got := f.kernel.String(); got != "time=T level=INFO msg=\"kernel: started\"\n" {
		t.Errorf("the kernel's log came through as %q", got)
	}
}

func TestJobEndedBySlurmIsAnError(t *testing.T) {
	// Slurm's SIGTERM ends the kernel cleanly, and srun exits 0: still an
	// ended job, not a shutdown.
	f := newFake(t, Options{}, `cat "$D/err" >&2`, map[string]string{"err": "srun: jobid 12: nodes(1):`n3', cpu counts: 1(x1)\n" +
		"slurmstepd-n3: error: *** JOB 12 ON n3 CANCELLED AT 2026-01-01T00:00:00 DUE TO TIME LIMIT ***"}, map[string]string{"scontrol --oneliner show job 12": "JobId=12 JobName=gotensor-kernel JobState=TIMEOUT Reason=TimeLimit Dependency=(null)"})
	err := f.start(t).Wait()
	if err == nil || !strings.Contains(err.Error(), "Slurm ended job 12 (state TIMEOUT, reason TimeLimit)") || !strings.Contains(err.Error(), "DUE TO TIME LIMIT") {
		t.Errorf("Wait = %v; want Slurm's end of job 12 with its state", err)
	}
}

func TestInterruptAndStopGoThroughScancel(t *testing.T) {
	f := newFake(t, Options{}, `cat "$D/err" >&2; exec sleep 30`, map[string]string{"err": "srun: jobid 21: nodes(1):`n1', cpu counts: 1(x1)"}, nil)
	f.killAfter = 5 * time.Second
	p := f.start(t)
	deadline := time.Now().Add(10 * time.Second)
	for p.Job() == "" && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if err := p.Interrupt(); err != nil {
		t.Fatal(err)
	}
	if !f.called("scancel --signal=INT 21") {
		t.Errorf("Interrupt ran %q; want scancel --signal=INT 21", f.calls)
	}
	done := make(chan error, 1)
	go func() { done <- p.Wait() }()
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Wait = %v after Stop; want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("srun did not end after Stop")
	}
	if !f.called("scancel 21") {
		t.Errorf("Stop ran %q; want scancel 21", f.calls)
	}
}

func TestKernelThatFailsOnTheNodeIsQuoted(t *testing.T) {
	f := newFake(t, Options{NodeCUDA: "on"}, `cat "$D/err" >&2; exit 1`, map[string]string{"err": "srun: jobid 3: nodes(1):`n1', cpu counts: 1(x1)\n" +
		"gotensor kernel: install: --cuda: no CUDA build /shared/gotensor-cuda beside /shared/gotensor\n" +
		"srun: error: n1: task 0: Exited with exit code 1"}, nil)
	err := f.start(t).Wait()
	if err == nil || !strings.Contains(err.Error(), "no CUDA build /shared/gotensor-cuda") {
		t.Errorf("Wait = %v; want the node side's own reason", err)
	}
}
