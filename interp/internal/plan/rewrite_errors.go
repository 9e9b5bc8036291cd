package plan

import (
	"go/ast"
	"go/types"
	"strconv"
)

// errorsAs rewrites errors.As(err, target) whose target points to a type
// a cell declared: compiled errors.As cannot see that such a type is an
// error. The runtime walks the chain and an interpreted type assertion
// tests each error.
func (g *gen) errorsAs(call *ast.CallExpr) {
	if len(call.Args) != 2 {
		return
	}
	target := call.Args[1]
	p, ok := g.c.info.Types[target].Type.(*types.Pointer)
	if !ok || !isCellType(p.Elem()) || types.IsInterface(p.Elem()) {
		return
	}
	t, ok := g.typeSrc(p.Elem())
	if !ok {
		return
	}
	g.ed.replace(g.off(call.Fun.Pos()), g.off(call.Lparen)+1, rtName+".ErrorsAs(")
	g.ed.replace(g.off(call.Args[0].End()), g.off(target.Pos()),
		", func(_gte any) bool { _gtv, _gtok := _gte.("+t+"); if _gtok { *(")
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

// assertedValue returns what the function that assertFunc generates
// returns for _gtx, a value of the cell's type whose source is src that
// it asserted to iface: for a struct type and a compiled interface with
// methods (error, fmt.Stringer), _gtx converted as convTo converts it
// (an error made by cellrt.Fmt, the interpreter's wrapper rewrapped).
// yaegi's own conversion of a struct to a compiled interface puts the
// struct's last field in its wrapper in place of the struct: after err
// := r.(error) of a recovered E{...}, errors.As(err, &e) and err.(E)
// were false. Else _gtx.
func (g *gen) assertedValue(src string, iface types.Type) string {
	named, ok := types.Unalias(iface).(*types.Named)
	if !ok || isCellType(iface) {
		return "_gtx"
	}
	if it, ok := named.Underlying().(*types.Interface); !ok || it.NumMethods() == 0 {
		return "_gtx"
	}
	for _, tn := range g.cellTypeNames() {
		n := tn.Type().(*types.Named)
		if _, isStruct := n.Underlying().(*types.Struct); !isStruct {
			continue
		}
		if ts, ok := g.typeSrc(n); !ok || ts != src {
			continue
		}
		if types.Identical(iface, errorIface) {
			return rtName + ".Named(" + fmtCall("_gtx", "_gtx", displayMethods(n)) + ", " + strconv.Quote(cellTypeStr(src)) + ").(error)"
		}
		is, ok := g.typeSrc(named)
		if !ok {
			return "_gtx"
		}
		return rtName + ".Rewrap(func() " + is + " { return _gtx }(), _gtx).(" + is + ")"
	}
	return "_gtx"
}
