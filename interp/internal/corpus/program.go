package corpus

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// A Program is one Go program of a corpus.
type Program struct {
	Name string // the file's name without ".go" ("closure3"), or the example's ("enums")
	Path string // the file
	Src  string // its source
	// Want is the standard output the program must print. For yaegi's
	// programs it is the text of the "// Output:" comment, which cannot say
	// where white space begins or ends: compare with SameTrimmed.
	Want string
}

// SameTrimmed reports whether got and want are equal once white space is
// trimmed from both ends, the comparison yaegi's own test of its _test
// programs makes.
func SameTrimmed(got, want string) bool {
	return strings.TrimSpace(got) == strings.TrimSpace(want)
}

// ModuleDir returns the directory of module path in the build list of the
// module around the working directory, as the go command reports it (the
// module cache, or a replacement). It needs the go command.
func ModuleDir(path string) (string, error) {
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("corpus: go list -m %s: %v: %s", path, err, strings.TrimSpace(stderr.String()))
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		return "", fmt.Errorf("corpus: module %s is not downloaded: run `go mod download %s`", path, path)
	}
	return dir, nil
}

// YaegiPrograms returns the programs of yaegi's _test directory (dir is the
// yaegi module's directory) that carry an "// Output:" line, sorted by name.
// Want is read as yaegi's own test reads it: the text of the file's last
// comment after its "Output:" line, a leading "GOPATH:" line dropped.
// Programs whose last comment is not their Output (an Output inside the
// program) are left out.
func YaegiPrograms(dir string) ([]Program, error) {
	files, err := filepath.Glob(filepath.Join(dir, "_test", "*.go"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("corpus: no programs in %s", filepath.Join(dir, "_test"))
	}
	sort.Strings(files)
	var progs []Program
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if !bytes.Contains(src, []byte("\n// Output:\n")) {
			continue
		}
		want, ok := outputComment(path, src)
		if !ok {
			continue
		}
		progs = append(progs, Program{
			Name: strings.TrimSuffix(filepath.Base(path), ".go"),
			Path: path,
			Src:  string(src),
			Want: want,
		})
	}
	return progs, nil
}

// outputComment returns the text after "Output:" of the file's last
// comment.
func outputComment(path string, src []byte) (string, bool) {
	f, _ := parser.ParseFile(token.NewFileSet(), path, src, parser.ParseComments|parser.AllErrors)
	if f == nil || len(f.Comments) == 0 {
		return "", false
	}
	text := f.Comments[len(f.Comments)-1].Text()
	if strings.HasPrefix(text, "GOPATH:") {
		_, text, _ = strings.Cut(text, "\n")
	}
	want, ok := strings.CutPrefix(text, "Output:\n")
	return want, ok
}

// GoByExampleDeterministic lists the examples of Go by Example
// (github.com/mmcgrana/gobyexample, examples/NAME/NAME.go) that print the
// same output on every `go run` in a fresh working directory, with no
// arguments and an empty standard input: 54 of the 84 one-file examples
// (each gave one output in 100 runs). Two of them end with an error on
// purpose, exit (os.Exit(3)) and panic: a cell passes them when it prints
// what `go run` prints and ends with an error. The others are left out
// because their output depends on
//
//   - the clock: epoch, logging, rate-limiting, switch, tickers, time,
//     time-formatting-parsing;
//   - randomness or addresses: pointers, random-numbers, string-formatting,
//     range-over-built-in-types (map iteration order);
//   - scheduling (goroutines whose output order varies): closing-channels
//     (4 runs in 300 differ), goroutines, stateful-goroutines, waitgroups,
//     worker-pools;
//   - the machine: environment-variables, execing-processes,
//     spawning-processes, temporary-files-and-directories;
//   - the network, or they run until killed: context, http-client,
//     http-server, signals, tcp-server;
//   - arguments or input: command-line-arguments, command-line-subcommands,
//     line-filters;
//   - a file the machine may hold: reading-files reads /tmp/dat.
//
// embed-directive is left out too: it prints with print, to standard error,
// so its standard output is empty whatever runs it. Four selected examples
// touch files or flags but print the same every time: defer, directories
// and writing-files write files (writing-files to /tmp by name), and
// command-line-flags parses an empty command line.
var GoByExampleDeterministic = []string{
	"arrays", "atomic-counters", "base64-encoding", "channel-buffering",
	"channel-directions", "channel-synchronization", "channels",
	"closures", "command-line-flags", "constants",
	"custom-errors", "defer", "directories", "enums",
	"errors", "exit", "file-paths", "for", "functions", "generics", "hello-world",
	"if-else", "interfaces", "json", "maps", "methods",
	"multiple-return-values", "mutexes", "non-blocking-channel-operations",
	"number-parsing", "panic", "range-over-channels",
	"range-over-iterators", "recover", "recursion", "regular-expressions",
	"select", "sha256-hashes", "slices", "sorting", "sorting-by-functions",
	"string-functions", "strings-and-runes", "struct-embedding", "structs",
	"text-templates", "timeouts", "timers", "url-parsing", "values",
	"variables", "variadic-functions", "writing-files", "xml",
}

// GoByExamplePrograms reads the examples named by GoByExampleDeterministic
// from root, a checkout of github.com/mmcgrana/gobyexample. Want is left
// empty: the expected output is what `go run` prints.
func GoByExamplePrograms(root string) ([]Program, error) {
	var progs []Program
	for _, name := range GoByExampleDeterministic {
		path := filepath.Join(root, "examples", name, name+".go")
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("corpus: Go by Example: %w", err)
		}
		progs = append(progs, Program{Name: name, Path: path, Src: string(src)})
	}
	return progs, nil
}

// CellSource returns src as a notebook user pastes a program's body into a
// cell: without its package clause and, when main is not "", with func main
// renamed to main and a call of it appended. The rest of the text, comments
// and line breaks included, is kept as it was.
func CellSource(src, main string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return "", fmt.Errorf("corpus: CellSource: %w", err)
	}
	// Offsets: the file starts at base 1.
	var b strings.Builder
	b.WriteString(src[:f.Package-1])
	rest := int(f.Name.End()) - 1 // what is still to copy
	called := false
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && main != "" && fd.Recv == nil && fd.Name.Name == "main" {
			b.WriteString(src[rest : fd.Name.Pos()-1])
			b.WriteString(main)
			rest, called = int(fd.Name.End())-1, true
		}
	}
	b.WriteString(src[rest:])
	if called {
		if !strings.HasSuffix(src, "\n") {
			b.WriteString("\n")
		}
		b.WriteString(main + "()\n")
	}
	return b.String(), nil
}
