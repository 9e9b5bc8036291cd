package interp

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gotensor/gotensor/interp/internal/corpus"
)

// wantError is the comment by which a gocompat program says that a cell
// cannot do what the go command does, and the error or warning it gives
// instead.
var wantError = regexp.MustCompile(`// gocompat: want-error "([^"]*)"`)

// TestGoCompatIfaceReflect runs the programs of testdata/gocompat/iface
// and testdata/gocompat/reflect as cells, in several ways, and compares
// what they print with what the go command's build of each prints (issue
// 20: cell types made into interfaces, interfaces declared in cells, and
// compiled code that looks at cell types by reflection). A program with a
// want-error comment must instead fail or warn with that text.
func TestGoCompatIfaceReflect(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs with the go command")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to compare with")
	}
	var progs []corpus.Program
	for _, family := range []string{"iface", "reflect"} {
		files, _ := filepath.Glob(filepath.Join("testdata", "gocompat", family, "*.go"))
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			name := family + "/" + strings.TrimSuffix(filepath.Base(f), ".go")
			progs = append(progs, corpus.Program{Name: name, Path: f, Src: string(src)})
		}
	}
	if len(progs) == 0 {
		t.Fatal("no programs under testdata/gocompat")
	}
	ctx := context.Background()
	gos, err := corpus.GoRun(ctx, progs, t.TempDir(), time.Minute, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range progs {
		t.Run(p.Name, func(t *testing.T) {
			g, ok := gos[p.Name]
			if !ok {
				t.Fatalf("the go command did not build %s", p.Path)
			}
			if why, ok := gocompatKnown[p.Name]; ok {
				t.Skip("known to differ from go run: " + why)
			}
			var want string
			if m := wantError.FindStringSubmatch(p.Src); m != nil {
				want = m[1]
			}
			for _, mode := range gocompatModes {
				t.Run(mode.name, func(t *testing.T) {
					cells, err := mode.cells(p.Src)
					if err != nil {
						t.Fatal(err)
					}
					s := newSession(t)
					var out, msgs strings.Builder
					failed := false
					for _, c := range cells {
						var r recorder
						_, err := s.Execute(ctx, c, &r)
						out.WriteString(r.text("stdout"))
						msgs.WriteString(r.text("stderr"))
						if err != nil {
							msgs.WriteString(err.Error() + "\n")
							failed = true
							break
						}
					}
					if want != "" {
						if !strings.Contains(msgs.String(), want) {
							t.Errorf("want an error or warning with %q, got stdout:\n%s\nmessages:\n%s", want, out.String(), msgs.String())
						}
						return
					}
					if failed || out.String() != g.Stdout {
						t.Errorf("cells printed:\n%s\nmessages:\n%s\ngo run printed:\n%s", out.String(), msgs.String(), g.Stdout)
					}
				})
			}
		})
	}
}

// gocompatKnown are the programs that still differ from go run without
// an error or a warning, and why (issue 20).
var gocompatKnown = map[string]string{}

// gocompatModes are the ways a program runs as cells: pasted whole, one
// declaration a cell, and with main called from a goroutine of a last
// cell.
var gocompatModes = []struct {
	name  string
	cells func(src string) ([]string, error)
}{
	{"pasted", func(src string) ([]string, error) { return []string{src}, nil }},
	{"split", func(src string) ([]string, error) { return splitDecls(src, false) }},
	{"goroutine", func(src string) ([]string, error) { return splitDecls(src, true) }},
}

// splitDecls returns the cells that run a program one top-level
// declaration a cell, the imports with the first, without its package
// clause. With inGoroutine, main is renamed and a last cell calls it in a
// goroutine and waits for it.
func splitDecls(src string, inGoroutine bool) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	var imports strings.Builder
	var cells []string
	for _, d := range f.Decls {
		text := src[fset.Position(d.Pos()).Offset:fset.Position(d.End()).Offset]
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			imports.WriteString(text + "\n")
			continue
		}
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" && inGoroutine {
			text = strings.Replace(text, "func main()", "func gocompatMain()", 1)
		}
		cells = append(cells, text)
	}
	if len(cells) == 0 {
		cells = []string{""}
	}
	cells[0] = imports.String() + cells[0]
	if inGoroutine {
		cells = append(cells, "gocompatDone := make(chan bool)\ngo func() { defer close(gocompatDone); gocompatMain() }()\n<-gocompatDone")
	}
	return cells, nil
}
