package plan

import (
	"go/ast"
	"go/types"
)

// errorsAs rewrites errors.As(err, target) whose target points to a type
// a cell declared, an interface too: compiled errors.As cannot see that
// such a type is an error, or an interface. The runtime walks the chain
// and an interpreted type assertion tests each error.
func (g *gen) errorsAs(call *ast.CallExpr) {
	if len(call.Args) != 2 {
		return
	}
	target := call.Args[1]
	p, ok := g.c.info.Types[target].Type.(*types.Pointer)
	if !ok || !isCellType(p.Elem()) {
		return
	}
	t, ok := g.typeSrc(p.Elem())
	if !ok {
		return
	}
	assert := "_gte.(" + t + ")"
	if types.IsInterface(p.Elem()) {
		// A cell's interface: the value's type is tested as an
		// assertion to it is (see assertIface); compiled errors.As
		// panicked, its target not an interface it knows.
		impls, ok := g.ifaceAssertion(p.Elem())
		if !ok {
			return
		}
		assert = g.assertFunc(p.Elem(), impls, true, "_gtv") + "(_gte)"
	}
	g.ed.replace(g.off(call.Fun.Pos()), g.off(call.Lparen)+1, rtName+".ErrorsAs(")
	g.ed.replace(g.off(call.Args[0].End()), g.off(target.Pos()),
		", func(_gte any) bool { _gtv, _gtok := "+assert+"; if _gtok { *(")
	g.ed.replace(g.off(target.End()), g.off(call.Rparen)+1, ") = _gtv }; return _gtok }, "+errName+")")
}

// assertError makes a type assertion on an error see the value a
// compiled function handed back for a cell's error (the interpreter's
// wrapper, or cellrt's formatter after fmt.Errorf's %w): e.(T) becomes
// _gt.Identity(e).(T). errors.AsType's code and a cell's
// errors.Unwrap(err).(*MyErr) need it.
func (g *gen) assertError(n *ast.TypeAssertExpr) {
	if t := g.c.info.Types[n.X].Type; t == nil || !types.Identical(t, errorIface) {
		return
	}
	g.ed.insert(g.off(n.X.Pos()), rtName+".Identity(")
	g.ed.insertClosing(g.off(n.X.End()), ")")
}

// switchError does for a type switch on an error what assertError does,
// unless the variable it binds is used where its type is the error's (a
// default case, a case of several types or nil).
func (g *gen) switchError(sw *ast.TypeSwitchStmt) {
	var guard *ast.TypeAssertExpr
	switch a := sw.Assign.(type) {
	case *ast.AssignStmt:
		guard, _ = a.Rhs[0].(*ast.TypeAssertExpr)
	case *ast.ExprStmt:
		guard, _ = a.X.(*ast.TypeAssertExpr)
	}
	if guard == nil {
		return
	}
	for _, st := range sw.Body.List {
		cc := st.(*ast.CaseClause)
		if len(cc.List) == 1 && !g.c.info.Types[cc.List[0]].IsNil() {
			continue
		}
		obj := g.c.info.Implicits[cc]
		if obj == nil {
			continue
		}
		used := false
		for _, s := range cc.Body {
			ast.Inspect(s, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && g.c.info.Uses[id] == obj {
					used = true
				}
				return !used
			})
		}
		if used {
			return
		}
	}
	g.assertError(guard)
}

// errorIface is the error interface.
var errorIface = types.Universe.Lookup("error").Type()
