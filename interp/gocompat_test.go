package interp_test

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/interp"
	"github.com/gotensor/gotensor/interp/internal/corpus"
)

// The differential harness: the programs of testdata/gocompat/FAMILY/*.go,
// each a package main that prints the same output on every run, run with
// the go command and as cells in several ways (gocompatModes), output for
// output. A program whose cells cannot do what Go does carries a line
//
//	// gocompat: want-error "substring"
//
// and its cells must then end with an error, or write a warning, that
// holds the substring, where they do not print what Go prints.

// gocompatDir holds the harness's programs, one directory per family.
const gocompatDir = "testdata/gocompat"

// cellBreak separates the cells of a source that the "cells" runner runs
// one after the other in one session.
const cellBreak = "\n//gocompat:cell\n"

// runCells runs the cells of src, separated by cellBreak, one after the
// other in one fresh session, and stops at the first that fails.
func runCells(src string, stdout, stderr *os.File) error {
	return runCellsWith(interp.Options{CaptureStdio: true}, src, stdout, stderr)
}

// runCompiledCells is runCells in a session that compiles the cells worth
// compiling (Options.Compile).
func runCompiledCells(src string, stdout, stderr *os.File) error {
	return runCellsWith(interp.Options{CaptureStdio: true, Compile: true}, src, stdout, stderr)
}

// runCellsWith is runCells with the session's options.
func runCellsWith(opts interp.Options, src string, stdout, stderr *os.File) error {
	s, err := interp.New(opts)
	if err != nil {
		return err
	}
	defer s.Close()
	for i, cell := range strings.Split(src, cellBreak) {
		if _, err := s.Execute(context.Background(), cell, fileOutput{stdout, stderr}); err != nil {
			return fmt.Errorf("cell %d: %w", i+1, err)
		}
	}
	return nil
}

// A gocompatMode is one way of running a program as cells.
type gocompatMode struct {
	name string
	src  func(src string) (string, error) // the source for the runner
	// runner is the child's runner: "cells" (interpreted), or
	// "compiled" (a session that compiles cells).
	runner string
}

// gocompatModes are the ways a program runs as cells: the file pasted
// whole into one cell; split across cells, each top-level declaration its
// own cell, then main's body; split likewise with func main declared in
// the last cell (which calls it: the functions of a cell see the types
// and methods of earlier cells); with main renamed and called (its body
// runs inside a function); and main run in a goroutine that the cell
// waits for, its panic passed on.
var gocompatModes = []gocompatMode{
	{"pasted", func(src string) (string, error) { return src, nil }, "cells"},
	{"split", func(src string) (string, error) { return splitCells(src, false) }, "cells"},
	{"declared", func(src string) (string, error) { return splitCells(src, true) }, "cells"},
	{"function", func(src string) (string, error) { return corpus.CellSource(src, "gocompatMain") }, "cells"},
	{"goroutine", func(src string) (string, error) {
		s, err := corpus.CellSource(src, "gocompatMain")
		if err != nil {
			return "", err
		}
		return strings.TrimSuffix(s, "gocompatMain()\n") + goroutineMain, nil
	}, "cells"},
	// Compiled: the program pasted whole into one cell, which compiles
	// with the Go toolchain.
	{"compiled", func(src string) (string, error) { return src, nil }, "compiled"},
}

// goroutineMain runs gocompatMain in a goroutine and ends the cell with
// its panic, as the program would end.
const goroutineMain = `gocompatDone, gocompatPanic := make(chan struct{}), any(nil)
go func() {
	defer close(gocompatDone)
	defer func() { gocompatPanic = recover() }()
	gocompatMain()
}()
<-gocompatDone
if gocompatPanic != nil {
	panic(gocompatPanic)
}
`

// splitCells returns src as cells: each top-level declaration (with its
// doc comment) its own cell, in the order of the file, then the body of
// func main, or with declaredMain func main itself.
func splitCells(src string, declaredMain bool) (string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return "", err
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var cells []string
	var body string
	for _, d := range f.Decls {
		start := d.Pos()
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
			if d.Recv == nil && d.Name.Name == "main" {
				body = src[off(d.Body.Lbrace)+1 : off(d.Body.Rbrace)]
				if declaredMain {
					body = src[off(start):off(d.End())]
				}
				continue
			}
		case *ast.GenDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
		}
		cells = append(cells, src[off(start):off(d.End())])
	}
	return strings.Join(append(cells, body), cellBreak), nil
}

// A gocompatProgram is a program of the harness.
type gocompatProgram struct {
	corpus.Program
	wantErr string // the substring of want-error, or ""
	// known maps the labels of a generated program's lines that are
	// known to differ ("ctxkey" for "ctxkey#3: ...") to the family whose
	// fix is under way.
	known map[string]string
}

// A gocompatDiff is a run as cells that differs from go run's.
type gocompatDiff struct {
	prog, mode string
	// label starts the first line of standard output that differs
	// (before its "#"), naming a generated program's construct; "" when
	// the output is the same or the line has none.
	label string
	// known is the family of a difference on the lines of known labels
	// alone, or "".
	known string
}

// wantErrorLine matches the comment that says what error a program's
// cells give.
var wantErrorLine = regexp.MustCompile(`(?m)^// gocompat: want-error (".*")$`)

// gocompatPrograms reads the harness's programs, named FAMILY/NAME.
func gocompatPrograms(t *testing.T) []gocompatProgram {
	files, err := filepath.Glob(filepath.Join(gocompatDir, "*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no programs in %s", gocompatDir)
	}
	sort.Strings(files)
	var progs []gocompatProgram
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		p := gocompatProgram{Program: corpus.Program{
			Name: filepath.Base(filepath.Dir(path)) + "/" + strings.TrimSuffix(filepath.Base(path), ".go"),
			Path: path,
			Src:  string(src),
		}}
		if m := wantErrorLine.FindStringSubmatch(p.Src); m != nil {
			if p.wantErr, err = strconv.Unquote(m[1]); err != nil {
				t.Fatalf("%s: want-error %s: %v", path, m[1], err)
			}
		}
		progs = append(progs, p)
	}
	return progs
}

// TestGocompat runs the harness's programs with the go command and as
// cells in each of gocompatModes: a cell must print what the go command's
// build prints, on standard output and standard error, and end as it
// ends (normally, or with an error for an exit status), or, for a program
// with want-error, end with that error or write that warning. With
// $GOTENSOR_GOCOMPAT set to a regular expression, only the programs whose
// name (loops/defer_range) it matches run; with -v, the standard error of
// each run that differs is logged.
func TestGocompat(t *testing.T) {
	progs := gocompatPrograms(t)
	if re := os.Getenv("GOTENSOR_GOCOMPAT"); re != "" {
		// Only the programs whose name ("loops/defer_range") matches.
		m := regexp.MustCompile(re)
		progs = slices.DeleteFunc(progs, func(p gocompatProgram) bool { return !m.MatchString(p.Name) })
	}
	runGocompat(t, progs, gocompatModesFor(t))
}

// interpretedModes is the number of gocompatModes that run interpreted
// cells.
func interpretedModes() int {
	n := 0
	for _, m := range gocompatModes {
		if m.runner != "compiled" {
			n++
		}
	}
	return n
}

// gocompatModesFor returns the kinds of cell the harness runs: those
// named in $GOTENSOR_GOCOMPAT_MODES ("compiled,pasted"); else with -short
// the first alone (the program pasted whole into one interpreted cell);
// else all of gocompatModes with $GOTENSOR_TEST_CORPORA=1 (scripts/test.sh
// sets it), and the interpreted ones without it: compiled cells build a
// plugin for each program, minutes on a 2-core machine with a cold cache,
// and the compiled tests (TestCompiled*) check them by default.
func gocompatModesFor(t *testing.T) []gocompatMode {
	names := os.Getenv("GOTENSOR_GOCOMPAT_MODES")
	if names == "" && testing.Short() {
		return gocompatModes[:1]
	}
	if names == "" && os.Getenv(corporaEnv) == "1" {
		return gocompatModes
	}
	if names == "" {
		t.Logf("compiled cells run the programs with $%s=1 or $GOTENSOR_GOCOMPAT_MODES=compiled", corporaEnv)
		return slices.DeleteFunc(slices.Clone(gocompatModes), func(m gocompatMode) bool { return m.runner == "compiled" })
	}
	var modes []gocompatMode
	for _, m := range gocompatModes {
		if slices.Contains(strings.Split(names, ","), m.name) {
			modes = append(modes, m)
		}
	}
	if len(modes) == 0 {
		t.Fatalf("GOTENSOR_GOCOMPAT_MODES=%s names no kind of cell", names)
	}
	return modes
}

// runGocompat runs progs with the go command, all in one build, and as
// cells in each of gocompatModes, and checks that each kind of cell does
// what go run does, or gives the program's want-error, or differs on the
// lines of its known labels alone (logged). It returns the runs that
// differ.
func runGocompat(t *testing.T, progs []gocompatProgram, modes []gocompatMode) []gocompatDiff {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command gives the expected output, and there is none on PATH")
	}
	plain := make([]corpus.Program, len(progs))
	for i, p := range progs {
		plain[i] = p.Program
	}
	workers := 2 * runtime.GOMAXPROCS(0)
	want, err := corpus.GoRunCached(context.Background(), plain, t.TempDir(), hangAfter, workers)
	if err != nil {
		t.Fatal(err)
	}
	var jobs []corpus.Job
	for _, m := range modes {
		for _, p := range progs {
			src, err := m.src(p.Src)
			if err != nil {
				t.Fatalf("%s: %v", p.Name, err)
			}
			jobs = append(jobs, corpus.Job{Name: p.Name, Mode: m.runner, Src: src, Timeout: hangAfter})
		}
	}
	runs, err := corpus.Run(context.Background(), jobs, workers)
	if err != nil {
		t.Fatal(err)
	}
	// A busy machine can make a run time out, or lose the end of its
	// output when the cell ends: a run that differs counts when a second
	// run differs too.
	var again []corpus.Job
	var where []int
	for i, r := range runs {
		p := progs[i%len(progs)]
		if g, ok := want[p.Name]; ok && g.Elapsed > 0 && !g.TimedOut && !r.SameAsGo(g) && !hasWantErr(p, r) && knownDifference(p, r, g) == "" {
			again = append(again, jobs[i])
			where = append(where, i)
		}
	}
	if len(again) > 0 {
		reruns, err := corpus.Run(context.Background(), again, workers)
		if err != nil {
			t.Fatal(err)
		}
		for k, r := range reruns {
			g, first := want[again[k].Name], runs[where[k]]
			if p := progs[where[k]%len(progs)]; r.SameAsGo(g) || hasWantErr(p, r) || knownDifference(p, r, g) != "" {
				t.Logf("%s %s: %s; not so on a second run", again[k].Name, modes[where[k]/len(progs)].name, describeRun(first, g))
				runs[where[k]] = r
			}
		}
	}
	failed, compiledFixed, wantErrs := 0, 0, 0
	var diffs []gocompatDiff
	for j, p := range progs {
		g, ok := want[p.Name]
		if !ok || g.Elapsed == 0 {
			t.Errorf("%s: the go command cannot build it:\n%s", p.Name, p.Src)
			continue
		}
		if g.TimedOut {
			t.Errorf("%s: go run's build still runs after %v", p.Name, g.Timeout)
			continue
		}
		asGo, interpreted := 0, 0
		for i, m := range modes {
			r := runs[i*len(progs)+j]
			if m.runner != "compiled" {
				interpreted++
			}
			switch {
			case r.SameAsGo(g):
				if m.runner != "compiled" {
					asGo++
				} else if p.wantErr != "" {
					compiledFixed++
				}
			case hasWantErr(p, r):
			case knownDifference(p, r, g) != "":
				label, family := diffLabel(r, g), knownDifference(p, r, g)
				if f, ok := p.known[label]; ok {
					family = f // the family of the first line that differs
				}
				diffs = append(diffs, gocompatDiff{p.Name, m.name, label, family})
				t.Logf("%s %s: differs on lines known to differ (%s): %s", p.Name, m.name, family, describeRun(r, g))
			case p.wantErr != "":
				failed++
				t.Errorf("%s %s: want the error or warning %q, or go run's output; got %s", p.Name, m.name, p.wantErr, describeRun(r, g))
			default:
				failed++
				diffs = append(diffs, gocompatDiff{p.Name, m.name, diffLabel(r, g), ""})
				t.Errorf("%s %s: %s", p.Name, m.name, describeRun(r, g))
				if testing.Verbose() {
					t.Logf("stderr of %s %s:\n%s", p.Name, m.name, r.Stderr)
				}
			}
		}
		if p.Path == "" && asGo < len(modes) && p.wantErr == "" {
			t.Logf("%s, generated:\n%s", p.Name, p.Src)
		}
		// Only when every interpreted kind of cell ran (not under -short,
		// nor with $GOTENSOR_GOCOMPAT_MODES naming some): a want-error may
		// hold for one kind alone.
		if p.wantErr != "" && interpreted == interpretedModes() && asGo == interpreted {
			t.Errorf("%s: each kind of interpreted cell prints what go run prints: remove its want-error comment", p.Name)
		}
		if p.wantErr != "" {
			wantErrs++
		}
	}
	t.Logf("%d programs, %d kinds of cell: %d runs differ from go run's", len(progs), len(modes), failed)
	for _, m := range modes {
		if m.runner == "compiled" {
			t.Logf("compiled cells (%s): %d of the %d programs whose interpreted cells give an error or warning print what go run prints", m.name, compiledFixed, wantErrs)
		}
	}
	return diffs
}

// knownDifference returns the family of p's known labels when r, a run as
// cells, does what g, go run's, does once the lines that start with those
// labels are dropped from both standard outputs; "" otherwise.
func knownDifference(p gocompatProgram, r, g corpus.Result) string {
	if len(p.known) == 0 {
		return ""
	}
	var families []string
	drop := func(out string) string {
		var kept []string
		for _, l := range strings.SplitAfter(out, "\n") {
			label, _, ok := strings.Cut(l, "#")
			if family, known := p.known[label]; ok && known {
				if !slices.Contains(families, family) {
					families = append(families, family)
				}
				continue
			}
			kept = append(kept, l)
		}
		return strings.Join(kept, "")
	}
	r.Stdout, g.Stdout = drop(r.Stdout), drop(g.Stdout)
	if !r.SameAsGo(g) {
		return ""
	}
	slices.Sort(families)
	return strings.Join(families, "; ")
}

// diffLabel returns the label of the first line of standard output that
// differs between r and g (the text before its "#"), or "".
func diffLabel(r, g corpus.Result) string {
	_, a, b, ok := firstDifferentLine(r.Stdout, g.Stdout)
	if label, _, found := strings.Cut(b+a, "#"); ok && found && !strings.ContainsAny(label, " :") {
		return label
	}
	return ""
}

// hasWantErr reports whether p has a want-error that r, a run of it as
// cells, ended with or wrote.
func hasWantErr(p gocompatProgram, r corpus.Result) bool {
	return p.wantErr != "" && (strings.Contains(r.Err, p.wantErr) || strings.Contains(r.Stderr, p.wantErr))
}

// describeRun says how r, a run as cells, differs from g, go run's.
func describeRun(r, g corpus.Result) string {
	switch {
	case r.TimedOut:
		return fmt.Sprintf("still running after %v", r.Timeout)
	case r.Stdout != g.Stdout:
		return fmt.Sprintf("stdout %s (ended: %q)", firstDifference(r.Stdout, g.Stdout), r.Why())
	case g.ExitCode != 0:
		return fmt.Sprintf("go run's build exits with status %d, the cell ends without an error", g.ExitCode)
	case r.Err != "" || r.ExitCode != 0:
		return fmt.Sprintf("go run's build ends normally, the cell with %q", r.Why())
	}
	return fmt.Sprintf("stderr %s", firstDifference(r.Stderr, g.Stderr))
}
