package symbols

import (
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestTablesComplete fails when an exported name of a package is missing from
// its generated table: either the table is stale (run go generate
// ./internal/symbols) or the name is generic, which yaegi cannot use and the
// design forbids in gotensor's exported APIs. The generic names of other
// modules' packages (Importable) are left out of their tables.
func TestTablesComplete(t *testing.T) {
	importable := map[string]bool{}
	for _, p := range Importable {
		importable[p] = true
	}
	for _, path := range append(append([]string{}, Packages...), Importable...) {
		out, err := exec.Command("go", "list", "-f", "{{.Dir}}", path).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", path, err)
		}
		fset := token.NewFileSet()
		dir := strings.TrimSpace(string(out))
		pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool {
			// The files of this build: one of a pair of build-tagged
			// files (cgo, !cgo) would otherwise hide the other.
			ok, err := build.Default.MatchFile(dir, fi.Name())
			return err == nil && ok && !strings.HasSuffix(fi.Name(), "_test.go")
		}, 0)
		if err != nil {
			t.Fatal(err)
		}
		for name, p := range pkgs {
			table, ok := Symbols[path+"/"+name]
			if !ok {
				t.Errorf("no symbol table for %s: run go generate ./internal/symbols", path)
				continue
			}
			d := doc.New(p, path, 0)
			var names []string
			generic := map[string]bool{}
			for _, f := range d.Funcs {
				names = append(names, f.Name)
				generic[f.Name] = f.Decl.Type.TypeParams != nil
			}
			for _, ty := range d.Types {
				names = append(names, ty.Name)
				if ts, ok := ty.Decl.Specs[0].(*ast.TypeSpec); ok {
					generic[ty.Name] = ts.TypeParams != nil
				}
				for _, f := range ty.Funcs {
					names = append(names, f.Name)
					generic[f.Name] = f.Decl.Type.TypeParams != nil
				}
				for _, group := range [][]*doc.Value{ty.Consts, ty.Vars} {
					for _, v := range group {
						names = append(names, v.Names...)
					}
				}
			}
			for _, group := range [][]*doc.Value{d.Consts, d.Vars} {
				for _, v := range group {
					names = append(names, v.Names...)
				}
			}
			for _, n := range names {
				if !ast.IsExported(n) || importable[path] && generic[n] {
					continue
				}
				if _, ok := table[n]; !ok {
					t.Errorf("%s.%s is missing from the yaegi symbol table: run go generate ./internal/symbols, and keep generics out of exported APIs", path, n)
				}
			}
		}
	}
}
