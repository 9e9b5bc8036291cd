package plan

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"
)

// qualify returns the name that generated code uses for a package: the
// session's import, the cell's, or one the plan adds.
func (g *gen) qualify(pkg *types.Package) (string, bool) {
	if !g.s.u.Has(pkg.Path()) {
		return pkg.Name(), false // the interpreter cannot import it
	}
	return g.pkgName(pkg), true
}

// pkgName returns the name that generated code uses for a package.
func (g *gen) pkgName(pkg *types.Package) string {
	path := pkg.Path()
	for name, p := range g.s.imports {
		if p == path && name != "_" && name != "." {
			return name
		}
	}
	for _, sp := range g.c.imports {
		if p, _ := strconv.Unquote(sp.Path.Value); p == path {
			if name := importName(sp, g.s.u); name != "_" && name != "." {
				return name
			}
		}
	}
	if name, ok := g.s.hidden[path]; ok {
		return name
	}
	if name, ok := g.hidden[path]; ok {
		return name
	}
	name := "_gtp_" + pkg.Name() + strconv.Itoa(len(g.s.hidden)+len(g.hidden)+1)
	g.hidden[path] = name
	return name
}

// typeName returns the interpreter's name of a type declared in a cell,
// and false for an old version no name reaches.
func (g *gen) typeName(obj *types.TypeName) (string, bool) {
	if name, ok := g.hoisted(obj); ok {
		return name, true
	}
	if localType(obj) {
		return obj.Name(), true // declared in a function: in scope where it is used
	}
	if n, ok := g.ynames[obj]; ok {
		return n, true
	}
	if g.s.unprintable[obj] {
		return obj.Name(), false
	}
	if n, ok := g.s.yname[obj]; ok {
		return n, true
	}
	// The cell redefines the name: an earlier version without a version
	// name of its own is out of reach.
	if g.c.declared[obj.Name()] && g.s.isEntry(obj) {
		return obj.Name(), false
	}
	return obj.Name(), true
}

// instance returns the interpreter's name of an instance of a generic
// type: the instance the plan or an earlier cell made.
func (g *gen) instance(t *types.Named) (string, bool) { return g.s.instanceName(t, g.c.inst) }

// unexported reports that generated code cannot name an unexported type
// of a compiled package.
func (g *gen) unexported(obj *types.TypeName) (string, bool) { return obj.Name(), false }

// yname returns the interpreter's name of a session or cell object.
func (g *gen) yname(obj types.Object) string {
	if n, ok := g.ynames[obj]; ok {
		return n
	}
	if n, ok := g.s.yname[obj]; ok {
		return n
	}
	return obj.Name()
}

// nameTypes gives the cell's redefined types their versioned names, and
// the cell's package-level names and top-level variables that the
// interpreter has as an import names of their own (see collide).
func (g *gen) nameTypes() {
	for _, ts := range g.c.types {
		name := ts.Name.Name
		obj, _ := g.c.info.Defs[ts.Name].(*types.TypeName)
		if obj == nil || name == "_" || ts.Assign.IsValid() || ts.TypeParams != nil {
			continue
		}
		e, ok := g.s.entries[name]
		if !ok {
			continue
		}
		if _, isType := e.obj.(*types.TypeName); !isType {
			continue
		}
		if g.importName(name) {
			g.ynames[obj] = g.s.fresh(name + "_gt")
			g.collided[obj] = true
		} else {
			v := g.s.versions[name] + 1
			g.ynames[obj] = name + "_gt" + strconv.Itoa(v)
		}
		g.p.Warnings = append(g.p.Warnings, fmt.Sprintf("type %s is redefined; values made before this cell keep the old definition and its methods", name))
	}
	// A package-level name of the cell that the interpreter has as an
	// import is declared under a name of its own: the interpreter cannot
	// forget an import, nor declare a name of the same scope beside it.
	collide := func(id *ast.Ident) {
		if obj := g.c.info.Defs[id]; obj != nil && g.ynames[obj] == "" && g.importName(id.Name) {
			g.ynames[obj] = g.s.fresh(id.Name + "_gt")
			g.collided[obj] = true
		}
	}
	for _, ts := range g.c.types {
		collide(ts.Name)
	}
	for _, vs := range append(append([]*ast.ValueSpec{}, g.c.consts...), g.c.vars...) {
		for _, id := range vs.Names {
			collide(id)
		}
	}
	for _, fd := range g.c.funcs {
		collide(fd.Name)
	}
	// So is a top-level variable of the statements; one that takes the
	// place of a session variable of that name keeps its name in the
	// interpreter.
	for name, v := range g.c.topVars {
		if !g.importName(name) {
			continue
		}
		if e, ok := g.s.entries[name]; ok {
			if yn, ok := g.s.yname[e.obj]; ok {
				if _, isVar := e.obj.(*types.Var); isVar {
					g.ynames[v] = yn
					continue
				}
			}
		}
		g.ynames[v] = g.s.fresh(name + "_gt")
	}
	for _, fd := range g.c.funcs {
		if fd.Name.Name == "main" && fd.Type.TypeParams == nil {
			if obj := g.c.info.Defs[fd.Name]; obj != nil {
				g.ynames[obj] = "_gtmain"
				g.p.Main = true
			}
		}
	}
}

// importName reports whether the interpreter has, or the cell gives it,
// an import of that name.
func (g *gen) importName(name string) bool {
	if _, ok := g.s.imported[name]; ok {
		return true
	}
	for _, sp := range g.c.imports {
		if importName(sp, g.s.u) == name {
			return true
		}
	}
	return false
}
