package plan

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// GOROOTSource returns a Universe.Source that reads the non-test Go files
// of a standard-library package under goroot (the Go toolchain's source
// tree) that build for this platform, or nil when there are none.
func GOROOTSource(goroot string) func(path string) []string {
	return FSSource(os.DirFS(filepath.Join(goroot, "src")))
}

// FSSource returns a Universe.Source that reads the non-test Go files of a
// standard-library package that build for this platform from fsys, a
// tree rooted like $GOROOT/src (slices/sort.go), or nil when there are
// none: the toolchain's tree, or the copy the kernel embeds.
func FSSource(fsys fs.FS) func(path string) []string {
	ctx := build.Default
	ctx.JoinPath = path.Join
	ctx.OpenFile = func(name string) (io.ReadCloser, error) { return fsys.Open(name) }
	return func(pkg string) []string {
		entries, err := fs.ReadDir(fsys, pkg)
		if err != nil {
			return nil
		}
		var files []string
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			if ok, err := ctx.MatchFile(pkg, name); err != nil || !ok {
				continue
			}
			b, err := fs.ReadFile(fsys, path.Join(pkg, name))
			if err == nil {
				files = append(files, string(b))
			}
		}
		return files
	}
}

// HasStd reports whether fsys, a tree rooted like $GOROOT/src, holds the
// standard library's generic source (slices/sort.go).
func HasStd(fsys fs.FS) bool {
	_, err := fs.Stat(fsys, "slices/sort.go")
	return err == nil
}

// StdSource returns the Universe.Source for the generic code of the
// standard library: the Go toolchain's source under goroot when it is
// there (the Go that builds the kernel: slices.Sorted, maps.Keys,
// iter.Seq, errors.AsType, atomic.Pointer), else fallback, the sources of
// whole packages (yaegi's embedded copies of cmp, maps and slices:
// github.com/traefik/yaegi/stdlib/generic's Sources). The note says what
// the fallback lacks, for Universe.SourceNote; it is "" for the
// toolchain's source. (A kernel built with its own copy of the source
// uses that first: see package interp/internal/stdsrc.)
func StdSource(goroot string, fallback []string) (source func(path string) []string, note string) {
	if goroot != "" && HasStd(os.DirFS(filepath.Join(goroot, "src"))) {
		return GOROOTSource(goroot), ""
	}
	byPath := map[string][]string{}
	for _, src := range fallback {
		f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.PackageClauseOnly)
		if err == nil {
			byPath[f.Name.Name] = append(byPath[f.Name.Name], src)
		}
	}
	where := "no Go toolchain was found"
	if goroot != "" {
		where = "the Go toolchain's source is not under " + goroot
	}
	note = where + " and the kernel carries no copy of it, so generic code comes from the interpreter's Go 1.22 copies of cmp, maps and slices " +
		"(slices without Sort, SortFunc, Min, Max, BinarySearch, Sorted, Collect; no maps.Keys, no iter, errors.AsType, atomic.Pointer): " +
		"rebuild the kernel with make build, which embeds that source, or install Go and set GOROOT to it"
	return func(path string) []string { return byPath[path] }, note
}

// fromSource type-checks the declarations of Go source, without function
// bodies, into pkg: all of them when pkg has no objects yet, else only its
// exported generic declarations and what their types use (see
// Universe.Source). Errors are ignored where a package has reflected
// objects; u.mu is held.
func (u *Universe) fromSource(pkg *types.Package, src []string) error {
	reflected := pkg.Scope().Len() > 0
	if reflected {
		// Only the files that declare exported generics: the types their
		// signatures use are nearly always exported, so in the scope.
		var generic []string
		for _, s := range src {
			if exportedGeneric().MatchString(s) {
				generic = append(generic, s)
			}
		}
		if src = generic; len(src) == 0 {
			return nil
		}
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for i, s := range src {
		f, err := parser.ParseFile(fset, fmt.Sprintf("%s/%d.go", pkg.Path(), i), s, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" || strings.HasSuffix(f.Name.Name, "_test") {
			continue
		}
		pkg.SetName(f.Name.Name)
		// Cells need the declarations' types, not their code: without
		// bodies, the declarations pull in only what their signatures
		// use (the generic runtime.AddCleanup would pull in the runtime).
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				fd.Body = nil
			}
		}
		files = append(files, f)
	}
	if reflected {
		files = genericDecls(files, pkg.Scope())
	}
	used := selectorsUsed(files)
	var first error
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) { return u.importForSource(path, used[path]) }),
		Error: func(err error) {
			if e, ok := err.(types.Error); ok && !e.Soft && first == nil && !reflected && e.Msg != "missing function body" {
				first = err
			}
		},
	}
	func() {
		defer func() {
			if r := recover(); r != nil && first == nil {
				first = fmt.Errorf("the type checker failed on the source: %v", r)
			}
		}()
		types.NewChecker(&conf, fset, pkg, nil).Files(files)
	}()
	return first
}

// importForSource imports a package for the source of another, which
// uses the given names of it. An internal package of the standard library
// is an empty one. A package the tables hold gets the generic declarations
// of its source only when the names used include one that reflection does
// not give: importing iter does not read the runtime's source, importing
// slices reads cmp's for cmp.Ordered.
func (u *Universe) importForSource(path string, names map[string]bool) (*types.Package, error) {
	if _, ok := u.table(path); !ok && (strings.Contains(path, "internal") || strings.Contains(path, "vendor")) {
		pkg := u.pkg(path)
		pkg.MarkComplete()
		return pkg, nil
	}
	pkg, err := u.importLocked(path, false)
	if err != nil {
		return nil, err
	}
	for name := range names {
		if pkg.Scope().Lookup(name) == nil {
			return u.importLocked(path, true)
		}
	}
	return pkg, nil
}

// selectorsUsed returns, by import path, the names the files use of the
// packages they import ("cmp" → {"Ordered"}).
func selectorsUsed(files []*ast.File) map[string]map[string]bool {
	used := map[string]map[string]bool{}
	for _, f := range files {
		byName := map[string]string{}
		for _, sp := range f.Imports {
			p, _ := strconv.Unquote(sp.Path.Value)
			name := defaultName(p)
			if sp.Name != nil {
				name = sp.Name.Name
			}
			byName[name] = p
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok {
					if p, ok := byName[id.Name]; ok {
						if used[p] == nil {
							used[p] = map[string]bool{}
						}
						used[p][sel.Sel.Name] = true
					}
				}
			}
			return true
		})
	}
	return used
}

// exportedGeneric matches the start of an exported generic declaration.
// It is compiled on first use.
var exportedGeneric = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^(func|type|\t) ?[A-Z]\w*\[`) })

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// genericDecls keeps, of a package's files, the generic functions and
// types the scope (built from reflection) lacks, the methods of those
// types, and the declarations of names the scope lacks that they use,
// transitively. The methods of types in the scope are never kept: a
// checker cannot add methods to a type it did not declare.
func genericDecls(files []*ast.File, scope *types.Scope) []*ast.File {
	top := map[string][]ast.Node{}     // top-level name → declarations
	methods := map[string][]ast.Node{} // receiver base type → methods
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil {
					if base, _ := recvBase(d.Recv.List[0].Type); base != "" {
						methods[base] = append(methods[base], d)
					}
					continue
				}
				top[d.Name.Name] = append(top[d.Name.Name], d)
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						top[sp.Name.Name] = append(top[sp.Name.Name], sp)
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							top[n.Name] = append(top[n.Name], sp)
						}
					}
				}
			}
		}
	}
	keep := map[ast.Node]bool{}
	var work []ast.Node
	add := func(n ast.Node) {
		if !keep[n] {
			keep[n] = true
			work = append(work, n)
		}
	}
	for name, nodes := range top {
		if scope.Lookup(name) != nil || !token.IsExported(name) {
			continue
		}
		for _, n := range nodes {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Type.TypeParams != nil {
					add(n)
				}
			case *ast.TypeSpec:
				if n.TypeParams != nil {
					add(n)
				}
			}
		}
	}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		if ts, ok := n.(*ast.TypeSpec); ok {
			for _, m := range methods[ts.Name.Name] {
				add(m)
			}
		}
		ast.Inspect(n, func(x ast.Node) bool {
			if id, ok := x.(*ast.Ident); ok && scope.Lookup(id.Name) == nil {
				for _, d := range top[id.Name] {
					add(d)
				}
			}
			return true
		})
	}
	var out []*ast.File
	for _, f := range files {
		nf := *f
		nf.Decls = nil
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if keep[d] {
					nf.Decls = append(nf.Decls, d)
				}
			case *ast.GenDecl:
				if d.Tok == token.IMPORT {
					nf.Decls = append(nf.Decls, d)
					continue
				}
				g := *d
				g.Specs = nil
				for _, sp := range d.Specs {
					if keep[sp] {
						g.Specs = append(g.Specs, sp)
					}
				}
				if len(g.Specs) > 0 {
					nf.Decls = append(nf.Decls, &g)
				}
			}
		}
		out = append(out, &nf)
	}
	return out
}
