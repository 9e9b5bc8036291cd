package plan

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

func mustParse(t testing.TB, fset *token.FileSet, src string) *ast.File {
	t.Helper()
	f, err := parser.ParseFile(fset, "test.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
