// Command cells measures a notebook cell's own Go against the same Go
// compiled: each workload runs as cells of an interp.Session that compiles
// cells (as the kernel runs them), of one that interprets them, and as
// code compiled into this program, side by side, and the table gives the
// best of several runs of each and their ratios. The workloads' code is
// the text of work.go, compiled into this program and cut out of its
// source for the cells.
//
//	go run ./bench/cells                 the table, and the latencies
//	go run ./bench/cells -n 9 -interp=false
//	go run ./bench/cells -only 'top level' -interp=false
//	go run ./bench/cells -redefine 500   memory over 500 cells that each declare a function again
//
// The latencies: a cell that declares a new function, compiled (without
// and with the tensor library), the same cell again in a new process (a
// restarted kernel: the plugin comes from the cache), and 1+1.
package main

import (
	"bufio"
	"context"
	_ "embed"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/gotensor/gotensor/interp"
	"github.com/gotensor/gotensor/kernel"
	"github.com/gotensor/gotensor/tensorlib/nn"
	"github.com/gotensor/gotensor/tensorlib/optim"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

//go:embed work.go
var workSrc string

// decl returns the declarations of work.go with these names, with their
// doc comments, as a cell's text.
func decl(names ...string) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "work.go", workSrc, parser.ParseComments)
	if err != nil {
		panic(err)
	}
	var parts []string
	for _, name := range names {
		for _, d := range f.Decls {
			var n string
			var doc *ast.CommentGroup
			switch d := d.(type) {
			case *ast.FuncDecl:
				n, doc = d.Name.Name, d.Doc
			case *ast.GenDecl:
				if ts, ok := d.Specs[0].(*ast.TypeSpec); ok {
					n, doc = ts.Name.Name, d.Doc
				}
			}
			if n != name {
				continue
			}
			start := d.Pos()
			if doc != nil {
				start = doc.Pos()
			}
			parts = append(parts, workSrc[fset.Position(start).Offset:fset.Position(d.End()).Offset])
		}
	}
	return strings.Join(parts, "\n\n")
}

// A workload is code run as cells and compiled.
type workload struct {
	name   string
	setup  []string // cells run once, first
	timed  string   // the cell that is timed
	native func()   // the same work, compiled into this program
	prep   func()   // makes the native side's data
}

var (
	sinkF float64
	sinkI int
)

func workloads() []workload {
	var ps []particle
	var text string
	var bx, by *tensor.Tensor
	var model *nn.Sequential
	var opt optim.Optimizer
	return []workload{
		{
			name:   "a numeric loop in a function (sumsq(5_000_000))",
			setup:  []string{decl("sumsq")},
			timed:  "sumsq(5_000_000)",
			native: func() { sinkF = sumsq(5_000_000) },
		},
		{
			name: "a function over a slice of a cell's struct type (200,000 particles, 10 steps)",
			setup: []string{"import \"math/rand\"\n\n" + decl("particle", "newParticles", "step"),
				"ps := newParticles(200_000, 1)"},
			timed: "for k := 0; k < 10; k++ {\n\tstep(ps, 0.01)\n}",
			prep:  func() { ps = newParticles(200_000, 1) },
			native: func() {
				for k := 0; k < 10; k++ {
					step(ps, 0.01)
				}
			},
		},
		{
			name:  "a loop at a cell's top level (5M iterations of s += i % 7)",
			timed: "s := 0\nfor i := 0; i < 5_000_000; i++ {\n\ts += i % 7\n}",
			native: func() {
				s := 0
				for i := 0; i < 5_000_000; i++ {
					s += i % 7
				}
				sinkI = s
			},
		},
		{
			name: "a function of strings and maps (bigram counts over 1.8 MB of text)",
			setup: []string{"import (\n\t\"math/rand\"\n\t\"strings\"\n)\n\n" + decl("corpusText", "bigrams"),
				"text := corpusText(1_800_000, 1)"},
			timed:  "len(bigrams(text))",
			prep:   func() { text = corpusText(1_800_000, 1) },
			native: func() { sinkI = len(bigrams(text)) },
		},
		{
			name: "a training loop in a cell (MLP 64-128-1, Adam, 50 steps of 256)",
			setup: []string{`tensor.ManualSeed(1)
bx, by := tensor.Randn(256, 64), tensor.Randn(256, 1)
model := nn.NewSequential(nn.NewLinear(64, 128), nn.NewReLU(), nn.NewLinear(128, 1))
opt := optim.NewAdam(model.Parameters(), 1e-3)`},
			timed: "for i := 0; i < 50; i++ {\n\tloss := nn.MSELoss(model.Forward(bx), by)\n\topt.ZeroGrad()\n\tloss.Backward()\n\topt.Step()\n}",
			prep: func() {
				tensor.ManualSeed(1)
				bx, by = tensor.Randn(256, 64), tensor.Randn(256, 1)
				model = nn.NewSequential(nn.NewLinear(64, 128), nn.NewReLU(), nn.NewLinear(128, 1))
				opt = optim.NewAdam(model.Parameters(), 1e-3)
			},
			native: func() {
				for i := 0; i < 50; i++ {
					loss := nn.MSELoss(model.Forward(bx), by)
					opt.ZeroGrad()
					loss.Backward()
					opt.Step()
				}
			},
		},
	}
}

// quiet is an kernel.Output that keeps what the cells print.
type quiet struct{ out strings.Builder }

func (q *quiet) Stream(name, text string)                         { q.out.WriteString(text) }
func (*quiet) Display(b kernel.Bundle, id string, update bool)    {}
func (*quiet) ClearOutput(wait bool)                              {}
func (*quiet) Input(prompt string, password bool) (string, error) { return "", nil }

// run executes a cell and returns how long Execute took.
func run(s *interp.Session, code string) (time.Duration, error) {
	var q quiet
	start := time.Now()
	_, err := s.Execute(context.Background(), code, &q)
	d := time.Since(start)
	if err != nil {
		return d, fmt.Errorf("%v\n%s", err, q.out.String())
	}
	return d, nil
}

// best returns the least of n runs of f.
func best(n int, f func() (time.Duration, error)) (time.Duration, error) {
	var b time.Duration
	for i := 0; i < n; i++ {
		d, err := f()
		if err != nil {
			return 0, err
		}
		if i == 0 || d < b {
			b = d
		}
	}
	return b, nil
}

func session(compile bool) *interp.Session {
	s, err := interp.New(interp.Options{Compile: compile})
	if err != nil {
		fail(err)
	}
	return s
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "cells:", err)
	os.Exit(1)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }

func main() {
	n := flag.Int("n", 5, "runs of each measurement; the best is reported")
	interpToo := flag.Bool("interp", true, "measure the interpreted cells too")
	redefine := flag.Int("redefine", 0, "instead of the table, run this many cells that each declare a function again, and report memory")
	child := flag.String("child", "", "(internal) run this cell in a fresh session and print how long it took")
	only := flag.String("only", "", "measure only the workloads whose name this regular expression matches, and skip the latencies")
	flag.Parse()
	var pick *regexp.Regexp
	if *only != "" {
		var err error
		if pick, err = regexp.Compile(*only); err != nil {
			fail(fmt.Errorf("-only: %v (give a regular expression that matches workloads' names, such as \"top level\")", err))
		}
	}

	if *child != "" {
		s := session(true)
		d, err := run(s, *child)
		if err != nil {
			fail(err)
		}
		fmt.Println(d.Nanoseconds())
		return
	}
	if *redefine > 0 {
		redefineCells(*redefine)
		return
	}

	compiled := session(true)
	var interpreted *interp.Session
	if *interpToo {
		interpreted = session(false)
	}
	fmt.Printf("%-80s %12s %12s %12s %8s %8s\n", "workload", "Go", "compiled", "interpreted", "ratio", "interp")
	for _, w := range workloads() {
		if pick != nil && !pick.MatchString(w.name) {
			continue
		}
		if w.prep != nil {
			w.prep()
		}
		goTime, _ := best(*n, func() (time.Duration, error) {
			start := time.Now()
			w.native()
			return time.Since(start), nil
		})
		for _, c := range w.setup {
			if _, err := run(compiled, c); err != nil {
				fail(fmt.Errorf("%s: compiled setup: %v", w.name, err))
			}
		}
		cellTime, err := best(*n, func() (time.Duration, error) { return run(compiled, w.timed) })
		if err != nil {
			fail(fmt.Errorf("%s: compiled cell: %v", w.name, err))
		}
		interpCol, interpRatio := "-", "-"
		if interpreted != nil {
			for _, c := range w.setup {
				if _, err := run(interpreted, c); err != nil {
					fail(fmt.Errorf("%s: interpreted setup: %v", w.name, err))
				}
			}
			it, err := best(min(*n, 3), func() (time.Duration, error) { return run(interpreted, w.timed) })
			if err != nil {
				fail(fmt.Errorf("%s: interpreted cell: %v", w.name, err))
			}
			interpCol, interpRatio = ms(it), fmt.Sprintf("%.1f", float64(it)/float64(goTime))
		}
		fmt.Printf("%-80s %12s %12s %12s %8.2f %8s\n", w.name, ms(goTime), ms(cellTime), interpCol, float64(cellTime)/float64(goTime), interpRatio)
	}
	if pick == nil {
		latencies(compiled, interpreted)
	}
}

// latencies measures how long cells take to answer: a new function cell
// (built), with the tensor library, the same in a restarted kernel (cached),
// and 1+1.
func latencies(compiled, interpreted *interp.Session) {
	tag := fmt.Sprintf("%x", time.Now().UnixNano())
	fmt.Println()
	newCell := fmt.Sprintf("func sq%s(x int) int { return x * x }\nsq%s(7)", tag, tag)
	d, err := run(compiled, newCell)
	if err != nil {
		fail(err)
	}
	fmt.Printf("%-60s %s\n", "a new cell that declares a function (built)", ms(d))
	tensorCell := fmt.Sprintf("func double%s(x *tensor.Tensor) *tensor.Tensor { return x.MulScalar(2) }\ndouble%s(tensor.Ones(3)).Sum().Item()", tag, tag)
	d, err = run(compiled, tensorCell)
	if err != nil {
		fail(err)
	}
	fmt.Printf("%-60s %s\n", "the same with the tensor library (built)", ms(d))
	exe, err := os.Executable()
	if err != nil {
		fail(err)
	}
	for _, c := range []struct{ name, code string }{{"a restarted kernel: the first cell again (cached)", newCell}, {"the tensor cell again (cached)", tensorCell}} {
		out, err := exec.Command(exe, "-child", c.code).Output()
		if err != nil {
			fail(fmt.Errorf("child: %v", err))
		}
		var ns int64
		fmt.Sscan(string(out), &ns)
		fmt.Printf("%-60s %s\n", c.name, ms(time.Duration(ns)))
	}
	if interpreted != nil {
		d, _ = best(20, func() (time.Duration, error) { return run(interpreted, "1+1") })
		fmt.Printf("%-60s %s\n", "1+1 (interpreted; Execute only, no kernel)", ms(d))
	}
}

// redefineCells runs n cells that each declare function f again with
// another body, and reports the process's resident memory.
func redefineCells(n int) {
	s := session(true)
	rss0 := rss()
	start := time.Now()
	var times []time.Duration
	for i := 0; i < n; i++ {
		d, err := run(s, fmt.Sprintf("func f() int { return %d }\nf()", i))
		if err != nil {
			fail(err)
		}
		times = append(times, d)
		if (i+1)%50 == 0 {
			fmt.Printf("%d cells: resident %d MB (+%.2f MB a cell)\n", i+1, rss()>>20, float64(rss()-rss0)/float64(i+1)/(1<<20))
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	fmt.Printf("%d cells in %v; median cell %s; resident memory %d MB → %d MB\n", n, time.Since(start).Round(time.Second), ms(times[len(times)/2]), rss0>>20, rss()>>20)
}

// rss returns the process's resident memory in bytes.
func rss() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			var kb int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &kb)
			return kb << 10
		}
	}
	return 0
}
