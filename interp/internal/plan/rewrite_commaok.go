package plan

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Comma-ok values that fail.
//
// A comma-ok map index or type assertion that fails (a missing key, a
// value of another type) gives Go's zero value, but the interpreter does
// not write the first variable it assigns then: in a loop, n, ok := m[k]
// keeps the value an earlier iteration found, and so do n, ok = m[k],
// var v, ok = m[k] and w, _ := m[k]. commaOkValue makes the value the
// results of a function literal called in its place, whose variables are
// new at each call and so hold the zero value when the lookup fails:
//
//	n, ok := m[k]  →  n, ok := func() (int, bool) { _gtv, _gtok := m[k]; return _gtv, _gtok }()
//
// An assignment to a map's element is mapElemAssign's, which declares
// its variables (see commaOkVars); an assertion that assertIface or
// assertConcrete rewrites is a function literal's results already.

// commaOkAssign is the hook of node for assignments.
func (g *gen) commaOkAssign(a *ast.AssignStmt) {
	if a.Tok != token.ASSIGN && a.Tok != token.DEFINE || len(a.Lhs) != 2 || len(a.Rhs) != 1 {
		return
	}
	if isBlank(a.Lhs[0]) || g.isMapIndex(a.Lhs[0]) || g.isMapIndex(a.Lhs[1]) {
		return // the value is not kept, or mapElemAssign's
	}
	g.commaOkValue(a.Rhs[0])
}

// commaOkDecl is commaOkAssign for a var declaration.
func (g *gen) commaOkDecl(st *ast.DeclStmt) {
	d, ok := st.Decl.(*ast.GenDecl)
	if !ok || d.Tok != token.VAR {
		return
	}
	for _, sp := range d.Specs {
		vs := sp.(*ast.ValueSpec)
		if len(vs.Names) == 2 && len(vs.Values) == 1 && vs.Names[0].Name != "_" {
			g.commaOkValue(vs.Values[0])
		}
	}
}

// commaOkValue wraps v, the value of a comma-ok assignment, in a function
// literal called in its place, where v is a map index or a type assertion
// that the interpreter runs as it is.
func (g *gen) commaOkValue(v ast.Expr) {
	switch x := ast.Unparen(v).(type) {
	case *ast.TypeAssertExpr:
		if x.Type == nil || g.assertRewritten(x) {
			return
		}
	case *ast.IndexExpr:
		if !g.isMapIndex(x) {
			return
		}
	default:
		return
	}
	tuple, ok := g.c.info.TypeOf(v).(*types.Tuple)
	if !ok || tuple.Len() != 2 {
		return
	}
	t, ok := g.typeSrc(tuple.At(0).Type())
	if !ok {
		return
	}
	val, flag := g.fresh("_gtv"), g.fresh("_gtok")
	g.ed.insert(g.off(v.Pos()), "func() ("+t+", bool) { "+val+", "+flag+" := ")
	g.ed.insertOutside(g.off(v.End()), "; return "+val+", "+flag+" }()")
}

// assertRewritten reports whether assertIface or assertConcrete rewrites
// n.
func (g *gen) assertRewritten(n *ast.TypeAssertExpr) bool {
	if _, ok := g.ifaceAssertion(g.c.info.Types[n.Type].Type); ok {
		return true
	}
	_, _, _, ok := g.concreteAssertion(n)
	return ok
}
