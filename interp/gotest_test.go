package interp_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gotensor/gotensor/interp"
	"github.com/gotensor/gotensor/interp/internal/corpus"
)

// goTestEnv turns on TestGoTest: "1" runs the programs of Go's test
// directory itself and every goTestEvery-th of its other folders, "all"
// runs every program.
const goTestEnv = "GOTENSOR_GOTEST"

// goTestEvery is the stride of the sample of the other folders' programs
// that GOTENSOR_GOTEST=1 runs.
const goTestEvery = 4

// goTestHang is how long a program of Go's test directory may run as
// cells before it counts as hung. Some of them loop millions of times,
// which the interpreter takes minutes for.
const goTestHang = 30 * time.Second

// runCombined runs the cells of src, separated by cellBreak, as runCells
// does, with the cells' standard output and standard error written to
// stdout together, in the order the session writes them: Go's test
// runner compares a program's output of both streams with its .out file.
func runCombined(src string, stdout, _ *os.File) error {
	return runCellsWith(interp.Options{CaptureStdio: true}, src, stdout, stdout)
}

// runCompiledCombined is runCombined in a session that compiles cells.
func runCompiledCombined(src string, stdout, _ *os.File) error {
	return runCellsWith(interp.Options{CaptureStdio: true, Compile: true}, src, stdout, stdout)
}

// The classes of a program of Go's test directory run as cells.
const (
	goTestSame    = "same"    // the cells ended normally and printed the .out file
	goTestLoud    = "loud"    // a cell ended with an error, or warned, and the output differs
	goTestSilent  = "silent"  // the cells ended normally with another output
	goTestHangs   = "hang"    // still running when its time was up
	goTestSkipped = "skipped" // a recipe or constraint a notebook cannot honour
)

// warningLine starts the lines the session writes to warn a cell.
const warningLine = "interp: warning: "

// classifyGoTest classifies r, the run as cells of a program of Go's test
// directory whose expected output (both streams) is want: same, loud,
// silent or hang. The session's warnings are not the program's output: a
// run that printed want besides them is the same; one that differs is
// loud when the session warned.
func classifyGoTest(r corpus.Result, want string) string {
	var kept []string
	warned := false
	for _, l := range strings.SplitAfter(r.Stdout, "\n") {
		if strings.HasPrefix(l, warningLine) {
			warned = true
			continue
		}
		kept = append(kept, l)
	}
	out := strings.Join(kept, "")
	switch {
	case r.TimedOut:
		return goTestHangs
	case r.Err != "" || r.ExitCode != 0:
		return goTestLoud
	case out == want:
		return goTestSame
	case warned:
		return goTestLoud
	}
	return goTestSilent
}

// TestGoTest runs the programs of the Go distribution's own test directory
// ($GOROOT/test) that Go's test runner runs and checks with their .out
// file (corpus.GoTestPrograms), as cells, each in a child process of its
// own, and writes a report: how many print what Go prints, how many end
// with an error (loud), how many print something else with no error
// (silent: each is listed with its first difference), how many hang, and
// the programs skipped with the reason. It checks nothing: the report is
// the result. It runs only with $GOTENSOR_GOTEST set ("1": the test
// directory and a sample of its folders; "all": every folder; else a
// regular expression that picks programs by name, "fixedbugs/issue1"); the kinds
// of cell are those of gocompatModes named in $GOTENSOR_GOTEST_MODES
// ("pasted" when unset; "split" and "compiled" too); the report goes to
// $GOTENSOR_GOTEST_REPORT, or gotensor-gotest.txt in the temporary
// directory.
func TestGoTest(t *testing.T) {
	which := os.Getenv(goTestEnv)
	if which == "" {
		t.Skipf("set $%s=1 (or all) to run Go's own test programs as cells (minutes)", goTestEnv)
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("the go command names Go's test directory (go env GOROOT): %v", err)
	}
	root := strings.TrimSpace(string(out))
	progs, skipped, err := corpus.GoTestPrograms(filepath.Join(root, "test"), corpus.GoTestDirs)
	if err != nil {
		t.Fatal(err)
	}
	switch which {
	case "all":
	case "1":
		var sample []corpus.Program
		n := 0
		for _, p := range progs {
			if !strings.Contains(p.Name, "/") {
				sample = append(sample, p)
			} else if n++; n%goTestEvery == 1 {
				sample = append(sample, p)
			}
		}
		t.Logf("%d of the %d programs: those of the test directory itself and every %dth of its folders' ($%s=all runs every one)", len(sample), len(progs), goTestEvery, goTestEnv)
		progs = sample
	default:
		// A regular expression: the programs whose name it matches.
		m, err := regexp.Compile(which)
		if err != nil {
			t.Fatalf("$%s: 1, all, or a regular expression that matches programs' names: %v", goTestEnv, err)
		}
		progs = slices.DeleteFunc(progs, func(p corpus.Program) bool { return !m.MatchString(p.Name) })
	}
	modes := []string{"pasted"}
	if m := os.Getenv("GOTENSOR_GOTEST_MODES"); m != "" {
		modes = strings.Split(m, ",")
	}
	var jobs []corpus.Job
	for _, name := range modes {
		i := slices.IndexFunc(gocompatModes, func(m gocompatMode) bool { return m.name == name })
		if i < 0 || gocompatModes[i].name == "goroutine" {
			t.Fatalf("GOTENSOR_GOTEST_MODES: %q is not a kind of cell (pasted, split, declared, function, compiled)", name)
		}
		m := gocompatModes[i]
		runner := map[string]string{"cells": "combined", "compiled": "compiled-combined"}[m.runner]
		for _, p := range progs {
			src, err := m.src(p.Src)
			if err != nil {
				// A program that go/parser cannot split runs pasted.
				src = p.Src
			}
			jobs = append(jobs, corpus.Job{Name: p.Name, Mode: runner, Src: src, Timeout: goTestHang})
		}
	}
	start := time.Now()
	runs, err := corpus.Run(context.Background(), jobs, 2)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Go's test programs (%s) run as cells, %s, in %v\n", root, goTestVersion(root), time.Since(start).Round(time.Second))
	for k, mode := range modes {
		counts := map[string]int{}
		var lines []string
		for j, p := range progs {
			r := runs[k*len(progs)+j]
			c := classifyGoTest(r, p.Want)
			counts[c]++
			switch c {
			case goTestSilent:
				lines = append(lines, fmt.Sprintf("silent\t%s\t%s", p.Name, firstDifference(r.Stdout, p.Want)))
			case goTestLoud:
				why := r.Why()
				if why == "" {
					why = "warned: " + firstDifference(r.Stdout, p.Want)
				}
				lines = append(lines, fmt.Sprintf("loud\t%s\t%s", p.Name, why))
			case goTestHangs:
				lines = append(lines, fmt.Sprintf("hang\t%s\t%s", p.Name, r.Why()))
			}
		}
		slices.Sort(lines) // loud, then hang, then silent
		run := len(progs)
		summary := fmt.Sprintf("%s: %d programs run (%d skipped in the whole directory): %d same (%.1f%% of those run), %d loud, %d silent, %d hang",
			mode, run, len(skipped), counts[goTestSame], 100*float64(counts[goTestSame])/float64(run), counts[goTestLoud], counts[goTestSilent], counts[goTestHangs])
		t.Log(summary)
		fmt.Fprintf(&b, "\n%s\n%s\n", summary, strings.Join(lines, "\n"))
	}
	fmt.Fprintf(&b, "\nskipped\n")
	for _, s := range skipped {
		fmt.Fprintf(&b, "skipped\t%s\t%s\n", s.Name, s.Why)
	}
	path := os.Getenv("GOTENSOR_GOTEST_REPORT")
	if path == "" {
		path = filepath.Join(os.TempDir(), "gotensor-gotest.txt")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("report: %s", path)
}

// goTestVersion returns the Go version of the distribution at root.
func goTestVersion(root string) string {
	v, err := os.ReadFile(filepath.Join(root, "VERSION"))
	if err != nil {
		return "version unknown"
	}
	first, _, _ := strings.Cut(string(v), "\n")
	return first
}
