package plan

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Comma-ok values that fail.
//
// A comma-ok map index or type assertion that fails (a missing key, a
// value of another type) gives Go's zero value, but the interpreter does
// not write the first variable it assigns then: in a loop, n, ok := m[k]
// keeps the value an earlier iteration found, and so do n, ok = m[k],
// var v, ok = m[k] and w, _ := m[k]. The value goes first to variables
// declared just before the statement, which a declaration gives the zero
// value (see commaOkVars), and the statement assigns them:
//
//	n, ok := m[k]  →  var _gtv1 int; var _gtv2 bool; _gtv1, _gtv2 = m[k]; n, ok := _gtv1, _gtv2
//
// before an if's or switch's initial statement, in a block around the
// statement. Where no declaration can go (the cell's top level, a for
// statement's clauses, a labeled statement, a value written over several
// lines) or the value is an interface (a parallel assignment of one is
// wrong in yaegi, see parallelAssign), the value becomes a function
// literal's results instead, whose variables are new at each call; a
// call costs the interpreter about ten times the lookup:
//
//	n, ok := func() (int, bool) { _gtv, _gtok := m[k]; return _gtv, _gtok }()
//
// An assignment to a map's element is mapElemAssign's, which declares
// its variables too; an assertion that assertIface or assertConcrete
// rewrites is a function literal's results already.

// commaOkAssign is the hook of node for assignments: it wraps the value
// where commaOkPlace says the statement cannot declare variables.
func (g *gen) commaOkAssign(a *ast.AssignStmt, fc *fnCtx, stack []ast.Node) {
	if x := g.commaOkValue(a); x != nil && g.commaOkPlace(a, x, fc, stack) == nil {
		g.wrapCommaOk(x)
	}
}

// commaOkDecl is commaOkAssign for a var declaration.
func (g *gen) commaOkDecl(st *ast.DeclStmt, fc *fnCtx, stack []ast.Node) {
	if x := g.commaOkValue(st); x != nil && g.commaOkPlace(st, x, fc, stack) == nil {
		g.wrapCommaOk(x)
	}
}

// commaOkStmt declares variables for the value of the comma-ok statement
// st where commaOkPlace says it can. It runs once the statement's own
// rewrites are made (see walk): the value's text moves with them.
func (g *gen) commaOkStmt(st ast.Stmt, fc *fnCtx, stack []ast.Node) {
	x := g.commaOkValue(st)
	if x == nil {
		return
	}
	outer := g.commaOkPlace(st, x, fc, stack)
	if outer == nil {
		return
	}
	names := []string{g.fresh("_gtv"), g.fresh("_gtv")}
	decls, _ := g.commaOkVars([]ast.Expr{x}, names)
	value := g.ed.take(g.c.text, g.off(x.Pos()), g.off(x.End()), strings.Join(names, ", "))
	first := decls + strings.Join(names, ", ") + " = " + value + "; "
	if outer == st {
		g.ed.insert(g.off(st.Pos()), first)
		return
	}
	g.ed.insert(g.off(outer.Pos()), "{ "+first)
	g.ed.insertClosing(g.off(outer.End()), " }")
}

// commaOkValue returns the value of st when st assigns or declares two
// variables, the first not blank nor a map's element, from a map index or
// a type assertion that the interpreter runs as it is; else nil.
func (g *gen) commaOkValue(st ast.Stmt) ast.Expr {
	var v ast.Expr
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok != token.ASSIGN && st.Tok != token.DEFINE || len(st.Lhs) != 2 || len(st.Rhs) != 1 {
			return nil
		}
		if isBlank(st.Lhs[0]) || g.isMapIndex(st.Lhs[0]) || g.isMapIndex(st.Lhs[1]) {
			return nil // the value is not kept, or mapElemAssign's
		}
		v = st.Rhs[0]
	case *ast.DeclStmt:
		d, ok := st.Decl.(*ast.GenDecl)
		if !ok || d.Tok != token.VAR || len(d.Specs) != 1 {
			return nil
		}
		vs := d.Specs[0].(*ast.ValueSpec)
		if len(vs.Names) != 2 || len(vs.Values) != 1 || vs.Names[0].Name == "_" {
			return nil
		}
		v = vs.Values[0]
	default:
		return nil
	}
	switch x := ast.Unparen(v).(type) {
	case *ast.TypeAssertExpr:
		if x.Type == nil || g.assertRewritten(x) {
			return nil
		}
	case *ast.IndexExpr:
		if !g.isMapIndex(x) {
			return nil
		}
	default:
		return nil
	}
	if tuple, ok := g.c.info.TypeOf(v).(*types.Tuple); !ok || tuple.Len() != 2 {
		return nil
	}
	return v
}

// commaOkPlace returns where the variables of st's value x are declared
// before: st itself, in a list of statements; the if or switch statement
// whose initial statement st is; or nil where they cannot be (see above).
func (g *gen) commaOkPlace(st ast.Stmt, x ast.Expr, fc *fnCtx, stack []ast.Node) ast.Node {
	tuple := g.c.info.TypeOf(x).(*types.Tuple)
	if types.IsInterface(tuple.At(0).Type()) || g.atCellTop(fc, stack) || strings.Contains(g.c.text[g.off(x.Pos()):g.off(x.End())], "\n") {
		return nil
	}
	if _, ok := g.commaOkVars([]ast.Expr{x}, []string{"a", "b"}); !ok {
		return nil
	}
	switch p := stackTop(stack).(type) {
	case *ast.BlockStmt:
		return st
	case *ast.CaseClause:
		return st // a clause's statement: its list is the clause's body
	case *ast.CommClause:
		if p.Comm != st {
			return st
		}
	case *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt:
		if len(stack) > 1 {
			if _, labeled := stack[len(stack)-2].(*ast.LabeledStmt); labeled {
				return nil
			}
		}
		return p
	}
	return nil
}

// wrapCommaOk makes x, a comma-ok value, the results of a function
// literal called in its place.
func (g *gen) wrapCommaOk(x ast.Expr) {
	t, ok := g.typeSrc(g.c.info.TypeOf(x).(*types.Tuple).At(0).Type())
	if !ok {
		return
	}
	val, flag := g.fresh("_gtv"), g.fresh("_gtok")
	g.ed.insert(g.off(x.Pos()), "func() ("+t+", bool) { "+val+", "+flag+" := ")
	g.ed.insertOutside(g.off(x.End()), "; return "+val+", "+flag+" }()")
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
