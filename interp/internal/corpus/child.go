package corpus

import (
	"fmt"
	"os"
	"syscall"

	yaegi "github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
	"github.com/traefik/yaegi/stdlib/unrestricted"
)

// The environment of a child: the mode and the file holding the source.
const (
	envMode = "GOTENSOR_CORPUS_MODE"
	envFile = "GOTENSOR_CORPUS_FILE"
)

// exitError is the child's exit status when the runner returned an error (a
// compile error, a panic the interpreter caught): a status no program of
// the corpora exits with, so Run can tell it from the program's own
// os.Exit.
const exitError = 86

// errorMark starts the line on which a child writes its runner's error.
const errorMark = "\ncorpus: error: "

// A Runner runs a program's source. What the program prints goes to stdout
// and stderr, which are the child's file descriptors 1 and 2 duplicated, so
// the runner may redirect descriptors 1 and 2 without losing them. It
// returns the error the interpreter reported, or nil.
type Runner func(src string, stdout, stderr *os.File) error

// Bare runs src as the yaegi command runs a file: a fresh interpreter with
// yaegi's own standard-library tables (stdlib.Symbols and
// unrestricted.Symbols), unrestricted, and one Eval of the whole source,
// which runs func main.
func Bare(src string, stdout, stderr *os.File) error {
	i := yaegi.New(yaegi.Options{Stdout: stdout, Stderr: stderr, Unrestricted: true})
	for _, s := range []yaegi.Exports{stdlib.Symbols, unrestricted.Symbols} {
		if err := i.Use(s); err != nil {
			return err
		}
	}
	_, err := i.Eval(src)
	return err
}

// ServeChild returns at once in a process that Run did not start. In a
// child, it runs the job with the runner of its mode and exits: with status
// 0 when the runner returned nil, exitError after writing the runner's
// error to standard error, or whatever status the program itself exits
// with. Call it first in TestMain.
func ServeChild(runners map[string]Runner) {
	mode, ok := os.LookupEnv(envMode)
	if !ok {
		return
	}
	run := runners[mode]
	if run == nil {
		fmt.Fprintf(os.Stderr, "corpus: no runner for mode %q\n", mode)
		os.Exit(2)
	}
	src, err := os.ReadFile(os.Getenv(envFile))
	if err != nil {
		fmt.Fprintf(os.Stderr, "corpus: %v\n", err)
		os.Exit(2)
	}
	stdout, stderr, err := dupStdio()
	if err != nil {
		fmt.Fprintf(os.Stderr, "corpus: %v\n", err)
		os.Exit(2)
	}
	if err := run(string(src), stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "%s%v\n", errorMark, err)
		os.Exit(exitError)
	}
	os.Exit(0)
}

// dupStdio returns copies of file descriptors 1 and 2.
func dupStdio() (stdout, stderr *os.File, err error) {
	var fds [2]int
	for i := range fds {
		fd, err := syscall.Dup(i + 1)
		if err != nil {
			return nil, nil, fmt.Errorf("duplicating file descriptor %d: %w", i+1, err)
		}
		syscall.CloseOnExec(fd)
		fds[i] = fd
	}
	return os.NewFile(uintptr(fds[0]), "stdout"), os.NewFile(uintptr(fds[1]), "stderr"), nil
}
