package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gotensor/gotensor/interp"
	"github.com/gotensor/gotensor/nbrun"
)

// runRun executes a notebook headless, as "Run All" in Jupyter does with
// the gotensor kernel, and writes the executed copy:
//
//	gotensor run NOTEBOOK.ipynb [-o OUT.ipynb] [--html OUT.html]
//	        [--allow-errors] [--timeout D] [-p NAME VALUE]...
//
// NOTEBOOK.ipynb is never changed: the executed notebook goes to -o, by
// default NOTEBOOK.executed.ipynb next to it ("-o -" writes it to standard
// output). Cells run in the notebook's directory, as Jupyter runs them.
// Progress goes to standard error. The exit status is 0 when every cell
// ran, 1 when a cell failed (its error is printed; the executed notebook is
// written up to it, or, with --allow-errors, with every cell run), 2 for a
// usage error and 130 when interrupted (Ctrl-C stops the running cell;
// what ran is written).
//
// -p NAME VALUE sets a parameter as papermill does: a cell setting it is
// added after the cell tagged "parameters" (see nbrun.InjectParameters).
// --timeout limits each cell's time (a Go duration, 90s or 5m, or
// seconds). The state of the widgets open at the end is saved in the
// notebook's metadata, as nbconvert --execute saves it.
func runRun(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("run", "NOTEBOOK.ipynb [-o OUT.ipynb] [--html OUT.html] [--allow-errors] [--timeout D] [-p NAME VALUE]...", stderr)
	outPath := fs.String("o", "", "write the executed notebook to `file` (default NOTEBOOK.executed.ipynb; - for standard output)")
	htmlPath := fs.String("html", "", "also write the executed notebook as a standalone HTML page to `file`")
	allowErrors := fs.Bool("allow-errors", false, "run every cell, recording errors in the notebook; exit 1 at the end when a cell failed")
	timeout := fs.String("timeout", "", "interrupt a cell that runs longer than `D` (a duration such as 90s or 5m, or seconds) and record a CellTimeoutError")
	fs.Func("p", "set parameter `NAME VALUE` (two arguments), as papermill -p does; repeatable", func(string) error { return nil })
	args, params, err := takeParameters(args)
	if err != nil {
		fmt.Fprintf(stderr, "gotensor run: %v\n", err)
		fs.Usage()
		return 2
	}
	var name string
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		name, args = args[0], args[1:] // the notebook may come before the flags
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	rest := fs.Args()
	if name == "" && len(rest) > 0 {
		name, rest = rest[0], rest[1:]
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "gotensor run: unexpected argument %q\n", rest[0])
		fs.Usage()
		return 2
	}
	if name == "" {
		fmt.Fprintln(stderr, "gotensor run: missing the notebook to run: gotensor run NOTEBOOK.ipynb")
		fs.Usage()
		return 2
	}
	if *outPath == "" {
		*outPath = strings.TrimSuffix(name, ".ipynb") + ".executed.ipynb"
	}
	opts := nbrun.Options{AllowErrors: *allowErrors, Parameters: params}
	if *timeout != "" {
		d, err := parseTimeout(*timeout)
		if err != nil {
			fmt.Fprintf(stderr, "gotensor run: --timeout %s: %v\n", *timeout, err)
			return 2
		}
		opts.Timeout = d
	}
	nb, err := nbrun.ReadFile(name)
	if err != nil {
		fmt.Fprintf(stderr, "gotensor run: %v\n", err)
		return 1
	}
	// Paths are resolved before the cells run in the notebook's directory.
	for _, p := range []*string{outPath, htmlPath} {
		if *p != "" && *p != "-" {
			if abs, err := filepath.Abs(*p); err == nil {
				*p = abs
			}
		}
	}
	if in, err := filepath.Abs(name); err == nil && in == *outPath {
		fmt.Fprintf(stderr, "gotensor run: -o %s would overwrite the notebook being run; name another file\n", *outPath)
		return 2
	}

	runErr := execNotebook(nb, filepath.Dir(name), stdout, stderr, opts)
	var failed nbrun.CellErrors
	if errors.As(runErr, &failed) {
		for _, ce := range failed {
			printCellError(stderr, name, ce)
		}
		runErr = nil
	} else if runErr != nil && !errors.As(runErr, new(*nbrun.CellError)) {
		fmt.Fprintf(stderr, "gotensor run: %v\n", runErr)
		return 1
	}

	if *outPath == "-" {
		err = nbrun.Write(stdout, nb)
	} else {
		err = nbrun.WriteFile(*outPath, nb)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gotensor run: %v\n", err)
		return 1
	}
	if *outPath != "-" {
		fmt.Fprintf(stderr, "gotensor run: wrote %s\n", *outPath)
	}
	if *htmlPath != "" {
		if err := nbrun.WriteHTMLFile(*htmlPath, nb); err != nil {
			fmt.Fprintf(stderr, "gotensor run: %v\n", err)
			return 1
		}
		fmt.Fprintf(stderr, "gotensor run: wrote %s\n", *htmlPath)
	}

	if len(failed) > 0 {
		fmt.Fprintf(stderr, "gotensor run: %s: %d of its cells failed (--allow-errors ran them all)\n", name, len(failed))
		return 1
	}
	var ce *nbrun.CellError
	if errors.As(runErr, &ce) {
		printCellError(stderr, name, ce)
		if ce.Interrupted() {
			return 130
		}
		return 1
	}
	return 0
}

// printCellError prints a failed cell's error.
func printCellError(stderr io.Writer, name string, ce *nbrun.CellError) {
	fmt.Fprintf(stderr, "gotensor run: %s: cell %d failed:\n", name, ce.Cell+1)
	tb := ce.Err.Traceback
	if len(tb) == 0 || !strings.Contains(tb[0], ce.Err.Value) {
		fmt.Fprintf(stderr, "%s: %s\n", ce.Err.Name, ce.Err.Value)
	}
	for _, l := range tb {
		fmt.Fprintln(stderr, l)
	}
}

// takeParameters takes papermill's -p NAME VALUE (and --p, -parameters,
// --parameters) out of args, which the flag package cannot parse (a flag
// of two values).
func takeParameters(args []string) (rest []string, params []nbrun.Parameter, err error) {
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-p", "--p", "-parameters", "--parameters":
			if i+2 >= len(args) {
				return nil, nil, fmt.Errorf("%s needs a NAME and a VALUE", args[i])
			}
			params = append(params, nbrun.Parameter{Name: args[i+1], Value: args[i+2]})
			i += 2
		case "--":
			return append(rest, args[i:]...), params, nil
		default:
			rest = append(rest, args[i])
		}
	}
	return rest, params, nil
}

// parseTimeout reads --timeout: a Go duration (90s, 5m) or a number of
// seconds, as nbconvert's timeout is given.
func parseTimeout(s string) (time.Duration, error) {
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return d, nil
	}
	if n, err := strconv.ParseFloat(s, 64); err == nil && n > 0 {
		return time.Duration(n * float64(time.Second)), nil
	}
	return 0, errors.New("not a positive duration (90s, 5m) or number of seconds")
}

// execNotebook runs nb's cells in a fresh session, in dir, with progress on
// stderr. SIGINT and SIGTERM interrupt the running cell.
func execNotebook(nb *nbrun.Notebook, dir string, stdout, stderr io.Writer, opts nbrun.Options) error {
	// Catch what compiled code writes to file descriptors 1 and 2, as the
	// kernel does, when they are the process's own.
	capture := stdout == io.Writer(os.Stdout) && stderr == io.Writer(os.Stderr)
	sess, err := interp.New(interp.Options{CaptureStdio: capture, Compile: true})
	if err != nil {
		return err
	}
	defer sess.Close()
	progress := stderr
	if capture {
		progress = sess.Stderr() // fd 2 now feeds the running cell
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C ends the process
	}()

	if dir != "" && dir != "." {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		if err := os.Chdir(dir); err != nil {
			return fmt.Errorf("cannot run in the notebook's directory: %w", err)
		}
		defer os.Chdir(wd)
	}
	return nbrun.RunWith(ctx, nb, sess, progress, opts)
}
