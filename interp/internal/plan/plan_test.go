package plan

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"regexp"
	"strings"
	"testing"
)

// allSrc joins the sources of a plan's steps, without the /*line*/
// comments that keep columns after edits (see TestColumns).
func allSrc(p *Plan) string {
	var b strings.Builder
	for _, st := range p.Steps {
		b.WriteString(inlineLine.ReplaceAllString(st.Src, "") + "\n")
	}
	return b.String()
}

// inlineLine matches a /*line*/ comment.
var inlineLine = regexp.MustCompile(`/\*line [^*]*\*/`)

// checkSource checks that the generated source of p has each of has and
// none of hasNot.
func checkSource(t *testing.T, p *Plan, has, hasNot []string) {
	t.Helper()
	src := allSrc(p)
	for _, h := range has {
		if !strings.Contains(src, h) {
			t.Errorf("generated source lacks\n%s\n%s", h, dump(p))
		}
	}
	for _, h := range hasNot {
		if strings.Contains(src, h) {
			t.Errorf("generated source has %q:\n%s", h, dump(p))
		}
	}
}

// decls summarizes a plan's declarations: "kind name type [reuse]
// [redefines] [example]".
func decls(p *Plan) []string {
	var out []string
	for _, d := range p.Decls {
		s := d.Kind.String() + " " + d.Name
		if d.Type != nil {
			s += " " + types.TypeString(d.Type, func(p *types.Package) string {
				if p.Path() == cellPath {
					return ""
				}
				return p.Name()
			})
		}
		if d.Reuse {
			s += " reuse"
		}
		if d.Redefines {
			s += " redefines"
		}
		if d.ByExample {
			s += " example"
		}
		out = append(out, s)
	}
	return out
}

// TestPlans checks the planner's decisions and the code it generates for
// the last cell of each sequence. Every plan is also type-checked as the
// interpreter will see it (see verify).
func TestPlans(t *testing.T) {
	cases := []struct {
		name   string
		cells  []string
		decls  []string // of the last cell, in source order
		has    []string // substrings of its generated source
		hasNot []string
		warn   string // substring of its warnings
	}{
		{
			name:  "declarations in any order, statements in order",
			cells: []string{"x := square(3)\nimport \"strings\"\nfunc square(n int) int { return n * n }\ntype pair struct{ a, b int }\nconst k = 2\nvar y = k * 10\nfmt.Println(strings.Repeat(\"ab\", k), x, y)\nfunc (p pair) sum() int { return p.a + p.b }\nimport \"strings\"\npair{x, y}.sum()"},
			decls: []string{"var x int", "import strings", "func square func(n int) int", "type pair pair", "const k untyped int", "var y int", "method pair.sum"},
			has:   []string{"func _gtf1_square(n int) int", "square = _gtf1_square", "x = square(3)", "y = k * 10", "var square func(int) int\nvar x int\nvar y int", "_gtres := pair{x, y}.sum(); _gt.Value(_gtres)"},
		},
		{
			name:   "a definition of the same type reuses the variable",
			cells:  []string{"x := 1", "x := 2"},
			decls:  []string{"var x int reuse"},
			has:    []string{"x = 2"},
			hasNot: []string{"var x"},
		},
		{
			name:  "a definition of another type declares a new variable",
			cells: []string{"x := 1", "x := \"s\""},
			decls: []string{"var x string redefines"},
			has:   []string{"var x string", "x = \"s\""},
		},
		{
			name:  "the old variable, read before its redefinition, through a pointer",
			cells: []string{"t := 3", "n := t * 2\nt := fmt.Sprint(n)"},
			has:   []string{"_gtold1 := &t", "n = (*_gtold1) * 2", "var t string"},
		},
		{
			name:  "x := x.Method() of the same type",
			cells: []string{"x := tensor.Ones(2, 2)", "x := x.Sum()"},
			decls: []string{"var x *tensor.Tensor reuse"},
			has:   []string{"x = x.Sum()"},
		},
		{
			name:  "a parameter of a library call indexed (issue 11)",
			cells: []string{"l := nn.NewLinear(3, 2)\nps := l.Parameters()", "a := ps[0]"},
			decls: []string{"var a *tensor.Tensor"},
			has:   []string{"var a *tensor.Tensor", "a = ps[0]"},
		},
		{
			name:   "a function is a variable that redefinition reaches",
			cells:  []string{"func base() int { return 1 }\nfunc caller() int { return base() * 10 }", "func base() int { return 2 }"},
			decls:  []string{"func base func() int reuse"},
			has:    []string{"func _gtf3_base() int { return 2 }", "base = _gtf3_base"},
			hasNot: []string{"var base"},
		},
		{
			name:  "a function with a new signature",
			cells: []string{"func base() int { return 1 }", "func base() string { return \"s\" }"},
			decls: []string{"func base func() string redefines"},
			has:   []string{"var base func() string"},
		},
		{
			name:  "a redefined type gets a version and an alias",
			cells: []string{"type P struct{ A int }\nfunc (p P) M() int { return p.A }\nold := P{5}", "type P struct{ A, B int }\nfunc (p P) M() int { return p.A + p.B }\nnewer := P{1, 2}"},
			decls: []string{"type P P redefines", "method P.M", "var newer P"},
			has:   []string{"type P_gt2 struct{ A, B int }\ntype P = P_gt2", "func (p P_gt2) M() int", "var newer P_gt2", "newer = (P_gt2{1, 2})"},
			warn:  "type P is redefined",
		},
		{
			name:  "a method on a type of an earlier cell",
			cells: []string{"type Q struct{ N int }\nq := Q{4}", "func (q Q) Double() int { return q.N * 2 }\nq.Double()"},
			decls: []string{"method Q.Double"},
			has:   []string{"func (q Q) Double() int", "_gtres := q.Double()"},
		},
		{
			name:   "a method redefined alone keeps its first definition",
			cells:  []string{"type R int\nfunc (r R) M() int { return 1 }", "func (r R) M() int { return 2 }"},
			hasNot: []string{"return 2"},
			warn:   "method R.M is already defined and keeps its first definition",
		},
		{
			name:  "main runs once, after the declarations; the package clause goes",
			cells: []string{"package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(helper())\n}\n\nfunc helper() string { return \"h\" }"},
			decls: []string{"func main func()", "func helper func() string"},
			has:   []string{"var _gtmain func()", "func _gtf1_main() {", "_gtmain = _gtf1_main", "func _gtf2_helper() string", "helper = _gtf2_helper", "_gtmain()\n}"},
		},
		{
			name:  "init runs before the statements",
			cells: []string{"func init() { fmt.Println(\"init\") }\nfmt.Println(\"body\")"},
			has:   []string{"func _gtf1_init() { fmt.Println(\"init\") }", "_gtf1_init()\n_gtLine = 2\n//line _.go:100010002:1\nfmt.Println(\"body\")"},
		},
		{
			name:  "a function uses a variable the cell defines at the top",
			cells: []string{"count := 0\nfunc inc() { count++ }\ninc()\ncount"},
			decls: []string{"var count int", "func inc func()"},
			has:   []string{"func _gtf1_inc() { count++ }", "inc = _gtf1_inc", "count = 0"},
		},
		{
			name:  "a method uses a map of its own type defined at the top (Go by Example enums)",
			cells: []string{"type ServerState int\nconst (\n\tStateIdle ServerState = iota\n\tStateConnected\n)\nvar stateName = map[ServerState]string{StateIdle: \"idle\", StateConnected: \"connected\"}\nfunc (ss ServerState) String() string { return stateName[ss] }\nfmt.Println(StateConnected)"},
			has:   []string{"var stateName map[ServerState]string", "fmt.Println(func(_gtx ServerState) any { return _gt.Fmt(_gtx, _gtx.String, nil, nil, nil) }(StateConnected))"},
		},
		{
			name:  "a function uses a variable whose type mixes the cell's types and the session's",
			cells: []string{"type Old struct{ N int }\nfunc mk() map[string]Old { return map[string]Old{} }", "type New int\nfunc wrap[T any](v T) map[New]T { return map[New]T{1: v} }\nm := wrap(mk())\nfunc size() int { return len(m[1]) }"},
			has:   []string{"var m map[New]map[string]Old", "_size() int { return len(m[1]) }"},
		},
		{
			name:  "a pasted program's variables are package-level, initialized by the declared functions",
			cells: []string{"package main\nvar (\n\ta = concat(\"x\", b)\n\tb = \"y\"\n)\nfunc concat(s ...string) string { return s[0] + s[1] }\nfunc main() { println(a) }"},
			decls: []string{"var a string", "var b string", "func concat func(s ...string) string", "func main func()"},
			has:   []string{"var (\n\ta = _gtf1_concat(\"x\", b)\n\tb = \"y\"\n)"},
		},
		{
			name:   "a declaration named like an import is declared apart",
			cells:  []string{"type data struct{ S string }\nd := data{\"s\"}"},
			decls:  []string{"type data data", "var d data"},
			has:    []string{"type data_gt1 struct{ S string }", "var d data_gt1", "d = (data_gt1{\"s\"})"},
			hasNot: []string{"type data = "},
		},
		{
			name:  "top-level var declarations become assignments",
			cells: []string{"var (\n\ta = 1\n\tb, c float32\n)\nvar d []int = nil"},
			decls: []string{"var a int", "var b float32", "var c float32", "var d []int"},
			has:   []string{"\ta = 1\n\tb, c = *new(float32), *new(float32)\n", "d = nil"},
		},
		{
			name:  "a variable of a type without a name in Go source is declared by example",
			cells: []string{"import \"example.com/hidden\"\nh := hidden.New()\nh.N"},
			decls: []string{"import hidden", "var h *plan.thing example"},
			has:   []string{"h := hidden.New()", "h = hidden.New()"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSession(t)
			var p *Plan
			for i, src := range c.cells {
				p = run(t, s, i+1, src)
			}
			if c.decls != nil && fmt.Sprint(decls(p)) != fmt.Sprint(c.decls) {
				t.Errorf("decls\ngot  %q\nwant %q", decls(p), c.decls)
			}
			checkSource(t, p, c.has, c.hasNot)
			if w := strings.Join(p.Warnings, "\n"); !strings.Contains(w, c.warn) || c.warn == "" && w != "" {
				t.Errorf("warnings %q, want %q", w, c.warn)
			}
		})
	}
}

// TestColumns checks that the interpreter's positions are the cell's after
// an edit changes the length of a line (a function renamed _gtfN_h, a
// depth prologue inserted): go/parser, as yaegi uses it, reads the
// generated source.
func TestColumns(t *testing.T) {
	s := newSession(t)
	run(t, s, 1, "func g() int { return 1 }")
	p := run(t, s, 2, "x := 0\nfunc h() int { return g() + x }")
	fset := token.NewFileSet()
	found := false
	for _, st := range p.Steps {
		if st.Kind != StepFile {
			continue
		}
		f, err := parser.ParseFile(fset, "_.go", st.Src, 0)
		if err != nil {
			t.Fatal(err)
		}
		fn, ok := f.Decls[0].(*ast.FuncDecl)
		if !ok || fn.Name.Name == "init" {
			continue // the file of the cell's statements
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && (id.Name == "g" || id.Name == "x") {
				pos := fset.Position(id.Pos())
				cell, line, _ := Position(pos.Line)
				want := map[string]int{"g": 23, "x": 29}[id.Name]
				if cell != 2 || line != 2 || pos.Column != want {
					t.Errorf("%s at cell %d line %d column %d, want cell 2 line 2 column %d:\n%s", id.Name, cell, line, pos.Column, want, st.Src)
				}
				found = true
			}
			return true
		})
	}
	if !found {
		t.Fatalf("no use of g in\n%s", dump(p))
	}
}

// TestDebugPlanBindsGoroutine checks that only a plan for the debugger
// makes the goroutine that runs it the session's (yaegi's debugger runs a
// step in a goroutine of its own; other steps run in the executor's,
// which the executor binds).
func TestDebugPlanBindsGoroutine(t *testing.T) {
	s := newSession(t)
	start := "func init() { defer _gt.GoStart()()"
	p, err := s.Plan(1, "x := 2\nx + 1")
	if err != nil {
		t.Fatal(err)
	}
	if got := dump(p); strings.Contains(got, "GoStart") || p.Debug {
		t.Errorf("a plan for the executor binds its goroutine (Debug %v):\n%s", p.Debug, got)
	}
	for name, plan := range map[string]func(int, string) (*Plan, error){"Interpret": s.Interpret, "Debug": s.Debug} {
		p, err := plan(2, "y := 2\ny + 1")
		if err != nil {
			t.Fatal(err)
		}
		debug := name == "Debug"
		if got := dump(p); strings.Contains(got, start) != debug || p.Debug != debug {
			t.Errorf("%s: run block binds its goroutine %v, Debug %v; want %v:\n%s", name, strings.Contains(got, start), p.Debug, debug, got)
		}
	}
}

// TestTransientRunBlock checks which files that run a cell's statements
// can be forgotten once the cell ended: those that make no function
// literal (a go statement's is one), whose code cannot run again.
func TestTransientRunBlock(t *testing.T) {
	for src, want := range map[string]bool{
		"1 + 1":                               true,
		"x := 3\nfor i := range 3 { x += i }": true,
		"f := func() int { return 1 }\nf()":   false,
		"g := func (a int) int { return a }":  false,
		"go fmt.Println(1)":                   false,
		"func h() int { return 2 }\nh()":      true,
	} {
		s := newSession(t)
		p := run(t, s, 1, src)
		last := p.Steps[len(p.Steps)-1]
		if !strings.Contains(last.Src, "func init()") {
			t.Fatalf("%q: last step is not the run block:\n%s", src, dump(p))
		}
		if last.Transient != want {
			t.Errorf("%q: Transient %v, want %v:\n%s", src, last.Transient, want, dump(p))
		}
		for _, st := range p.Steps[:len(p.Steps)-1] {
			if st.Transient {
				t.Errorf("%q: a step other than the run block is transient:\n%s", src, st.Src)
			}
		}
	}
}
