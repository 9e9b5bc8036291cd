package interp

import (
	"context"
	"fmt"
	"go/types"
	"io"
	"math"
	"os"
	"os/exec"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gotensor/gotensor/cuda"
	"github.com/gotensor/gotensor/kernel"
	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// magicHelp is what %help prints.
const magicHelp = `Magics (at the start of a line):
  %time STMT        run STMT and print its wall time; %%time on the first line times the cell
  %timeit STMT      run STMT many times and print the time per run; %%timeit times the cell
  %who              list the session's variables with their types and values
                    (tensors: shape, dtype, device, bytes)
  %gpu              list the GPUs (CUDA devices), their memory (cuda.MemorySummary)
                    and the variables holding GPU tensors
  %reset            forget every variable, function, type and import
  %maxdepth [N]     show or set the recursion limit (nested calls of cell functions)
  %env [NAME[=VALUE]]  list, show or set environment variables
  %cd [DIR]         change the working directory (home when DIR is empty)
` + goHelp + `  %help             show this help
  !CMD              run CMD in the shell and stream its output
A cell ?NAME or NAME? (?fmt.Println, x?) shows NAME's documentation in the pager.
`

// isMagic reports whether code starts with a magic or shell line.
func isMagic(code string) bool {
	t := strings.TrimLeft(code, " \t\r\n")
	return strings.HasPrefix(t, "%") || strings.HasPrefix(t, "!")
}

// hasMagic reports whether a line of code is a magic or shell line.
func hasMagic(code string) bool {
	for _, line := range strings.Split(code, "\n") {
		if isMagic(line) {
			return true
		}
	}
	return false
}

// runMagics runs a cell that holds magic lines: Go code between them runs as
// cells of its own, in order. A cell magic (%%time, %%timeit) on the first
// line applies to the rest of the cell.
func (s *Session) runMagics(ctx context.Context, code string) (*kernel.Bundle, error) {
	t := strings.TrimLeft(code, " \t\r\n")
	if strings.HasPrefix(t, "%%") {
		first, rest, _ := strings.Cut(t, "\n")
		name, args, _ := strings.Cut(strings.TrimSpace(first[2:]), " ")
		if strings.TrimSpace(args) != "" {
			rest = args + "\n" + rest
		}
		switch name {
		case "time":
			return s.timeCode(ctx, rest)
		case "timeit":
			return nil, s.timeitCode(ctx, rest)
		}
		return nil, magicError("unknown cell magic %%%%%s; try %%help", name)
	}
	var goLines []string
	var res *kernel.Bundle
	flush := func() error {
		src := strings.Join(goLines, "\n")
		goLines = nil
		if strings.TrimSpace(src) == "" {
			return nil
		}
		var err error
		res, err = s.runGo(ctx, src)
		return err
	}
	for _, line := range strings.Split(code, "\n") {
		l := strings.TrimSpace(line)
		if !strings.HasPrefix(l, "%") && !strings.HasPrefix(l, "!") {
			goLines = append(goLines, line)
			continue
		}
		if err := flush(); err != nil {
			return nil, err
		}
		var err error
		res, err = s.lineMagic(ctx, l)
		if err != nil {
			return nil, err
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return res, nil
}

func magicError(format string, args ...any) *kernel.Error {
	msg := fmt.Sprintf(format, args...)
	return &kernel.Error{Name: "MagicError", Value: msg, Traceback: []string{"MagicError: " + msg}}
}

// lineMagic runs one magic line.
func (s *Session) lineMagic(ctx context.Context, line string) (*kernel.Bundle, error) {
	if strings.HasPrefix(line, "!") {
		return nil, s.shell(ctx, strings.TrimSpace(line[1:]))
	}
	name, args, _ := strings.Cut(strings.TrimSpace(line[1:]), " ")
	args = strings.TrimSpace(args)
	switch name {
	case "time":
		return s.timeCode(ctx, args)
	case "timeit":
		return nil, s.timeitCode(ctx, args)
	case "who":
		s.who()
	case "maxdepth":
		if args != "" {
			n, err := strconv.Atoi(args)
			if err != nil || n < 1 {
				return nil, magicError("%%maxdepth: want a positive number of nested calls, not %q", args)
			}
			s.intr.max, s.rt.Limit = n, n
		}
		fmt.Fprintf(s.stdout, "recursion limit: %d nested calls\n", s.intr.max)
	case "gpu":
		io.WriteString(s.stdout, cuda.Report())
		s.gpuVars()
	case "reset":
		if err := s.reset(); err != nil {
			return nil, magicError("%%reset: %v", err)
		}
	case "env":
		return nil, s.env(args)
	case "cd":
		dir := args
		if dir == "" {
			dir, _ = os.UserHomeDir()
		}
		if err := os.Chdir(dir); err != nil {
			return nil, magicError("%%cd: %v", err)
		}
		wd, _ := os.Getwd()
		fmt.Fprintln(s.stdout, wd)
	case "go":
		return nil, s.goMagic(ctx, args)
	case "help":
		io.WriteString(s.stdout, magicHelp)
	default:
		return nil, magicError("unknown magic %%%s; try %%help", name)
	}
	return nil, nil
}

// timeCode runs code and prints its wall time.
func (s *Session) timeCode(ctx context.Context, code string) (*kernel.Bundle, error) {
	start := time.Now()
	res, err := s.runGo(ctx, code)
	fmt.Fprintf(s.stdout, "Wall time: %s\n", formatDuration(time.Since(start)))
	return res, err
}

// timeitCode compiles code once as a function and calls it in loops: the
// loop count grows until a run takes 0.2 s, then five runs give the mean
// and standard deviation of one call.
func (s *Session) timeitCode(ctx context.Context, code string) error {
	body := code
	if tv, err := s.plan.TypeOf("", code); err == nil && tv.Type != nil && !tv.IsType() {
		if _, tuple := tv.Type.(*types.Tuple); !tuple {
			body = "_ = " + code // an expression: its value is not used
		}
	}
	if _, err := s.runGo(ctx, timeitName+" := func() {\n"+body+"\n}"); err != nil {
		return err
	}
	fn, ok := s.globals()[timeitName]
	if !ok || fn.Kind() != reflect.Func {
		return magicError("%%timeit: cannot compile the statement")
	}
	var per []float64
	c := &cellRun{s: s, ended: make(chan struct{})}
	_, err := c.run(ctx, func() (*kernel.Bundle, error) {
		var perr error
		call := func(n int) (d time.Duration) {
			defer func() {
				if r := recover(); r != nil {
					perr = s.recoveredError(r)
				}
			}()
			start := time.Now()
			for i := 0; i < n; i++ {
				fn.Call(nil)
			}
			return time.Since(start)
		}
		n := 1
		for {
			d := call(n)
			if perr != nil {
				return nil, perr
			}
			if d >= 200*time.Millisecond || n >= 1<<24 {
				break
			}
			if d < time.Millisecond {
				n *= 10
			} else {
				n = max(1, int(float64(n)*0.25/d.Seconds()))
			}
		}
		for range timeitRuns {
			d := call(n)
			if perr != nil {
				return nil, perr
			}
			per = append(per, d.Seconds()/float64(n))
		}
		var mean, sd float64
		for _, p := range per {
			mean += p / timeitRuns
		}
		for _, p := range per {
			sd += (p - mean) * (p - mean) / timeitRuns
		}
		sd = math.Sqrt(sd)
		fmt.Fprintf(s.stdout, "%s ± %s per loop (mean ± std. dev. of %d runs, %d loops each)\n",
			formatDuration(time.Duration(mean*1e9)), formatDuration(time.Duration(sd*1e9)), timeitRuns, n)
		return nil, nil
	})
	return err
}

// timeitName is the variable %timeit keeps its function in, and
// timeitRuns how many timed runs it makes.
const (
	timeitName = "_gtTimeit"
	timeitRuns = 5
)

// formatDuration prints d with three significant digits.
func formatDuration(d time.Duration) string {
	switch {
	case d < time.Microsecond:
		return fmt.Sprintf("%.3g ns", float64(d))
	case d < time.Millisecond:
		return fmt.Sprintf("%.3g µs", float64(d)/1e3)
	case d < time.Second:
		return fmt.Sprintf("%.3g ms", float64(d)/1e6)
	}
	return fmt.Sprintf("%.3g s", d.Seconds())
}

// who prints the session's variables: name, type and a one-line summary;
// for tensors, the shape, dtype, device and size of the data.
func (s *Session) who() {
	g := s.globals()
	var names []string
	for _, name := range s.plan.Names() {
		if _, isVar := s.plan.Lookup(name).(*types.Var); isVar && g[s.plan.InterpName(name)].IsValid() {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		fmt.Fprintln(s.stdout, "no variables")
		return
	}
	for _, name := range names {
		v := g[s.plan.InterpName(name)]
		sum := ""
		if t, ok := tensorOf(v); ok {
			sum = tensorSummary(t)
		} else {
			sum = strings.ReplaceAll(summary(v), "\n", " ")
			if len(sum) > 60 {
				sum = sum[:60] + "…"
			}
		}
		fmt.Fprintf(s.stdout, "%-12s %-20s %s\n", name, typeString(s.plan.Lookup(name).Type()), sum)
	}
}

// gpuVars lists the session's tensor variables on a GPU, the largest
// first: what holds the memory %gpu reports.
func (s *Session) gpuVars() {
	type held struct {
		name  string
		bytes int64
		t     *tensor.Tensor
	}
	var hs []held
	g := s.globals()
	for _, name := range s.plan.Names() {
		if _, isVar := s.plan.Lookup(name).(*types.Var); !isVar {
			continue
		}
		if t, ok := tensorOf(g[s.plan.InterpName(name)]); ok && t.Device() != tensor.CPU {
			hs = append(hs, held{name, int64(t.Numel()) * int64(t.DType().Size()), t})
		}
	}
	if len(hs) == 0 {
		return
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].bytes > hs[j].bytes })
	fmt.Fprintln(s.stdout, "variables holding GPU tensors:")
	for _, h := range hs {
		fmt.Fprintf(s.stdout, "  %-12s %s\n", h.name, tensorSummary(h.t))
	}
}

// tensorOf returns the tensor v holds, if it holds a non-nil one.
func tensorOf(v reflect.Value) (*tensor.Tensor, bool) {
	if !v.IsValid() || !v.CanInterface() {
		return nil, false
	}
	t, ok := v.Interface().(*tensor.Tensor)
	return t, ok && t != nil
}

// tensorSummary describes a tensor in one line: "[2 3] float32 cpu 24 B",
// "[1000 1000] float32 cpu 3.8 MiB".
func tensorSummary(t *tensor.Tensor) string {
	return fmt.Sprintf("%v %v %v %s", t.Shape(), t.DType(), t.Device(), backend.ByteSize(int64(t.Numel())*int64(t.DType().Size())))
}

// env lists (no args), shows (NAME) or sets (NAME=VALUE or NAME VALUE)
// environment variables.
func (s *Session) env(args string) error {
	if args == "" {
		vars := os.Environ()
		sort.Strings(vars)
		for _, v := range vars {
			fmt.Fprintln(s.stdout, v)
		}
		return nil
	}
	name, value, set := strings.Cut(args, "=")
	if !set {
		name, value, set = strings.Cut(args, " ")
	}
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if !set {
		v, ok := os.LookupEnv(name)
		if !ok {
			return magicError("%%env: %s is not set", name)
		}
		fmt.Fprintln(s.stdout, v)
		return nil
	}
	if err := os.Setenv(name, value); err != nil {
		return magicError("%%env: %v", err)
	}
	fmt.Fprintf(s.stdout, "env: %s=%s\n", name, value)
	return nil
}

// shell runs cmd with sh, streaming its output; an interrupt kills it.
func (s *Session) shell(ctx context.Context, cmd string) error {
	c := exec.CommandContext(ctx, "sh", "-c", cmd)
	c.Stdout, c.Stderr = s.stdout, s.stderr
	err := c.Run()
	switch {
	case ctx.Err() != nil:
		return interruptedError()
	case err != nil:
		return magicError("!%s: %v", cmd, err)
	}
	return nil
}
