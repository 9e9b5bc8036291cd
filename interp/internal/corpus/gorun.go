package corpus

import (
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// GoRun builds progs with the go command, all in one `go build` of a
// module made in dir, and runs each program as Run runs a child (a fresh
// working directory that is also its TMPDIR, an empty standard input, the
// time limit): what `go run` prints for it. It returns the results by
// program name; a program the go command cannot build (one written for
// yaegi alone) has none.
func GoRun(ctx context.Context, progs []Program, dir string, timeout time.Duration, workers int) (map[string]Result, error) {
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module corpusgorun\n\ngo 1.26\n"), 0o644); err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	for i, p := range progs {
		if !stdOnly(p.Src) {
			continue // the go command would look for its modules
		}
		pkg := filepath.Join(dir, fmt.Sprintf("p%d", i))
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			return nil, fmt.Errorf("corpus: %w", err)
		}
		if err := os.WriteFile(filepath.Join(pkg, "main.go"), []byte(p.Src), 0o644); err != nil {
			return nil, fmt.Errorf("corpus: %w", err)
		}
	}
	bin := filepath.Join(dir, "bin")
	// Programs that do not build are left out; the others are built.
	build := exec.CommandContext(ctx, "go", "build", "-o", bin+string(filepath.Separator), "./...")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off", "GOPROXY=off")
	build.Run()

	results := map[string]Result{}
	var mu sync.Mutex
	next := make(chan int)
	var wg sync.WaitGroup
	errs := make([]error, len(progs))
	for range max(workers, 1) {
		wg.Go(func() {
			for i := range next {
				exe := filepath.Join(bin, fmt.Sprintf("p%d", i))
				if _, err := os.Stat(exe); err != nil {
					continue
				}
				r, err := runIn(ctx, exe, Job{Name: progs[i].Name, Mode: "go run", Timeout: timeout}, func(string) ([]string, error) { return nil, nil })
				errs[i] = err
				mu.Lock()
				results[progs[i].Name] = r
				mu.Unlock()
			}
		})
	}
	for i := range progs {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return results, err
		}
	}
	return results, nil
}

// SameAsGo reports whether r, a program's run as a cell, printed what g,
// its run by the go command, printed: the same standard output and the
// same end, and, when the program ended normally, the same standard error
// (where Go's print and println write). A program that panics or exits
// with a status must end the cell with an error; its standard error holds
// Go's stack trace, which a cell does not print.
func (r Result) SameAsGo(g Result) bool {
	if r.TimedOut || g.TimedOut || r.Stdout != g.Stdout {
		return false
	}
	if g.ExitCode != 0 {
		return r.Err != "" || r.ExitCode != 0
	}
	return r.Err == "" && r.ExitCode == 0 && strings.TrimSpace(r.Stderr) == strings.TrimSpace(g.Stderr)
}

// stdOnly reports whether a program imports the standard library only.
func stdOnly(src string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly)
	if err != nil {
		return false
	}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		first, _, _ := strings.Cut(path, "/")
		if strings.Contains(first, ".") || f.Name.Name != "main" {
			return false
		}
	}
	return f.Name.Name == "main"
}
