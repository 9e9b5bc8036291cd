// Command gen writes the yaegi symbol tables and the doc-comment table of the
// packages listed in symbols.Packages. Run it through `go generate
// ./interp/internal/symbols` from anywhere in the module.
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"log"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/traefik/yaegi/extract"
	"golang.org/x/sync/errgroup"
)

// packages lists the import paths whose tables are generated and that a
// notebook pre-imports, in that order. Add a package here and run go
// generate.
var packages = []string{
	"github.com/gotensor/gotensor/display",
	"github.com/gotensor/gotensor/tensorlib/tensor",
	"github.com/gotensor/gotensor/tensorlib/nn",
	"github.com/gotensor/gotensor/tensorlib/optim",
	"github.com/gotensor/gotensor/tensorlib/data",
	"github.com/gotensor/gotensor/tensorlib/tensorio",
	"github.com/gotensor/gotensor/cuda",
	"github.com/gotensor/gotensor/widgets",
}

// importable lists the import paths of other modules whose tables are
// generated: compiled into the kernel, a cell may import them, and none is
// pre-imported. Their versions are go.mod's.
var importable = []string{
	"gonum.org/v1/gonum/mat",
	"gonum.org/v1/gonum/floats",
	"gonum.org/v1/gonum/stat",
	"gonum.org/v1/gonum/stat/distuv",
	"gonum.org/v1/gonum/optimize",
	"gonum.org/v1/gonum/graph",
	"gonum.org/v1/gonum/graph/simple",
	"gonum.org/v1/gonum/graph/path",
	"gonum.org/v1/plot",
	"gonum.org/v1/plot/plotter",
	"gonum.org/v1/plot/plotutil",
	"gonum.org/v1/plot/vg",
	"gonum.org/v1/plot/vg/draw",
	"gonum.org/v1/plot/font",
}

// docsOnly lists packages whose doc comments are collected but that
// notebooks do not import: tensorlib/backend declares the types tensor
// re-exports (tensor.DType is backend.DType), so Shift-Tab on their methods
// looks up the backend's docs.
var docsOnly = []string{
	"github.com/gotensor/gotensor/tensorlib/backend",
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("symbols/gen: ")
	paths := append(append([]string{}, packages...), importable...)
	// Each path is read and type-checked from source, its dependencies
	// included: the paths go in parallel.
	docs := make([]map[string]string, len(paths))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, path := range paths {
		g.Go(func() (err error) {
			docs[i], err = generate(path)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		log.Fatal(err)
	}
	all := map[string]string{}
	for _, d := range docs {
		maps.Copy(all, d)
	}
	for _, path := range docsOnly {
		if err := collectDocs(path, all); err != nil {
			log.Fatalf("docs of %s: %v", path, err)
		}
	}
	if err := writeModuleMapTypes("nn_maptypes.go"); err != nil {
		log.Fatal(err)
	}
	if err := writeDocs("docs.go", packages, importable, all); err != nil {
		log.Fatal(err)
	}
}

// generate writes path's table and returns its docs.
func generate(path string) (map[string]string, error) {
	ext := extract.Extractor{Dest: "symbols"}
	var buf bytes.Buffer
	if _, err := ext.Extract(path, "", &buf); err != nil {
		return nil, fmt.Errorf("extracting %s: %v", path, err)
	}
	name := strings.NewReplacer("/", "-", ".", "_").Replace(strings.TrimPrefix(path, "github.com/gotensor/gotensor/"))
	if err := os.WriteFile(name+".go", buf.Bytes(), 0o644); err != nil {
		return nil, err
	}
	docs := map[string]string{}
	if err := collectDocs(path, docs); err != nil {
		return nil, fmt.Errorf("docs of %s: %v", path, err)
	}
	return docs, nil
}

// collectDocs adds "path.Name" and "path.Type.Method" entries: the
// declaration's signature, a blank line and its doc comment.
func collectDocs(path string, docs map[string]string) error {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", path).Output()
	if err != nil {
		return fmt.Errorf("go list %s: %v", path, err)
	}
	dir := strings.TrimSpace(string(out))
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool {
		// The files of this build: of a pair of build-tagged files (cgo,
		// !cgo), the docs are those of the one notebooks run.
		ok, err := build.Default.MatchFile(dir, fi.Name())
		return err == nil && ok && !strings.HasSuffix(fi.Name(), "_test.go")
	}, parser.ParseComments)
	if err != nil {
		return err
	}
	for _, p := range pkgs {
		d := doc.New(p, path, 0)
		add := func(key string, decl ast.Node, text string) {
			docs[path+"."+key] = strings.TrimSpace(signature(fset, decl) + "\n\n" + text)
		}
		for _, f := range d.Funcs {
			add(f.Name, f.Decl, f.Doc)
		}
		for _, t := range d.Types {
			add(t.Name, typeHeader(t), t.Doc)
			for _, f := range t.Funcs {
				add(f.Name, f.Decl, f.Doc)
			}
			for _, m := range t.Methods {
				add(t.Name+"."+m.Name, m.Decl, m.Doc)
			}
		}
		for _, group := range [][]*doc.Value{d.Consts, d.Vars} {
			for _, v := range group {
				for _, n := range v.Names {
					if ast.IsExported(n) {
						docs[path+"."+n] = strings.TrimSpace(v.Doc)
					}
				}
			}
		}
	}
	return nil
}

// typeHeader returns the type's declaration without its body's comments.
func typeHeader(t *doc.Type) ast.Node {
	for _, s := range t.Decl.Specs {
		if ts, ok := s.(*ast.TypeSpec); ok {
			return &ast.GenDecl{Tok: token.TYPE, Specs: []ast.Spec{ts}}
		}
	}
	return t.Decl
}

// signature prints a declaration without its body.
func signature(fset *token.FileSet, n ast.Node) string {
	if fd, ok := n.(*ast.FuncDecl); ok {
		c := *fd
		c.Body = nil
		c.Doc = nil
		n = &c
	}
	var b bytes.Buffer
	printer.Fprint(&b, fset, n)
	return b.String()
}

func writeDocs(file string, pkgs, importable []string, docs map[string]string) error {
	keys := make([]string, 0, len(docs))
	for k := range docs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString("// Code generated by interp/internal/symbols/gen. DO NOT EDIT.\n\npackage symbols\n\n")
	b.WriteString("// Packages lists the import paths whose symbols are here, in the order a\n// notebook pre-imports them.\n")
	fmt.Fprintf(&b, "var Packages = %#v\n\n", pkgs)
	b.WriteString("// Importable lists the import paths of other modules whose symbols are\n// here: a cell may import them; none is pre-imported.\n")
	fmt.Fprintf(&b, "var Importable = %#v\n\n", importable)
	b.WriteString("// Docs maps \"import/path.Name\" and \"import/path.Type.Method\" to the\n// declaration's signature and doc comment, for Shift-Tab in notebooks.\n")
	b.WriteString("var Docs = map[string]string{\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "\t%q: %q,\n", k, docs[k])
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Clean(file), src, 0o644)
}
