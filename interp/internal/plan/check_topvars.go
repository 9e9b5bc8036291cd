package plan

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// placeholderDecl returns the declaration of the placeholder of top-level
// variable name when its type, found by the previous check of the cell
// (in package prev), involves a type the cell declares: the next check
// declares that type anew, so the placeholder must name it in source.
// It returns nil when the type can be used as it is, or cannot be named.
func (c *cell) placeholderDecl(name string, t types.Type, prev *types.Package) ast.Decl {
	if prev == nil || !mentions(t, prev) {
		return nil
	}
	src, ok := typeSource(checkNamer{c, prev}, t)
	if !ok {
		return nil
	}
	expr, err := parser.ParseExprFrom(c.fset, "", src, 0)
	if err != nil {
		return nil
	}
	return &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{
		Names: []*ast.Ident{{Name: placeholderPrefix + name, NamePos: expr.Pos()}}, Type: expr}}}
}

// mentions reports whether t involves a named type of package pkg.
func mentions(t types.Type, pkg *types.Package) bool {
	found := false
	walkType(t, nil, func(t types.Type) bool {
		if n, ok := t.(*types.Named); ok && n.Obj().Pkg() == pkg {
			found = true
		}
		return !found
	})
	return found
}

// checkNamer names types as the cell's check source does: packages by
// its imports, the cell's types and the session's current ones by name.
type checkNamer struct {
	c    *cell
	prev *types.Package // the package of the previous check
}

func (n checkNamer) qualify(pkg *types.Package) (string, bool) {
	for _, sp := range n.c.file.Imports {
		if p, _ := strconv.Unquote(sp.Path.Value); p == pkg.Path() {
			if name := importName(sp, n.c.s.u); name != "_" && name != "." {
				return name, true
			}
		}
	}
	return "", false
}

func (n checkNamer) typeName(obj *types.TypeName) (string, bool) {
	name := obj.Name()
	if localType(obj) {
		return name, true
	}
	if obj.Pkg() == n.prev {
		return name, n.c.declared[name] || n.c.isInstType(obj)
	}
	return name, n.c.s.isEntry(obj) && !n.c.declared[name] || n.c.s.generated[name] == types.Object(obj)
}

func (n checkNamer) instance(t *types.Named) (string, bool) { return n.c.s.instanceName(t, n.c.inst) }

func (n checkNamer) unexported(obj *types.TypeName) (string, bool) { return obj.Name(), false }

// isInstType reports whether obj is a type that the cell's instance code
// declares.
func (c *cell) isInstType(obj *types.TypeName) bool {
	for d := range c.instDecls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
			for _, sp := range g.Specs {
				if sp.(*ast.TypeSpec).Name.Name == obj.Name() {
					return true
				}
			}
		}
	}
	return false
}

// placeholderPrefix starts the names of placeholders (see check).
const placeholderPrefix = "_gtvar_"

// definedIdents returns the identifiers a top-level statement of the cell
// defines: x and y of "x, y := ..." and "var x, y = ...".
func definedIdents(st ast.Stmt) []*ast.Ident {
	var ids []*ast.Ident
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok == token.DEFINE {
			for _, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					ids = append(ids, id)
				}
			}
		}
	case *ast.DeclStmt:
		if g, ok := st.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, sp := range g.Specs {
				for _, id := range sp.(*ast.ValueSpec).Names {
					if id.Name != "_" {
						ids = append(ids, id)
					}
				}
			}
		}
	}
	return ids
}

// findTopVars records the variables the statements define at the top.
func (c *cell) findTopVars() {
	c.topVars = map[string]*types.Var{}
	for _, st := range c.body.Body.List {
		for _, id := range definedIdents(st) {
			if v, ok := c.info.Defs[id].(*types.Var); ok {
				c.topVars[id.Name] = v
			}
		}
	}
}

// usesOfTopVars returns the identifiers in the bodies of the cell's
// functions and methods that mean a variable the statements define at the
// top: those that are undefined, or resolve to a session name, where a
// top-level variable of the cell has that name.
func (c *cell) usesOfTopVars() []*ast.Ident {
	if len(c.topVars) == 0 {
		return nil
	}
	var ids []*ast.Ident
	for _, d := range c.file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn == c.body || fn.Body == nil {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				ast.Inspect(n.X, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok {
						ids = c.appendTopUse(ids, id)
					}
					return true
				})
				return false
			case *ast.Ident:
				ids = c.appendTopUse(ids, n)
			}
			return true
		})
	}
	return ids
}

func (c *cell) appendTopUse(ids []*ast.Ident, id *ast.Ident) []*ast.Ident {
	name := strings.TrimPrefix(id.Name, placeholderPrefix)
	if _, ok := c.topVars[name]; !ok || c.info.Defs[id] != nil {
		return ids
	}
	obj := c.info.Uses[id]
	placeholder := obj != nil && obj.Parent() == c.pkg.Scope() && !c.declared[name]
	if obj == nil || placeholder || c.s.isEntry(obj) || c.sessionImport(obj) {
		return append(ids, id)
	}
	return ids
}

// sessionImport reports whether obj is a package the session imports
// under its name and the cell does not: a top-level variable of the
// statements of that name takes the name from it, in the cell's functions
// too.
func (c *cell) sessionImport(obj types.Object) bool {
	pn, ok := obj.(*types.PkgName)
	if !ok || c.s.imports[pn.Name()] != pn.Imported().Path() {
		return false
	}
	for _, sp := range c.imports {
		if importName(sp, c.s.u) == pn.Name() {
			return false
		}
	}
	return true
}
