package plan

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// hoisted returns the name of the package-level copy of a type declared
// in a function, when generic code is instantiated with it (see
// mono.hoist).
func (g *gen) hoisted(tn *types.TypeName) (string, bool) {
	if !localType(tn) || g.c.inst == nil || tn.Pkg() != g.c.pkg {
		return "", false
	}
	inst, ok := g.c.inst.byKey[g.s.objKey(tn)]
	if !ok {
		return "", false
	}
	return inst.name, true
}

// hoistedDecl drops the declarations of types in a function that are
// declared at the package level instead (see hoisted): the whole
// statement when it declares nothing else, else the type under the name
// _, its lines kept.
func (g *gen) hoistedDecl(st *ast.DeclStmt) {
	d, ok := st.Decl.(*ast.GenDecl)
	if !ok || d.Tok != token.TYPE || g.c.inst == nil {
		return
	}
	n := 0
	for _, sp := range d.Specs {
		ts := sp.(*ast.TypeSpec)
		if tn, ok := g.c.info.Defs[ts.Name].(*types.TypeName); ok {
			if _, ok := g.hoisted(tn); ok {
				n++
				g.ed.replace(g.off(ts.Name.Pos()), g.off(ts.Name.End()), "_")
			}
		}
	}
	if n > 0 && n == len(d.Specs) {
		start, end := g.off(st.Pos()), g.off(st.End())
		g.ed.replaceLines(g.c.text, start, end, strings.Repeat("\n", strings.Count(g.c.text[start:end], "\n")))
	}
}

// instanceRefs replaces the cell's uses of generic functions and types
// with the names of their instances (see mono): F(x), F[int](x),
// pkg.F(x), T[int]{}, pkg.T[int]. It runs before the other rewrites, so
// that the text they copy has the names.
func (g *gen) instanceRefs() {
	c := g.c
	if len(c.info.Instances) == 0 || g.s.prelude0 {
		return
	}
	inGeneric := c.genericSpans()
	// The expression each instance's identifier stands for: itself, a
	// qualified identifier, or an explicit instantiation.
	span := map[*ast.Ident]ast.Expr{}
	ast.Inspect(c.file, func(n ast.Node) bool {
		var id *ast.Ident
		switch n := n.(type) {
		case *ast.IndexExpr:
			id = nameOf(n.X)
		case *ast.IndexListExpr:
			id = nameOf(n.X)
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok {
				if _, isPkg := c.info.Uses[x].(*types.PkgName); isPkg {
					id = n.Sel
				}
			}
		}
		if id != nil {
			if _, ok := c.info.Instances[id]; ok {
				if _, set := span[id]; !set {
					span[id] = n.(ast.Expr)
				}
			}
		}
		return true
	})
	for id, in := range c.info.Instances {
		if inGeneric(id.Pos()) {
			continue
		}
		obj := c.info.Uses[id]
		targs := typeList(in.TypeArgs)
		if obj == nil || anyTypeParam(targs) {
			continue
		}
		key := g.s.instKey(obj, targs)
		name, ok := g.s.compiledInstance(obj, targs)
		switch {
		case ok:
		case c.inst != nil:
			name, ok = c.inst.lookup(key)
		default:
			name, ok = g.s.instances[key]
		}
		if !ok {
			g.errorf(id.Pos(), "internal error: no instance of %s; please report it", describe(obj, targs))
			continue
		}
		var e ast.Expr = id
		if x, ok := span[id]; ok {
			e = x
		}
		g.ed.replace(g.off(e.Pos()), g.off(e.End()), name)
	}
}
