package plan

import (
	"fmt"
	"go/types"
	"reflect"
	"strings"
	"testing"
)

// TestMethodOnEarlierType checks a trap of go/types (docs/design.md): a
// method declared on a type of an earlier cell (go/types panics when the
// type's declaration is not in the same check). Values made before get the
// method, as they do in the interpreter.
func TestMethodOnEarlierType(t *testing.T) {
	s := newSession(t)
	run(t, s, 1, "type Q struct{ n int }\nq := Q{4}\npq := &Q{1}")
	// Declared and used in the same cell, recursively, through a value and
	// a pointer of the earlier cell.
	p := run(t, s, 2, "func (q *Q) Inc(k int) { if k > 0 { q.n++; q.Inc(k - 1) } }\nq.Inc(2)\npq.Inc(1)\nq.n")
	if p.Result == nil || types.TypeString(p.Result.Type, nil) != "int" {
		t.Errorf("result %v", p.Result)
	}
	// The next cell sees the method on the old values.
	run(t, s, 3, "func (q Q) Double() int { return q.n * 2 }")
	run(t, s, 4, "x := q.Double() + pq.Double()\nvar i interface{ Double() int } = q\n_ = i")
	if got := s.Source("Q.Double"); got != "func (q Q) Double() int" {
		t.Errorf("Source(Q.Double) = %q", got)
	}
	// Redefining a method alone warns; with another signature it is an
	// error that says what to do.
	p = run(t, s, 5, "func (q Q) Double() int { return 0 }")
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "Q.Double is already defined") {
		t.Errorf("warnings %q", p.Warnings)
	}
	if _, err := s.Plan(6, "func (q Q) Double() string { return \"\" }"); err == nil ||
		!strings.Contains(err.Error(), "method Q.Double was declared in cell 3 with another signature") {
		t.Errorf("got %v, want an error about the signature", err)
	}
}

// TestRedefinitions runs a sequence of redefinitions and checks what each
// name means after each cell.
func TestRedefinitions(t *testing.T) {
	s := newSession(t)
	typeOf := func(name string) string {
		o := s.Lookup(name)
		if o == nil {
			return "<none>"
		}
		return types.ObjectString(o, func(*types.Package) string { return "" })
	}
	steps := []struct {
		cell string
		want map[string]string
	}{
		{"type P struct{ A int }\na := P{1}\nfunc f() int { return 1 }", map[string]string{"P": "type P struct{A int}", "a": "var a P", "f": "func f() int"}},
		{"type P struct{ B string }\nb := P{\"x\"}", map[string]string{"P": "type P struct{B string}", "a": "var a P", "b": "var b P"}},
		{"c := a\nfunc f() string { return \"s\" }", map[string]string{"c": "var c P", "f": "func f() string"}},
		{"a := 3\nP := \"now a variable\"", map[string]string{"a": "var a int", "P": "var P string"}},
	}
	for i, st := range steps {
		p := run(t, s, i+1, st.cell)
		for name, want := range st.want {
			if got := typeOf(name); got != want {
				t.Errorf("after cell %d: %s is %q, want %q", i+1, name, got, want)
			}
		}
		if i == 2 {
			// c has the first P, which no name reaches in the interpreter
			// any more: declared by example.
			if d := p.Decls[0]; d.Name != "c" || !d.ByExample {
				t.Errorf("cell 3: %+v, want c declared by example", d)
			}
		}
	}
}

// TestCommitPartly checks that a cell whose steps did not all run keeps
// what the steps that ran declared, and that a plan never committed
// changes nothing.
func TestCommitPartly(t *testing.T) {
	s := newSession(t)
	p, err := s.Plan(1, "import \"strings\"\ntype T int\nx := strings.ToUpper(\"a\")")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Lookup("T"); got != nil {
		t.Errorf("planning declared T: %v", got)
	}
	s.Commit(p, 1) // the import ran, the declarations did not
	if _, ok := s.Imports()["strings"]; !ok || s.Lookup("T") != nil || s.Lookup("x") != nil {
		t.Errorf("after the import step: imports %v, T %v, x %v", s.Imports(), s.Lookup("T"), s.Lookup("x"))
	}
	p, err = s.Plan(2, "type T int\nx := 1\npanic(\"half way\")")
	if err != nil {
		t.Fatal(err)
	}
	s.Commit(p, len(p.Steps)-1) // the statements panicked
	if s.Lookup("T") == nil || s.Lookup("x") == nil {
		t.Error("declarations of a cell that panicked are lost")
	}
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if s.Lookup("T") != nil || len(s.Names()) != 0 {
		t.Errorf("after Reset: %v", s.Names())
	}
}

// TestOrder checks the order rules of a cell: declarations in any order,
// statements in the order written, a statement may call a function
// declared below it, and a function may use a variable the statements
// define.
func TestOrder(t *testing.T) {
	s := newSession(t)
	p := run(t, s, 1, "fmt.Println(twice(k))\nfunc twice(n int) int { return n * 2 * scale }\nconst k = 3\nscale := 10\ntype unused struct{ next *unused }")
	src := allSrc(p)
	assign, def := strings.Index(src, "twice = func"), strings.Index(src, "scale = 10")
	call := strings.Index(src, "fmt.Println(twice(k))")
	if !(assign < call && call < def) {
		t.Errorf("want the function assigned, then the statements in order:\n%s", dump(p))
	}
	// A statement before its variable's definition sees the session's
	// variable of that name, as a function body's statement sees an outer
	// one.
	run(t, s, 2, "v := \"old\"")
	p = run(t, s, 3, "before := v\nv := 2")
	if d := p.Decls[0]; d.Name != "before" || types.TypeString(d.Type, nil) != "string" {
		t.Errorf("before is %v, want a string", d)
	}
}

// TestLastValue checks which cells have a value to show.
func TestLastValue(t *testing.T) {
	s := newSession(t)
	run(t, s, 1, "func pair() (int, int) { return 1, 2 }\nfunc none() {}\nv := []string{\"a\"}\ntype H struct{}\nfunc (H) HTML() string { return \"<b>\" }\nfunc (h *H) String() string { return \"h\" }")
	cases := []struct{ src, want string }{
		{"1 + 1", "int"},
		{"1.5", "float64"},
		{"fmt.Println(1)", ""},
		{"pair()", ""},
		{"none()", ""},
		{"v", "[]string"},
		{"x := 3", ""},
		{"var p *int\np", "*int"},
		{"// a comment", ""},
		{"", ""},
		{"H{}", "H [HTML]"},
		{"&H{}", "*H [String HTML]"},
		{"tensor.Ones(2)", "*tensor.Tensor"},
	}
	for i, c := range cases {
		p := run(t, s, i+2, c.src)
		got := ""
		if r := p.Result; r != nil {
			got = types.TypeString(r.Type, func(p *types.Package) string {
				if p.Path() == cellPath {
					return ""
				}
				return p.Name()
			})
			if len(r.Methods) > 0 {
				got += " " + fmt.Sprint(r.Methods)
			}
		}
		if got != c.want {
			t.Errorf("case %d %q: result %q, want %q", i, c.src, got, c.want)
		}
	}
}

// TestConstantDeclaredAgain checks that a constant declared again reaches
// the functions of earlier cells that use it, declared again with the
// cell, and that the cell warns for what cannot be.
func TestConstantDeclaredAgain(t *testing.T) {
	s := newSession(t)
	run(t, s, 1, "const Width = 4\nfunc area() int { return Width * Width }\ntype Box struct{}\nfunc (Box) Area() int { return Width }\nfunc other() int { return 1 }")
	p := run(t, s, 2, "const Width = 5")
	checkSource(t, p, []string{"func _gtf", "_area() int {", "return Width * Width"}, []string{"_other()"})
	want := []string{"cell line 1: constant Width declared again with another value; the methods Box.Area of earlier cells keep the old value (the interpreter cannot change a method): run the cell that declares their type again"}
	if got := p.Warnings; !reflect.DeepEqual(got, want) {
		t.Errorf("warnings %q, want %q", got, want)
	}
	// Constants and types computed from it keep the old value.
	run(t, s, 3, "const Area = Width * Width\ntype Row [Width]int")
	p = run(t, s, 4, "const Width = 3")
	want2 := "cell line 1: constant Width declared again with another value; the constant Area, type Row of earlier cells keep the value computed from the old one: declare them again"
	if len(p.Warnings) != 2 || p.Warnings[1] != want2 {
		t.Errorf("warnings %q, want %q second", p.Warnings, want2)
	}
	run(t, s, 5, "const Width = 5")
	// The same value again declares nothing again.
	if p := run(t, s, 6, "const Width = 5"); strings.Contains(allSrc(p), "area") || len(p.Warnings) > 0 {
		t.Errorf("the same value: %q\n%s", p.Warnings, dump(p))
	}
	// A function that no longer checks keeps the old value, with a warning.
	run(t, s, 7, "var scale = 2\nfunc scaled() int { return Width * scale }")
	run(t, s, 8, "scale := \"x\"")
	p = run(t, s, 9, "const Width = 6")
	checkSource(t, p, []string{"_area() int {"}, []string{"_scaled() int {"})
	want = []string{"cell line 1: constant Width declared again with another value; the functions scaled of earlier cells use the old value (declared again with this cell, they would not compile: invalid operation: Width * scale (mismatched types untyped int and string)): correct them and declare them again", want[0], want2}
	if got := p.Warnings; !reflect.DeepEqual(got, want) {
		t.Errorf("warnings %q, want %q", got, want)
	}
}

// TestTypeOfEarlierType checks that a cell can declare a type as a type
// of an earlier cell (type alias Event, as an UnmarshalJSON method's
// alias), which go/types' cycle check of the cell's own declarations
// does not find.
func TestTypeOfEarlierType(t *testing.T) {
	s := newSession(t)
	run(t, s, 1, "type Event struct{ Name string }")
	run(t, s, 2, "type alias Event\ntype pair Event")
	p := run(t, s, 3, "func (e *Event) Set(n string) { (*alias)(e).Name = n }\nvar a = pair{\"p\"}")
	checkSource(t, p, []string{"(*alias)(e).Name = n"}, nil)
	s2 := newSession(t)
	run(t, s2, 1, "type A int")
	if _, err := s2.Plan(2, "type B C\ntype C B"); err == nil || !strings.Contains(err.Error(), "invalid recursive type") {
		t.Errorf("a cycle of the cell's own types: got %v, want invalid recursive type", err)
	}
}
