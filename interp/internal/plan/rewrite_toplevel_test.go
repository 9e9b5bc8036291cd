package plan

import (
	"go/types"
	"strings"
	"testing"
)

// TestRewritesTopLevel checks the code generated for the cell's top-level statements.
func TestRewritesTopLevel(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"top-level defer and goto stay in the cell's function", "defer fmt.Println(\"done\")\nk := 0\nagain:\nk++\nif k < 3 { goto again }",
			[]string{"defer fmt.Println(\"done\")", "again:\nk++"}, nil},
		{"a top-level var of an interface written in the cell is nil, not yaegi's *new of it", "type Shape interface{ Area() float64 }\nvar sh Shape\nvar a, b Shape\nvar e error",
			[]string{"sh = nil", "a, b = func() (Shape, Shape) { return nil, nil }()", "e = *new(error)"}, nil},
	})
}

// TestTopVarsNamedLikeImports checks that top-level variables named like
// a package the interpreter imported (data, nn, strings) are declared in
// the interpreter under names of their own, which every use, in later
// cells and in functions, spells, and that the user's name stays theirs.
func TestTopVarsNamedLikeImports(t *testing.T) {
	s := newSession(t)
	code := func(p *Plan) string { return lineComment.ReplaceAllString(dump(p), "") }
	p := run(t, s, 1, "data := []int{1, 2, 3}\nfunc f() int { return len(data) }\nfmt.Println(len(data), f())")
	yn := s.InterpName("data")
	if yn == "data" || !strings.HasPrefix(yn, "data_gt") {
		t.Fatalf("InterpName(data) = %q, want a name of its own\n%s", yn, code(p))
	}
	for _, want := range []string{"var " + yn + " []int", yn + " = []int{1, 2, 3}", "return len(" + yn + ")", "fmt.Println(len(" + yn + "), f())"} {
		if !strings.Contains(code(p), want) {
			t.Errorf("cell 1: missing %q in\n%s", want, code(p))
		}
	}
	if v, ok := s.Lookup("data").(*types.Var); !ok || v.Type().String() != "[]int" {
		t.Errorf("Lookup(data) = %v, want the variable data []int", s.Lookup("data"))
	}
	if _, ok := s.Imports()["data"]; ok {
		t.Errorf("Imports() still has data after the cell declared a variable data")
	}

	// Later cells, and their functions, use it by its own name.
	p = run(t, s, 2, "func g() int { return len(data) }\nfmt.Println(data, g())")
	for _, want := range []string{"return len(" + yn + ")", "fmt.Println(" + yn + ", g())"} {
		if !strings.Contains(code(p), want) {
			t.Errorf("cell 2: missing %q in\n%s", want, code(p))
		}
	}
	// The same type takes the same variable; another type declares the
	// same name again, reading the old one through its pointer.
	p = run(t, s, 3, "data := []int{4}")
	if strings.Contains(code(p), "var ") || !strings.Contains(code(p), yn+" = []int{4}") {
		t.Errorf("cell 3 declares data again:\n%s", code(p))
	}
	p = run(t, s, 4, "data := fmt.Sprint(data)")
	if !strings.Contains(code(p), "var "+yn+" string") || !strings.Contains(code(p), "&"+yn) {
		t.Errorf("cell 4 does not declare %s again, reading the old one by its pointer:\n%s", yn, code(p))
	}
	if got := s.InterpName("data"); got != yn {
		t.Errorf("after cell 4, InterpName(data) = %q, want %q", got, yn)
	}

	// A variable whose type has no name in Go source is declared by
	// example, under its own name too.
	p = run(t, s, 5, "import \"example.com/hidden\"\nnn := hidden.New()\nfmt.Println(nn)")
	if yn := s.InterpName("nn"); yn == "nn" || !strings.Contains(code(p), yn+" := hidden.New()") {
		t.Errorf("InterpName(nn) = %q; cell 5 does not declare it by example:\n%s", yn, code(p))
	}
	// A package-level variable and then a top-level one of the same type.
	run(t, s, 6, "var optim = 3\nfunc h() int { return optim }")
	p = run(t, s, 7, "optim := 4\nfmt.Println(optim, h())")
	if yn := s.InterpName("optim"); yn == "optim" || !strings.Contains(code(p), yn+" = 4") || strings.Contains(code(p), "var ") {
		t.Errorf("InterpName(optim) = %q; cell 7 does not assign it:\n%s", yn, code(p))
	}
	// A type and a function named like imports, declared again.
	run(t, s, 8, "type tensor struct{}\nfunc display() {}")
	p = run(t, s, 9, "type tensor int\nfunc display() int { return 1 }\nvar x tensor = 2\nfmt.Println(x, display())")
	if strings.Contains(code(p), "type tensor ") || strings.Contains(code(p), "var display ") {
		t.Errorf("cell 9 declares a name the interpreter has as an import:\n%s", code(p))
	}

	// The package the variable hides: Go's error, and how to reach it.
	_, err := s.Plan(10, "data.NewTensorDataset(nil, nil)")
	if err == nil || !strings.Contains(err.Error(), "data.NewTensorDataset undefined (type string has no field or method NewTensorDataset)") ||
		!strings.Contains(err.Error(), `import data2 "github.com/gotensor/gotensor/tensorlib/data"`) {
		t.Errorf("a use of package data that variable data hides: got error %v", err)
	}
	// Importing the package again takes the name back.
	p = run(t, s, 11, "import \"github.com/gotensor/gotensor/tensorlib/data\"\nfmt.Println(data.NewTensorDataset != nil)")
	if s.Lookup("data") != nil || s.Imports()["data"] != "github.com/gotensor/gotensor/tensorlib/data" {
		t.Errorf("after importing package data, Lookup(data) = %v, Imports()[data] = %q", s.Lookup("data"), s.Imports()["data"])
	}
	if !strings.Contains(code(p), "fmt.Println(data.NewTensorDataset != nil)") {
		t.Errorf("cell 11 does not use the package:\n%s", code(p))
	}
}

// TestHiddenPackageError checks the advice that a compile error about a
// member of a variable named like a package gets, in the cell that
// declares the variable too.
func TestHiddenPackageError(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"tensor := 2\ntensor.Ones(2)", `tensor.Ones undefined (type int has no field or method Ones): variable tensor hides package tensor; import the package under another name (import tensor2 "github.com/gotensor/gotensor/tensorlib/tensor") and write tensor2.Ones`},
		{"import \"strings\"\nstrings := []string{}\nstrings.Fields(\"a\")", `strings.Fields undefined (type []string has no field or method Fields): variable strings hides package strings; import the package under another name (import strings2 "strings")`},
		{"data := []int{}\ndata.NoSuch()", "data.NoSuch undefined (type []int has no field or method NoSuch)\n"},
	} {
		_, err := newSession(t).Plan(1, c.src)
		if err == nil || !strings.Contains(err.Error()+"\n", c.want) {
			t.Errorf("cell %q: got error %v, want %q", c.src, err, c.want)
		}
	}
}
