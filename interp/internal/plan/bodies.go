package plan

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
)

// A source is Go source type-checked with its function bodies: a
// standard-library package's (see Universe.bodies) or a cell's (see
// Session.generics). The monomorphizer instantiates generic declarations
// from it.
type source struct {
	path string // the package's import path; cellPath for a cell
	name string // the package's name; "" for a cell
	cell int    // the cell, for a cell's source
	fset *token.FileSet
	// texts holds the files' contents.
	texts map[*token.File]string
	info  *types.Info
	pkg   *types.Package
	// decls maps the package-level objects to their declarations: a
	// *ast.FuncDecl, *ast.TypeSpec or *ast.ValueSpec.
	decls map[types.Object]ast.Node
	// methods holds the method declarations by receiver base type name.
	methods map[string][]*ast.FuncDecl
	// errs holds the type errors of the source (a package's source may
	// use internal packages the interpreter cannot import).
	errs []types.Error
}

// text returns the source text of node n.
func (src *source) text(n ast.Node) string {
	f := src.fset.File(n.Pos())
	return src.texts[f][f.Offset(n.Pos()):f.Offset(n.End())]
}

// errorIn returns the first type error inside node n, or "".
func (src *source) errorIn(n ast.Node) string {
	for _, e := range src.errs {
		if e.Pos >= n.Pos() && e.Pos < n.End() {
			return e.Msg
		}
	}
	return ""
}

// index fills decls and methods from the files' declarations.
func (src *source) index(files []*ast.File) {
	src.decls = map[types.Object]ast.Node{}
	src.methods = map[string][]*ast.FuncDecl{}
	for _, f := range files {
		for _, d := range f.Decls {
			src.indexDecl(d)
		}
	}
}

// indexDecl adds one declaration to decls or methods.
func (src *source) indexDecl(d ast.Decl) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil {
			if base, _ := recvBase(d.Recv.List[0].Type); base != "" {
				src.methods[base] = append(src.methods[base], d)
			}
			return
		}
		if obj := src.info.Defs[d.Name]; obj != nil {
			src.decls[obj] = d
		}
	case *ast.GenDecl:
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				if obj := src.info.Defs[sp.Name]; obj != nil {
					src.decls[obj] = sp
				}
			case *ast.ValueSpec:
				for _, n := range sp.Names {
					if obj := src.info.Defs[n]; obj != nil {
						src.decls[obj] = sp
					}
				}
			}
		}
	}
}

// newInfo returns a types.Info that records what the monomorphizer reads.
func newInfo() *types.Info {
	return &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Implicits:  map[ast.Node]types.Object{},
		Instances:  map[*ast.Ident]types.Instance{},
		Scopes:     map[ast.Node]*types.Scope{},
	}
}

// overrides replace generic declarations of the standard library whose
// code the interpreter cannot run as it is, by package path and name,
// with code that does the same. errors.AsType's walk of the error tree
// asserts compiled errors to interface types (interface{ Unwrap() error
// }), which yaegi gets wrong; errors.As does the walk, compiled (the
// planner gives it an interpreted matcher for a cell's error type), and
// AsType is As with a target.
var overrides = map[string]map[string]string{
	"errors": {
		"AsType": "func AsType[E error](err error) (E, bool) {\n\tvar target E\n\tok := As(err, &target)\n\treturn target, ok\n}\n",
	},
}

// bodies returns the source of package path type-checked with its
// function bodies, into a package of its own (the one Import gives is
// checked without bodies): the generic code cells instantiate. It is
// read once per universe.
func (u *Universe) bodies(path string) (*source, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if src, ok := u.withBodies[path]; ok {
		return src, nil
	}
	texts := u.sourceOf(path)
	if texts == nil {
		return nil, fmt.Errorf("the Go source of package %s is not available", path)
	}
	src := &source{path: path, cell: -1, fset: token.NewFileSet(), texts: map[*token.File]string{}}
	var files []*ast.File
	for i, text := range texts {
		f, err := parser.ParseFile(src.fset, fmt.Sprintf("%s/%d.go", path, i), text, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("package %s: %v", path, err)
		}
		if f.Name.Name == "main" || strings.HasSuffix(f.Name.Name, "_test") {
			continue
		}
		src.name = f.Name.Name
		src.texts[src.fset.File(f.Package)] = text
		files = append(files, f)
	}
	for name, text := range overrides[path] {
		for _, f := range files {
			kept := f.Decls[:0]
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); !ok || fd.Recv != nil || fd.Name.Name != name {
					kept = append(kept, d)
				}
			}
			f.Decls = kept
		}
		text = "package " + src.name + "\n\n" + text
		f, err := parser.ParseFile(src.fset, path+"/override_"+name+".go", text, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("package %s: the replacement of %s: %v", path, name, err)
		}
		src.texts[src.fset.File(f.Package)] = text
		files = append(files, f)
	}
	src.pkg = types.NewPackage(path, src.name)
	src.info = newInfo()
	used := selectorsUsed(files)
	conf := types.Config{
		Importer: importerFunc(func(p string) (*types.Package, error) { return u.importForSource(p, used[p]) }),
		Error: func(err error) {
			if e, ok := err.(types.Error); ok && !e.Soft && e.Msg != "missing function body" {
				src.errs = append(src.errs, e)
			}
		},
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				src.errs = append(src.errs, types.Error{Msg: fmt.Sprintf("the type checker failed on the source: %v", r)})
			}
		}()
		types.NewChecker(&conf, src.fset, src.pkg, src.info).Files(files)
	}()
	src.index(files)
	u.withBodies[path] = src
	return src, nil
}

// InTables reports whether the symbol tables hold package path: the
// interpreter imports it compiled. A package the universe has only as
// source (cmp, iter, maps, slices) is never imported by the interpreter:
// every use of it is instantiated.
func (u *Universe) InTables(path string) bool {
	_, ok := u.tables[path]
	return ok
}

// inTable reports whether the symbol tables hold name in package path.
func (u *Universe) inTable(path, name string) bool {
	_, ok := u.tables[path][name]
	return ok
}
