package interp_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gotensor/gotensor/internal/testenv"
	"github.com/gotensor/gotensor/interp"
	"github.com/gotensor/gotensor/interp/internal/corpus"
	"github.com/gotensor/gotensor/kernel"
)

// TestMain lets the corpus tests start this binary again as the child that
// runs one program (see package corpus).
// hangAfter is how long a corpus program may run before it counts as
// hung: a safety net, not a measure of speed (each runs in well under a
// second), generous enough for two busy cores.
const hangAfter = 60 * time.Second

func TestMain(m *testing.M) {
	corpus.ServeChild(map[string]corpus.Runner{"bare": corpus.Bare, "cell": runCell, "cells": runCells, "compiled": runCompiledCells,
		"combined": runCombined, "compiled-combined": runCompiledCombined})
	os.Exit(m.Run())
}

// runCell runs src as one cell of a fresh session, set up as the kernel sets
// it up (file descriptors 1 and 2 captured into the cell's streams).
func runCell(src string, stdout, stderr *os.File) error {
	s, err := interp.New(interp.Options{CaptureStdio: true})
	if err != nil {
		return err
	}
	defer s.Close()
	_, err = s.Execute(context.Background(), src, fileOutput{stdout, stderr})
	return err
}

// fileOutput is an Output that writes a cell's streams to two files.
type fileOutput struct{ stdout, stderr *os.File }

func (o fileOutput) Stream(name, text string) {
	if name == "stdout" {
		o.stdout.WriteString(text)
	} else {
		o.stderr.WriteString(text)
	}
}

func (fileOutput) Display(b kernel.Bundle, id string, update bool) {}
func (fileOutput) ClearOutput(wait bool)                           {}
func (fileOutput) Input(prompt string, password bool) (string, error) {
	return "", fmt.Errorf("no standard input in the corpus test")
}

// corporaEnv turns on the corpus tests, which take many minutes on a
// 2-core machine (scripts/test.sh sets it): without it, `go test ./...`
// stays within go test's default time-out.
const corporaEnv = "GOTENSOR_TEST_CORPORA"

// longRun skips the test unless $GOTENSOR_TEST_CORPORA is 1 (and always
// with -short), saying how to run it.
func longRun(t *testing.T, what string) {
	t.Helper()
	if testing.Short() || os.Getenv(corporaEnv) != "1" {
		t.Skipf("%s takes many minutes: set $%s=1 to run it (scripts/test.sh does)", what, corporaEnv)
	}
}

// TestYaegiCorpus runs each of yaegi's regression programs that carry an
// "// Output:" comment, each run in a child process of its own, with bare
// yaegi (corpus.Bare) and as one cell of a fresh session in three ways:
// pasted as it is, package clause and func main included; without its
// package clause; and without it, func main renamed and called at the end.
// A program passes when its standard output is its Output comment, or, as
// a cell, when it prints what `go run` prints for it (Go's behaviour wins
// where the comment records yaegi's: println on standard output, loop
// variables before Go 1.22, yaegi's own os.Exit). A program bare yaegi
// runs must run in each kind of cell, except those listed in
// corpus_failures_test.go; a listed program that runs, or that bare yaegi
// fails too, must leave its list.
func TestYaegiCorpus(t *testing.T) {
	longRun(t, "yaegi's corpus")
	dir, err := corpus.ModuleDir("github.com/traefik/yaegi")
	if err != nil {
		testenv.Missing(t, "yaegi's source is not available (go mod download github.com/traefik/yaegi): %v", err)
	}
	progs, err := corpus.YaegiPrograms(dir)
	if err != nil {
		t.Fatal(err)
	}
	runCorpus(t, progs, []variant{
		{"cell", "cell", pasted, yaegiPastedFailures},
		{"cell-nopackage", "cell", nopackage, yaegiNoPackageFailures},
		{"cell-renamed", "cell", renamed, yaegiRenamedFailures},
	}, corpus.SameTrimmed, true)
}

// The sources of a program's cell: the file pasted as it is; without its
// package clause; without it and with func main renamed and called at the
// end.
var (
	pasted    = func(p corpus.Program) (string, error) { return p.Src, nil }
	nopackage = func(p corpus.Program) (string, error) { return corpus.CellSource(p.Src, "") }
	renamed   = func(p corpus.Program) (string, error) { return corpus.CellSource(p.Src, "programMain") }
)

// A variant is one way of running a corpus's programs as cells.
type variant struct {
	name     string // in reports
	mode     string // the child's runner
	src      func(corpus.Program) (string, error)
	failures knownFailures // the programs bare yaegi runs and this variant does not
}

// knownFailures maps a cause to the programs that fail for it, their names
// separated by white space. A cause that starts with "sometimes" marks
// programs whose outcome varies from run to run: they may pass or fail.
type knownFailures map[string]string

// byProgram returns each listed program's cause.
func (k knownFailures) byProgram(t *testing.T) map[string]string {
	m := map[string]string{}
	for cause, names := range k {
		for _, n := range strings.Fields(names) {
			if prev, ok := m[n]; ok {
				t.Errorf("%s is listed twice: %q and %q", n, prev, cause)
			}
			m[n] = cause
		}
	}
	return m
}

// runCorpus runs progs with bare yaegi and in every variant, compares their
// standard output with Want using same, logs the counts and checks each
// variant's list of failures. With $GOTENSOR_CORPUS_REPORT set, it writes
// every program's outcome and reason there, one line each.
//
// With byGo set, a cell that fails the comparison passes when it printed
// what the go command's build of the program prints (corpus.SameAsGo), and
// the programs that pass so are logged.
func runCorpus(t *testing.T, progs []corpus.Program, variants []variant, same func(got, want string) bool, byGo bool) {
	modes := append([]variant{{name: "bare", mode: "bare", src: pasted}}, variants...)
	start := time.Now()
	goRuns := map[string]corpus.Result{}
	judge := func(r results, progs []corpus.Program) results {
		if byGo {
			r.judgeByGo(t, progs, variants, goRuns)
		}
		return r
	}
	r := judge(runModes(t, progs, modes, same), progs)
	for _, v := range variants {
		if len(r.byGo[v.name]) > 0 {
			t.Logf("%s: %d programs pass by what the go command's build of them prints and how it ends, not by their expected text: %s", v.name, len(r.byGo[v.name]), strings.Join(r.byGo[v.name], " "))
		}
	}
	t.Logf("%d programs, %d runs in %v", len(progs), len(progs)*len(modes), time.Since(start).Round(time.Second))
	var counts []string
	for _, v := range modes {
		n := 0
		for _, o := range r.outcome[v.name] {
			if o == corpus.Pass {
				n++
			}
		}
		counts = append(counts, fmt.Sprintf("%s %d", v.name, n))
	}
	t.Logf("of %d programs, passed: %s", len(progs), strings.Join(counts, ", "))
	if path := os.Getenv("GOTENSOR_CORPUS_REPORT"); path != "" {
		r.write(t, path, progs, modes)
	}

	for _, v := range variants {
		for name := range v.failures.byProgram(t) {
			if _, ok := r.outcome[v.name][name]; !ok {
				t.Errorf("%s: listed as a %s failure but not in the corpus: remove it", name, v.name)
			}
		}
	}
	probs := problems(t, r, progs, variants)
	if len(probs) > 0 {
		// A busy machine can make a program time out or interleave its
		// goroutines otherwise: a problem counts when a second run of
		// the program gives it again.
		var again []corpus.Program
		for _, p := range progs {
			for _, pr := range probs {
				if pr.prog == p.Name {
					again = append(again, p)
					break
				}
			}
		}
		confirmed := map[problem]bool{}
		for _, pr := range problems(t, judge(runModes(t, again, modes, same), again), again, variants) {
			confirmed[pr] = true
		}
		for _, pr := range probs {
			if !confirmed[pr] {
				t.Logf("%s as a %s: %s; not so on a second run: if it recurs, list it under a cause that starts with \"sometimes\"", pr.prog, pr.variant, pr.msg)
				continue
			}
			t.Errorf("%s as a %s: %s", pr.prog, pr.variant, pr.msg)
		}
	}
}

// results are the outcomes of programs run in several modes.
type results struct {
	outcome map[string]map[string]corpus.Outcome // mode's name → program → outcome
	why     map[string]map[string]string         // a line that says how a failed run ended
	took    map[string]map[string]time.Duration
	runs    map[string]map[string]corpus.Result
	byGo    map[string][]string // mode's name → the programs that pass by go run's output
}

// judgeByGo makes Pass the outcome of each cell run that failed and
// printed what the go command's build of its program prints. It builds
// and runs, with the go command, the programs that need it and are not in
// goRuns yet, and adds them there.
func (r results) judgeByGo(t *testing.T, progs []corpus.Program, variants []variant, goRuns map[string]corpus.Result) {
	var need []corpus.Program
	for _, p := range progs {
		if _, done := goRuns[p.Name]; done {
			continue
		}
		for _, v := range variants {
			if r.outcome[v.name][p.Name] != corpus.Pass {
				need = append(need, p)
				break
			}
		}
	}
	if len(need) > 0 {
		got, err := corpus.GoRunCached(context.Background(), need, t.TempDir(), hangAfter, 2*runtime.GOMAXPROCS(0))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range need {
			goRuns[p.Name] = got[p.Name] // a zero Result where it did not build
		}
	}
	for _, v := range variants {
		for _, p := range progs {
			g, ok := goRuns[p.Name]
			if !ok || g.Elapsed == 0 || r.outcome[v.name][p.Name] == corpus.Pass || !r.runs[v.name][p.Name].SameAsGo(g) {
				continue
			}
			r.outcome[v.name][p.Name] = corpus.Pass
			r.why[v.name][p.Name] = ""
			r.byGo[v.name] = append(r.byGo[v.name], p.Name)
		}
	}
}

// runModes runs each program in each mode, one mode after the other: the
// runs of one program, which may share a file or a port, are far apart.
func runModes(t *testing.T, progs []corpus.Program, modes []variant, same func(got, want string) bool) results {
	var jobs []corpus.Job
	for _, v := range modes {
		for _, p := range progs {
			src, err := v.src(p)
			if err != nil {
				t.Fatalf("%s: %v", p.Name, err)
			}
			jobs = append(jobs, corpus.Job{Name: p.Name, Mode: v.mode, Src: src, Timeout: hangAfter})
		}
	}
	// Twice as many children as processors: a child that hangs until its
	// time is up leaves its processor idle.
	runs, err := corpus.Run(context.Background(), jobs, 2*runtime.GOMAXPROCS(0))
	if err != nil {
		t.Fatal(err)
	}
	r := results{map[string]map[string]corpus.Outcome{}, map[string]map[string]string{}, map[string]map[string]time.Duration{}, map[string]map[string]corpus.Result{}, map[string][]string{}}
	for _, v := range modes {
		r.outcome[v.name], r.why[v.name], r.took[v.name], r.runs[v.name] = map[string]corpus.Outcome{}, map[string]string{}, map[string]time.Duration{}, map[string]corpus.Result{}
	}
	for i, run := range runs {
		p, v := progs[i%len(progs)], modes[i/len(progs)]
		o := run.Outcome(p.Want, same)
		r.outcome[v.name][p.Name] = o
		r.runs[v.name][p.Name] = run
		r.took[v.name][p.Name] = run.Elapsed
		switch o {
		case corpus.Fail:
			r.why[v.name][p.Name] = "output: " + firstDifference(run.Stdout, p.Want)
		case corpus.Pass:
		default:
			r.why[v.name][p.Name] = run.Why()
		}
	}
	return r
}

// A problem is a program whose outcome in a variant does not match the
// variant's list of failures.
type problem struct{ prog, variant, msg string }

// problems checks each variant's outcomes against its list: what bare yaegi
// runs must run, or be listed; a listed program must still fail, and bare
// yaegi must run it.
func problems(t *testing.T, r results, progs []corpus.Program, variants []variant) []problem {
	var probs []problem
	for _, v := range variants {
		listedAs := v.failures.byProgram(t)
		for _, p := range progs {
			bare, got := r.outcome["bare"][p.Name], r.outcome[v.name][p.Name]
			cause, listed := listedAs[p.Name]
			switch {
			case strings.HasPrefix(cause, "sometimes"):
			case bare == corpus.Pass && got != corpus.Pass && !listed:
				probs = append(probs, problem{p.Name, v.name, fmt.Sprintf("bare yaegi runs it, the cell does not (%s: %s): fix it, or list it under its cause", got, r.why[v.name][p.Name])})
			case listed && got == corpus.Pass:
				probs = append(probs, problem{p.Name, v.name, fmt.Sprintf("it runs now: remove it from the list (%s)", cause)})
			case listed && bare != corpus.Pass:
				probs = append(probs, problem{p.Name, v.name, fmt.Sprintf("bare yaegi fails it too (%s: %s): remove it from the list", bare, r.why["bare"][p.Name])})
			}
		}
	}
	return probs
}

// write writes "program mode outcome seconds reason" lines to path.
func (r results) write(t *testing.T, path string, progs []corpus.Program, modes []variant) {
	var b strings.Builder
	for _, p := range progs {
		for _, v := range modes {
			fmt.Fprintf(&b, "%s\t%s\t%s\t%.2f\t%s\n", p.Name, v.name, r.outcome[v.name][p.Name], r.took[v.name][p.Name].Seconds(), r.why[v.name][p.Name])
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Error(err)
	}
}

// firstDifference describes where got first differs from want.
func firstDifference(got, want string) string {
	i, gl, wl, ok := firstDifferentLine(strings.TrimSpace(got), strings.TrimSpace(want))
	if !ok {
		return "white space differs"
	}
	k := 0
	for k < len(gl) && k < len(wl) && gl[k] == wl[k] {
		k++
	}
	k = max(0, k-20) // a few characters before the first that differs
	return fmt.Sprintf("line %d from byte %d: got %.60q, want %.60q", i+1, k, gl[min(k, len(gl)):], wl[min(k, len(wl)):])
}

// firstDifferentLine returns the number (from 0) of the first line where
// got and want differ, and that line of each ("" past its end); ok is
// false when their lines are the same.
func firstDifferentLine(got, want string) (i int, gl, wl string, ok bool) {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		gl, wl = "", ""
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return i, gl, wl, true
		}
	}
	return 0, "", "", false
}

// goByExampleEnv names a checkout of github.com/mmcgrana/gobyexample: the
// Go module proxy does not serve it, so the test reads it where a person
// put it.
const goByExampleEnv = "GOTENSOR_GOBYEXAMPLE"

// TestGoByExample runs Go by Example's deterministic programs
// (corpus.GoByExampleDeterministic) with `go run` for the expected output,
// then as TestYaegiCorpus runs yaegi's: with bare yaegi and as a cell in the
// same three ways, each compared with `go run`'s output byte for byte.
func TestGoByExample(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus takes minutes; run without -short")
	}
	root := os.Getenv(goByExampleEnv)
	if root == "" {
		t.Skipf("set $%s to a checkout of github.com/mmcgrana/gobyexample to run its programs (the Go module proxy does not serve it)", goByExampleEnv)
	}
	if _, err := exec.LookPath("go"); err != nil {
		testenv.Missing(t, "the go command computes the expected output, and there is none on PATH")
	}
	progs, err := corpus.GoByExamplePrograms(root)
	if err != nil {
		t.Fatal(err)
	}
	for i := range progs {
		progs[i].Want = goRun(t, progs[i])
	}
	runCorpus(t, progs, []variant{
		{"cell", "cell", pasted, goByExamplePastedFailures},
		{"cell-nopackage", "cell", nopackage, goByExampleNoPackageFailures},
		{"cell-renamed", "cell", renamed, goByExampleRenamedFailures},
	}, func(got, want string) bool { return got == want }, true)
}

// goRun returns what `go run` prints on standard output for p, run in a
// fresh directory that is also its TMPDIR. A program may end with an exit
// status (exit, panic): the cell must then end with an error, which
// runCorpus checks against the go command's build of it.
func goRun(t *testing.T, p corpus.Program) string {
	dir := t.TempDir()
	cmd := exec.Command("go", "run", p.Path)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+dir)
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("go run %s: %v", filepath.Base(p.Path), err)
	}
	return string(out)
}

// TestYaegiCorpusCompiled runs yaegi's programs as compiled cells: each
// pasted whole into a fresh session that compiles cells (Options.Compile),
// with the same rules as TestYaegiCorpus. Each program is a build (about a
// second on an idle 2-core machine), so it runs every 20th program, or
// all of them with $GOTENSOR_CORPUS_COMPILED=all.
func TestYaegiCorpusCompiled(t *testing.T) {
	longRun(t, "yaegi's corpus")
	dir, err := corpus.ModuleDir("github.com/traefik/yaegi")
	if err != nil {
		testenv.Missing(t, "yaegi's source is not available (go mod download github.com/traefik/yaegi): %v", err)
	}
	progs, err := corpus.YaegiPrograms(dir)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("GOTENSOR_CORPUS_COMPILED") != "all" {
		var sample []corpus.Program
		for i, p := range progs {
			if i%20 == 0 {
				sample = append(sample, p)
			}
		}
		progs = sample
	}
	failures := yaegiCompiledFailures
	if os.Getenv("GOTENSOR_CORPUS_COMPILED") != "all" {
		failures = knownFailures{}
		for cause, names := range yaegiCompiledFailures {
			var kept []string
			for _, n := range strings.Fields(names) {
				for _, p := range progs {
					if p.Name == n {
						kept = append(kept, n)
					}
				}
			}
			if len(kept) > 0 {
				failures[cause] = strings.Join(kept, " ")
			}
		}
	}
	runCorpus(t, progs, []variant{{"compiled", "compiled", pasted, failures}}, corpus.SameTrimmed, true)
}
