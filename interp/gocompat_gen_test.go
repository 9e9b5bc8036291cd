package interp_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/interp/internal/corpus"
)

// A fragment is a piece of a generated program, with its imports (paths,
// or import specs with a name): package-level
// declarations and a function f{N} that returns a string, in which {N}
// is the fragment's number, {n} a small count, {k} and {c} small integers.
type fragment struct {
	family  string
	imports []string
	src     string
}

// fragments combine the harness's families: loops with goroutines,
// deferred calls and kept closures; variables and constants of other
// declarations captured in loops; templates with a cell's types; type
// switches on a cell's non-struct types; a cell's values kept by
// container/list, printed and written by encoding/json from interfaces.
var fragments = []fragment{
	{"loops", []string{"sync"}, `
func f{N}() string {
	out := make([]int, {n})
	var wg sync.WaitGroup
	for i := 0; i < {n}; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = i*{k} + {c}
		}()
	}
	wg.Wait()
	return fmt.Sprint(out)
}
`},
	{"loops", nil, `
func f{N}() (s string) {
	for i := range {n} {
		defer func() { s += fmt.Sprint(i*{k}, ",") }()
	}
	return "d{N}:"
}
`},
	{"loops", []string{"strings"}, `
func f{N}() string {
	var fs []func() string
	for i, w := range strings.Fields("a bb ccc dddd eeeee")[:{n}] {
		fs = append(fs, func() string { return fmt.Sprint(i+{c}, w) })
	}
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f())
	}
	return b.String()
}
`},
	{"loops", nil, `
func f{N}() string {
	var got []int
	func() {
	outer:
		for i := 0; i < {n}+1; i++ {
			for j := 0; j < 3; j++ {
				if (i+j)%{k} == 0 {
					continue outer
				}
				defer func() { got = append(got, i*10+j) }()
			}
		}
	}()
	return fmt.Sprint(got)
}
`},
	{"loops", []string{"sync"}, `
func f{N}() string {
	res := make([]string, {n})
	var wg sync.WaitGroup
	for i := range {n} {
		wg.Go(func() { res[i] = strconv.Itoa(i * {k}) })
	}
	wg.Wait()
	return fmt.Sprint(res)
}
`},
	{"loops", nil, `
func gen{N}(n int) func(func(int, int) bool) {
	return func(yield func(int, int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i, i*{k}) {
				return
			}
		}
	}
}

func f{N}() string {
	ch := make(chan [2]int, {n})
	for i, v := range gen{N}({n}) {
		go func() { ch <- [2]int{i, v} }()
	}
	out := make([]int, {n})
	for range {n} {
		p := <-ch
		out[p[0]] = p[1]
	}
	return fmt.Sprint(out)
}
`},
	{"capture", nil, `
type tally{N} struct{ N int }

var t{N} tally{N}

func f{N}() string {
	for i := 0; i < {n}; i++ {
		func() { t{N}.N += i + {c} }()
	}
	return fmt.Sprint(t{N}.N)
}
`},
	{"capture", []string{"sync"}, `
var (
	wg{N}  sync.WaitGroup
	mu{N}  sync.Mutex
	sum{N} int
)

func f{N}() string {
	for i := 1; i <= {n}; i++ {
		wg{N}.Add(1)
		go func() {
			defer wg{N}.Done()
			mu{N}.Lock()
			sum{N} += i * {k}
			mu{N}.Unlock()
		}()
	}
	wg{N}.Wait()
	return fmt.Sprint(sum{N})
}
`},
	{"consts", []string{"sync"}, `
const c{N} = {k}

const d{N} = c{N} * {c}

func f{N}() string {
	out := make([]int, {n})
	var wg sync.WaitGroup
	for i := 0; i < {n}; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = i*c{N} + d{N}
		}()
	}
	wg.Wait()
	return fmt.Sprint(out)
}
`},
	{"consts", nil, `
type level{N} int

const (
	low{N} level{N} = iota + {c}
	mid{N}
	high{N}
)

func (l level{N}) String() string { return fmt.Sprintf("L%d", int(l)) }

func f{N}() (s string) {
	for l := low{N}; l <= high{N}; l++ {
		defer func() { s += l.String() }()
	}
	return ""
}
`},
	{"reflect", []string{"strings", "text/template"}, `
type grade{N} int

func (g grade{N}) String() string { return strings.Repeat("*", int(g)) }

type row{N} struct {
	Name string
	G    grade{N}
}

func (r row{N}) Score(k int) int { return int(r.G)*k + {c} }

func (r *row{N}) Tag() string { return "<" + r.Name + ">" }

func f{N}() string {
	rows := make([]row{N}, {n})
	for i := range rows {
		rows[i] = row{N}{string(rune('a' + i)), grade{N}(i)}
	}
	t := template.Must(template.New("t").Parse("{{range .}}{{.Name}}{{.G}}={{.Score {k}}}{{.Tag}}{{if .G}}+{{end}} {{end}}"))
	var b strings.Builder
	if err := t.Execute(&b, rows); err != nil {
		return err.Error()
	}
	return b.String()
}
`},
	{"reflect", []string{"strings", `htemplate "html/template"`}, `
type item{N} struct{ Name string }

func (i item{N}) Label() string { return "<" + i.Name + "&>" }

func f{N}() string {
	data := map[string]any{"I": item{N}{"x{c}"}, "P": &item{N}{"y"}, "N": {n}}
	t := htemplate.Must(htemplate.New("h").Parse("<p title=\"{{.I.Label}}\">{{.P.Label}} {{.N}}</p>"))
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		return err.Error()
	}
	return b.String()
}
`},
	{"iface", nil, `
type temp{N} float64

type tally{N} []int

func kind{N}(v any) string {
	switch v.(type) {
	case temp{N}:
		return "temp"
	case float64:
		return "float64"
	case tally{N}:
		return "tally"
	case []int:
		return "ints"
	}
	return "other"
}

func f{N}() string {
	out := ""
	for _, v := range []any{temp{N}({c}), float64({k}), tally{N}{ {n} }, []int{ {c} }} {
		out += kind{N}(v) + " "
	}
	return out
}
`},
	{"compiled", []string{"container/list", "encoding/json", "fmt"}, `
type level{N} int

func (l level{N}) String() string { return fmt.Sprintf("L%d", int(l)) }

type row{N} struct {
	Name string
	L    level{N}
}

func f{N}() string {
	l := list.New()
	for i := 0; i < {n}; i++ {
		l.PushBack(level{N}(i + {c}))
	}
	out := ""
	for e := l.Front(); e != nil; e = e.Next() {
		if lv, ok := e.Value.(level{N}); ok {
			out += lv.String()
		}
	}
	var v any = []row{N}{{"r", level{N}({k})}}
	b, _ := json.Marshal(map[string]any{"l": level{N}({k}), "rows": v})
	return out + fmt.Sprint(" ", v, " ") + string(b)
}
`},
}

// fragmentPiece returns fragment f as the piece numbered n, its counts
// drawn from r: its declarations, and a statement in main that prints
// what its function f{n} returns.
func fragmentPiece(r *rand.Rand, f fragment, n int) piece {
	imports := f.imports
	if strings.Contains(f.src, "strconv.") {
		imports = append(slices.Clip(imports), "strconv")
	}
	return piece{
		label:   f.family,
		imports: imports,
		decls: strings.NewReplacer(
			"{N}", strconv.Itoa(n),
			"{n}", strconv.Itoa(2+r.IntN(4)),
			"{k}", strconv.Itoa(2+r.IntN(7)),
			"{c}", strconv.Itoa(r.IntN(10)),
		).Replace(f.src),
		body: fmt.Sprintf("fmt.Println(\"%s#%d:\", f%d())\n", f.family, n, n),
	}
}

// generateProgram returns a program of count pieces drawn by r: each a
// construct of constructs, with a kind of value it works on, in one of
// contexts, or (one time in four) a fragment. known maps the labels of
// the constructs it holds that are known to differ to their family.
func generateProgram(r *rand.Rand, count int) (src string, known map[string]string) {
	imports := map[string]bool{"fmt": true}
	known = map[string]string{}
	var decls, stmts []string
	for n := range count {
		var p piece
		if r.IntN(4) == 0 {
			p = fragmentPiece(r, fragments[r.IntN(len(fragments))], n)
		} else {
			c := constructs[r.IntN(len(constructs))]
			kinds := valueKinds
			if c.kinds != nil {
				kinds = slices.DeleteFunc(slices.Clone(valueKinds), func(k valueKind) bool { return !slices.Contains(c.kinds, k.name) })
			}
			k := valueKinds[0].at(n) // unused by a construct with types of its own
			if len(kinds) > 0 {
				k = kinds[r.IntN(len(kinds))].at(n)
			}
			p = c.make(r, n, k)
			p.label = c.label
			if len(kinds) > 0 {
				p.decls = k.decls + p.decls
				p.imports = append(slices.Clip(p.imports), k.imports...)
			}
			if c.known != "" {
				known[c.label] = c.known
			}
			d, s := contexts[r.IntN(len(contexts))].wrap(n, p.body)
			p.decls, p.body = p.decls+d, s
		}
		for _, i := range p.imports {
			imports[i] = true
		}
		decls = append(decls, p.decls)
		stmts = append(stmts, p.body)
	}
	var paths []string
	for p := range imports {
		if !strings.Contains(p, `"`) {
			p = strconv.Quote(p) // else an import spec with its name
		}
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return "package main\n\nimport (\n\t" + strings.Join(paths, "\n\t") + "\n)\n" +
		strings.Join(decls, "") + "\nfunc main() {\n" + strings.Join(stmts, "") + "}\n", known
}

// genPrograms is how many generated programs the default tests run,
// from the seeds 1, 2 ...
const genPrograms = 4

// TestGocompatGenerated runs generated programs (generateProgram) as
// TestGocompat runs its own, each in every kind of cell, and reports the
// runs that differ from go run's with the program and its seed. A
// difference only on the lines of a construct known to differ (its
// family's fix is under way) is logged, not failed. By default it runs the
// programs of the seeds 1 to genPrograms; $GOTENSOR_GOCOMPAT_SEED picks
// the first seed (and runs that program alone), $GOTENSOR_GOCOMPAT_GEN
// how many programs to run; a program is the same for its seed whatever
// the others:
//
//	GOTENSOR_GOCOMPAT_SEED=17 go test ./interp -run TestGocompatGenerated -count=1
//	GOTENSOR_GOCOMPAT_SEED=1000 GOTENSOR_GOCOMPAT_GEN=200 go test ./interp -run TestGocompatGenerated -count=1 -timeout 60m
func TestGocompatGenerated(t *testing.T) {
	first, count := uint64(1), uint64(genPrograms)
	if s := os.Getenv("GOTENSOR_GOCOMPAT_SEED"); s != "" {
		var err error
		if first, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("GOTENSOR_GOCOMPAT_SEED=%q: %v", s, err)
		}
		count = 1
	}
	if s := os.Getenv("GOTENSOR_GOCOMPAT_GEN"); s != "" {
		var err error
		if count, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("GOTENSOR_GOCOMPAT_GEN=%q: %v", s, err)
		}
	}
	var progs []gocompatProgram
	for seed := first; seed < first+count; seed++ {
		r := rand.New(rand.NewPCG(seed, 20261207))
		src, known := generateProgram(r, 3+r.IntN(4))
		progs = append(progs, gocompatProgram{Program: corpus.Program{
			Name: fmt.Sprintf("generated/seed%d", seed),
			Src:  src,
		}, known: known})
	}
	modes := gocompatModesFor(t)
	diffs := runGocompat(t, progs, modes)
	byLabel := map[string]int{}
	for _, d := range diffs {
		key := d.label
		if d.known != "" {
			key += " (known, " + d.known + ")"
		}
		byLabel[key]++
	}
	var labels []string
	for l, c := range byLabel {
		labels = append(labels, fmt.Sprintf("%s %d", l, c))
	}
	slices.Sort(labels)
	t.Logf("generated: %d programs (seeds %d to %d), %d kinds of cell: %d runs differ; by construct: %s", len(progs), first, first+count-1, len(modes), len(diffs), strings.Join(labels, ", "))
}
