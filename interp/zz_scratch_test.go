package interp

import (
	"go/ast"
	"go/parser"
	"testing"
)

func TestScratchDefine(t *testing.T) {
	s := newSession(t)
	do := func(code string, exec bool) {
		f, err := s.parse("package main\nfunc _() {\n" + code + "\n}")
		if err != nil {
			t.Fatal(err)
		}
		body := f.Decls[len(f.Decls)-1].(*ast.FuncDecl).Body
		prog, err := s.compile(&ast.BlockStmt{Lbrace: f.Package, List: body.List})
		if err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		if exec {
			if err := s.exec(prog); err != nil {
				t.Fatalf("%s: %v", code, err)
			}
		}
	}
	_ = parser.ParseExpr
	do("x := 1", false)
	do("func() { x = 1 }()", true)
	res, _ := mustRun(t, s, "x")
	t.Log(res)
	do("x := \"s\"", false)
	do("func() { x = \"s\" }()", true)
	res, _ = mustRun(t, s, "x")
	t.Log(res)
	do("x := tensor.Zeros(2)", false)
	do("func() { x = tensor.Zeros(2) }()", true)
	res, _ = mustRun(t, s, "x")
	t.Log(res)
	do("f := func(a int) int { return a * 10 }", false)
	do("func() { f = func(a int) int { return a * 10 } }()", true)
	res, _ = mustRun(t, s, "f(3)")
	t.Log(res)
	do("a, b := 1, \"two\"", false)
	do("func() { a, b = 1, \"two\" }()", true)
	res, _ = mustRun(t, s, "fmt.Sprint(a, b)")
	t.Log(res)
}
