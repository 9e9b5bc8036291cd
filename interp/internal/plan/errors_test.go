package plan

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/internal/testenv"
)

// TestCompileErrors checks that a cell that does not compile gives Go's
// errors at the cell's positions, and that nothing of it is planned: a
// compile error on line 10 comes before lines 1 to 9 run.
func TestCompileErrors(t *testing.T) {
	s := newSession(t)
	run(t, s, 1, "func boom() { panic(\"kaboom\") }\nn := 3")
	cases := []struct{ src, want string }{
		{"x := 1\ny := 2\nz := foo + x", "cell line 3:6: undefined: foo"},
		{"a := 1\nfunc f() {\n\treturn 1\n}", "cell line 3:9: too many return values\n\thave (number)\n\twant ()"},
		{"x := (1 +\n", "cell line 2:1: expected operand, found '}'"},
		{"import \"no/such/pkg\"", "cell line 1:8: could not import no/such/pkg (package no/such/pkg is not available in this session (no compiled symbols for it))"},
		{"tensor.Randn(3, 3).RequiresGrad_()", "cell line 1:20: tensor.Randn(3, 3).RequiresGrad_ undefined (type *tensor.Tensor has no field or method RequiresGrad_)"},
		{"var s string = n", "cell line 1:16: cannot use n (variable of type int) as string value in variable declaration"},
		{"func g() int {\n\tfor {\n\t\tbreak\n\t}\n}", "cell line 5:1: missing return"},
		{"func h() {\n\tv := 1\n}", "cell line 2:2: declared and not used: v"},
		{"x := 1\nx := 2", "cell line 2:3: no new variables on left side of :="},
		{"fmt.Println(1)\nn + 1\nn", "cell line 2:1: n + 1 (value of type int) is not used"},
		{"boom(1)", "cell line 1:6: too many arguments in call to boom\n\thave (number)\n\twant ()"},
	}
	for i, c := range cases {
		p, err := s.Plan(i+2, c.src)
		var list ErrorList
		if !errors.As(err, &list) {
			t.Errorf("case %d %q: got plan %v, error %v; want a compile error", i, c.src, p, err)
			continue
		}
		if got := list.Error(); got != c.want {
			t.Errorf("case %d %q:\ngot  %q\nwant %q", i, c.src, got, c.want)
		}
	}
	// Top-level variables need no use, nor do imports.
	run(t, s, 20, "import \"strings\"\nunused := 1")
}

// TestErrorsLikeTheCompiler compares the planner's messages with those
// of go build on the same code written as a program.
func TestErrorsLikeTheCompiler(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		testenv.Missing(t, "no go command")
	}
	cases := []struct{ cell, program string }{
		{"x := 1\nvar s string = x",
			"package main\nfunc main() {\n\tx := 1\n\tvar s string = x\n\t_ = s\n}\n"},
		{"import \"strings\"\nstrings.ToUpper(1)",
			"package main\nimport \"strings\"\nfunc main() {\n\tstrings.ToUpper(1)\n}\n"},
		{"type T struct{}\nT{}.M()",
			"package main\ntype T struct{}\nfunc main() {\n\tT{}.M()\n}\n"},
		{"func f() (int, error) { return 0, nil }\nv := f()",
			"package main\nfunc f() (int, error) { return 0, nil }\nfunc main() {\n\tv := f()\n\t_ = v\n}\n"},
		{"undefinedName()",
			"package main\nfunc main() {\n\tundefinedName()\n}\n"},
	}
	dir := t.TempDir()
	msg := regexp.MustCompile(`(?m)^\./main\.go:\d+:\d+: (.*)$`)
	for i, c := range cases {
		s := newSession(t)
		_, err := s.Plan(1, c.cell)
		var list ErrorList
		if !errors.As(err, &list) {
			t.Errorf("case %d: no compile error: %v", i, err)
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(c.program), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\ngo 1.26\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(gobin, "build", "-o", os.DevNull, ".")
		cmd.Dir = dir
		out, _ := cmd.CombinedOutput()
		m := msg.FindStringSubmatch(string(out))
		if m == nil {
			t.Errorf("case %d: go build said %q", i, out)
			continue
		}
		if got, want := list[0].Msg, m[1]; !strings.HasPrefix(got, want) && !strings.HasPrefix(want, got) {
			t.Errorf("case %d: planner says %q, go build says %q", i, got, want)
		}
	}
}

// TestRedefinedTypeErrors checks that a compile error about two types of
// one name, a type and its redefinition, says where each is declared.
func TestRedefinedTypeErrors(t *testing.T) {
	s := newSession(t)
	run(t, s, 1, "type Metric struct {\n\tName  string\n\tValue float64\n}\n\nfunc total(ms []Metric) float64 { return 0 }")
	run(t, s, 2, "x := 1\ntype Metric struct {\n\tName  string\n\tValue float64\n\tUnit  string\n}")
	run(t, s, 3, "ms := []Metric{{\"a\", 1, \"s\"}}")
	const redefined = "what a cell declared with a type keeps that type when the type is redefined: run that cell again to use the new one"
	cases := []struct{ src, want string }{
		{"total(ms)", "cell line 1:7: cannot use ms (variable of type []Metric) as []Metric value in argument to total (two types named Metric: the value's is declared in cell 2, line 2, the other in cell 1, line 1; " + redefined + ")"},
		{"var m Metric\nfunc one(ms ...Metric) {}\none(m)", ""},
		{"type Metric struct{ N int }\nvar old []Metric = ms", "cell line 2:20: cannot use ms (variable of type []Metric) as []Metric value in variable declaration (two types named Metric: the value's is declared in cell 2, line 2, the other in cell 6, line 1; " + redefined + ")"},
		// Types of two names are as Go says.
		{"var s string = ms", "cell line 1:16: cannot use ms (variable of type []Metric) as string value in variable declaration"},
	}
	for i, c := range cases {
		_, err := s.Plan(i+4, c.src)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("case %d %q:\ngot  %q\nwant %q", i, c.src, got, c.want)
		}
	}
}
