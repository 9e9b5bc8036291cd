package monotest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/internal/testenv"
)

// goProgram returns the Go program a notebook's cells stand for: the
// imports of every cell, the declarations of the declaration cells, and
// the statement cells, in order, as main's body.
func goProgram(cells []string) (string, error) {
	imports := map[string]bool{}
	var decls, body []string
	for _, c := range cells {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "", "package main\n"+c, 0)
		if err != nil {
			body = append(body, c) // statements
			continue
		}
		text := "package main\n" + c
		var b strings.Builder
		at := fset.Position(f.Name.End()).Offset
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.IMPORT {
				continue
			}
			for _, sp := range g.Specs {
				p, _ := strconv.Unquote(sp.(*ast.ImportSpec).Path.Value)
				imports[p] = true
			}
			b.WriteString(text[at:fset.Position(g.Pos()).Offset])
			at = fset.Position(g.End()).Offset
		}
		b.WriteString(text[at:])
		decls = append(decls, b.String())
	}
	paths := make([]string, 0, len(imports))
	for p := range imports {
		paths = append(paths, strconv.Quote(p))
	}
	sort.Strings(paths)
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n\t" + strings.Join(paths, "\n\t") + "\n)\n")
	for _, d := range decls {
		b.WriteString(d + "\n")
	}
	b.WriteString("func main() {\n" + strings.Join(body, "\n") + "\n}\n")
	return b.String(), nil
}

// TestWantIsGoRun checks the expected outputs of the programs against
// what go run prints for them (MONOTEST_PRINT=1 prints them, to write
// the table).
func TestWantIsGoRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every program with the Go toolchain")
	}
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goCmd); err != nil {
		testenv.Missing(t, "no Go toolchain at %s", goCmd)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module monotest.example\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, p := range programs {
		src, err := goProgram(p.cells)
		if err != nil {
			t.Fatal(err)
		}
		d := filepath.Join(dir, fmt.Sprintf("p%02d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "main.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "bin")
	cmd := exec.Command(goCmd, "build", "-o", bin+string(filepath.Separator), "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for i, p := range programs {
		out, err := exec.Command(filepath.Join(bin, fmt.Sprintf("p%02d", i))).CombinedOutput()
		if err != nil {
			t.Errorf("%s: %v\n%s", p.name, err, out)
			continue
		}
		if os.Getenv("MONOTEST_PRINT") != "" {
			fmt.Printf("%s:\n%s\n", p.name, strconv.Quote(string(out)))
		}
		if string(out) != p.want {
			t.Errorf("%s: go run prints\n%s\nthe table says\n%s", p.name, out, p.want)
		}
	}
}
