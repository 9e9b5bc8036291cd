package plan

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// parallelAssign rewrites an assignment of several values, one of which
// has an empty interface type, is nil for an interface or is a cell
// type's value made into an interface (var p, q error = &E{1}, &E{2}),
// into an assignment of one call's results:
//
//	a, b = x, y  →  a, b = func() (any, any) { var _gtp0 any = x; var _gtp1 any = y; return _gtp0, _gtp1 }()
//
// yaegi panics on the parallel form ("reflect.Set: value of type
// interface {} is not assignable to type interp.valueInterface", or
// "reflect: New(nil)") and gets the call's form right (with convAny's
// conversions, as for a return); the values go through variables, as
// its return of several receives panics (values over several lines are
// returned as they are). The values are
// evaluated before any variable is assigned, as in Go. A definition at
// the cell's top level is such an assignment too (see topLevel); one
// inside a function yaegi gets right.
func (g *gen) parallelAssign(n *ast.AssignStmt, fc *fnCtx, stack []ast.Node) {
	if len(n.Lhs) < 2 || len(n.Lhs) != len(n.Rhs) {
		return
	}
	switch n.Tok {
	case token.ASSIGN:
	case token.DEFINE:
		if !fc.cellBody || g.c.body == nil || len(stack) == 0 || stack[len(stack)-1] != g.c.body.Body {
			return
		}
	default:
		return
	}
	targets := make([]types.Type, len(n.Lhs))
	for i, l := range n.Lhs {
		targets[i] = g.assignedType(l, n.Tok)
		if targets[i] == nil && isBlank(l) {
			targets[i] = types.Default(g.c.info.Types[n.Rhs[i]].Type)
		}
	}
	if g.callValues(targets, n.Rhs) {
		if g.called == nil {
			g.called = map[*ast.AssignStmt]bool{}
		}
		g.called[n] = true
	}
}

// callValues makes the values of a parallel assignment to variables of
// the types targets the results of a call, as parallelAssign says, when
// yaegi needs it; it reports whether it did.
func (g *gen) callValues(targets []types.Type, values []ast.Expr) bool {
	need := false
	results := make([]string, len(targets))
	for i, t := range targets {
		r := g.c.info.Types[values[i]]
		if t == nil || r.Type == nil || types.Identical(t, types.Typ[types.UntypedNil]) {
			return false
		}
		if isEmptyInterface(r.Type) || r.IsNil() && types.IsInterface(t) ||
			types.IsInterface(t) && !types.IsInterface(r.Type) && isCellType(r.Type) {
			need = true
		}
		src, ok := g.typeSrc(t)
		if !ok {
			return false
		}
		results[i] = src
	}
	if !need {
		return false
	}
	first, last := g.c.fset.Position(values[0].Pos()), g.c.fset.Position(values[len(values)-1].End())
	if first.Line != last.Line {
		g.ed.insert(g.off(values[0].Pos()), "func() ("+strings.Join(results, ", ")+") { return ")
		g.ed.insertClosing(g.off(values[len(values)-1].End()), " }()")
	} else {
		// Each value in a variable of its own: yaegi's return of
		// several receives (return <-ch, <-ch) panics in reflect.Set.
		names := make([]string, len(values))
		for i, v := range values {
			names[i] = "_gtp" + strconv.Itoa(i)
			open := "var " + names[i] + " " + results[i] + " = "
			if i == 0 {
				open = "func() (" + strings.Join(results, ", ") + ") { " + open
			} else {
				g.ed.replace(g.off(values[i-1].End()), g.off(v.Pos()), "; ")
			}
			g.ed.insert(g.off(v.Pos()), open)
		}
		g.ed.insertClosing(g.off(values[len(values)-1].End()), "; return "+strings.Join(names, ", ")+" }()")
	}
	for i, v := range values {
		// The return would give an empty interface a cell type's bare
		// value.
		g.convAny(v, targets[i])
	}
	return true
}

// assignedType returns the type of the variable l that an assignment or
// definition with token tok assigns, or nil for the blank identifier.
func (g *gen) assignedType(l ast.Expr, tok token.Token) types.Type {
	info := g.c.info
	if id, ok := ast.Unparen(l).(*ast.Ident); ok {
		if isBlank(id) {
			return nil
		}
		if tok == token.DEFINE {
			if obj := info.Defs[id]; obj != nil {
				return obj.Type()
			}
		}
		if obj := info.Uses[id]; obj != nil {
			return obj.Type()
		}
	}
	return info.Types[l].Type
}

// isEmptyInterface reports whether t is an interface without methods
// (not a type parameter, which the instances of mono replace).
func isEmptyInterface(t types.Type) bool {
	if _, ok := t.(*types.TypeParam); ok {
		return false
	}
	i, ok := t.Underlying().(*types.Interface)
	return ok && i.Empty()
}

// storedAssign puts in parentheses a composite literal or a receive
// assigned to a variable where yaegi builds the value in the variable's
// place in the frame instead of storing it into the variable: a struct's
// literal or a receive assigned to it (p := &v; v = T{2}; v = <-ch; a
// pointer taken before, or a closure that shares the variable through
// one, see bindLoopVars, kept the old value), and an array's, a slice's
// or a map's literal or a receive that defines it (a := [1]int{i} in a
// loop: the variable of every iteration was one). In parentheses, the
// value is stored. A definition at the cell's top level is an
// assignment (see topLevel).
func (g *gen) storedAssign(n *ast.AssignStmt, fc *fnCtx, stack []ast.Node) {
	define := false
	switch n.Tok {
	case token.ASSIGN:
	case token.DEFINE:
		define = !g.atCellTop(fc, stack)
	default:
		return
	}
	if len(n.Lhs) != len(n.Rhs) {
		return
	}
	if len(stack) > 0 {
		if cc, ok := stack[len(stack)-1].(*ast.CommClause); ok && cc.Comm == ast.Stmt(n) {
			// A select's case: in parentheses, yaegi would take the
			// receive for an expression the case evaluates, which
			// blocks, not for the case's communication.
			return
		}
	}
	for i, r := range n.Rhs {
		if id, ok := n.Lhs[i].(*ast.Ident); ok && id.Name != "_" {
			g.storedValue(id, r, define)
		}
	}
}

// storedDecl is storedAssign for a var declaration.
func (g *gen) storedDecl(st *ast.DeclStmt, fc *fnCtx, stack []ast.Node) {
	d, ok := st.Decl.(*ast.GenDecl)
	if !ok || d.Tok != token.VAR {
		return
	}
	for _, sp := range d.Specs {
		vs := sp.(*ast.ValueSpec)
		if len(vs.Names) != len(vs.Values) {
			continue
		}
		for i, v := range vs.Values {
			if vs.Names[i].Name != "_" {
				g.storedValue(vs.Names[i], v, !g.atCellTop(fc, stack))
			}
		}
	}
}

// atCellTop reports whether the statement whose parents are stack is at
// the top level of the cell's statements.
func (g *gen) atCellTop(fc *fnCtx, stack []ast.Node) bool {
	return fc.cellBody && g.c.body != nil && len(stack) > 0 && stack[len(stack)-1] == g.c.body.Body
}

// storedValue puts r, the value of an assignment to the variable v (or
// with define of a definition or var declaration), in parentheses where
// storedAssign says. A value made into an interface is stored.
func (g *gen) storedValue(v *ast.Ident, r ast.Expr, define bool) {
	obj := g.c.info.Defs[v]
	if obj == nil {
		obj = g.c.info.Uses[v]
	}
	if obj == nil {
		return
	}
	switch r := r.(type) {
	case *ast.CompositeLit:
		if types.IsInterface(obj.Type()) {
			return
		}
		_, isStruct := g.c.info.Types[r].Type.Underlying().(*types.Struct)
		if isStruct == define {
			return
		}
	case *ast.UnaryExpr:
		if r.Op != token.ARROW {
			return
		}
	default:
		return
	}
	g.ed.insert(g.off(r.Pos()), "(")
	g.ed.insertClosing(g.off(r.End()), ")")
}

// mapElemAssign rewrites an assignment of several values that one
// expression gives (a call, a comma-ok: m[k], ok = v.(string), other[k],
// <-ch), or that parallelAssign made the results of one call, to a map's
// element, into an assignment to variables of its own (defined, or
// declared for a comma-ok assertion or map index: see commaOkVars) and an
// assignment of each:
//
//	m[k], err = strconv.Atoi(s)  →  { _gtv1, _gtv2 := strconv.Atoi(s); m[k] = _gtv1; err = _gtv2 }
//
// yaegi does not store the element (a slice's element, a field or a
// variable it assigns). The operands of a target (a map and its key, or
// the target's address) that call functions or receive, or read a
// variable that the assignment writes before them, are evaluated first
// into variables of their own, where Go evaluates them: Go evaluates the
// calls and receives of the targets and then those of the values, and
// the targets' operands before it assigns from left to right; the go
// command's build reads a variable of a target after the values' calls
// (m[k], err = next() stores at the key that next leaves), as the
// rewritten assignment does. It runs once the statement's
// own rewrites are made (see walk): the targets' text moves with them.
// In a select's case (case m[k], ok = <-ch:) the variables are the
// case's and the assignments the clause's first statements; in the
// initial statement of an if, switch or for statement, the rewritten
// statement goes before it, in a block around it; in a for statement's
// post statement, and where a target is written over several lines, the
// cell is refused with what to write instead.
func (g *gen) mapElemAssign(n *ast.AssignStmt, stack []ast.Node) {
	if n.Tok != token.ASSIGN || len(n.Lhs) < 2 || len(n.Rhs) != 1 && !g.called[n] {
		return
	}
	if !slices.ContainsFunc(n.Lhs, g.isMapIndex) {
		return
	}
	line := func(x ast.Node) bool {
		return !strings.Contains(g.c.text[g.off(x.Pos()):g.off(x.End())], "\n")
	}
	const what = "an assignment of several values to a map's element"
	const instead = "assign the values to variables and then the element (v, ok := x; m[k] = v)"
	var outer ast.Node
	switch p := stackTop(stack).(type) {
	case *ast.ForStmt:
		if p.Post == ast.Stmt(n) {
			g.errorf(n.Pos(), "%s in a for statement's post statement: the interpreter would not store the element; at the end of the loop's body, %s", what, instead)
			return
		}
		outer = p // n is its initial statement
	case *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt:
		outer = p
	}
	// The targets, and an initial statement, move: edits hold no newline.
	if slices.ContainsFunc(n.Lhs, func(x ast.Expr) bool { return !line(x) }) || outer != nil && !line(n) {
		g.errorf(n.Pos(), "%s written over several lines: the interpreter would not store the element; write it on one line, or %s", what, instead)
		return
	}
	if cc, ok := stackTop(stack).(*ast.CommClause); ok && cc.Comm == ast.Stmt(n) {
		g.mapElemRecv(n, cc)
		return
	}
	// The targets' operands, where Go evaluates them.
	var hoist []string
	written := map[types.Object]bool{}
	first := func(x ast.Expr, def, use string) {
		hoist = append(hoist, def+g.ed.take(g.c.text, g.off(x.Pos()), g.off(x.End()), use)+"; ")
	}
	for _, l := range n.Lhs {
		l = ast.Unparen(l)
		switch {
		case g.isMapIndex(l):
			ix := l.(*ast.IndexExpr)
			for _, x := range []ast.Expr{ix.X, ix.Index} {
				if g.c.info.Types[x].Value == nil && g.dependsOn(x, written) {
					k := g.fresh("_gtk")
					first(x, k+" := ", k)
				}
			}
		case !isIdent(l) && g.dependsOn(l, written):
			p := g.fresh("_gtl")
			first(l, p+" := &", "(*"+p+")")
		}
		if id, ok := l.(*ast.Ident); ok {
			if obj := g.c.info.Uses[id]; obj != nil {
				written[obj] = true
			}
		}
	}
	// Each target moves after the values, which are assigned to
	// variables in its place.
	var names, stores []string
	for _, l := range n.Lhs {
		name := g.fresh("_gtv")
		names = append(names, name)
		stores = append(stores, g.ed.take(g.c.text, g.off(l.Pos()), g.off(l.End()), name)+" = "+name)
	}
	if decls, ok := g.commaOkVars(n.Rhs, names); ok {
		hoist = append(hoist, decls)
	} else {
		g.ed.replace(g.off(n.TokPos), g.off(n.TokPos)+1, ":=")
	}
	if outer == nil {
		g.ed.insert(g.off(n.Pos()), "{ "+strings.Join(hoist, ""))
		g.ed.insertOutside(g.off(n.End()), "; "+strings.Join(stores, "; ")+" }")
		return
	}
	g.ed.insertOutside(g.off(n.End()), "; "+strings.Join(stores, "; "))
	// Before the if, switch or for statement (and its labels), in a
	// block around it.
	start := outer.Pos()
	for i := len(stack) - 2; i >= 0; i-- {
		l, ok := stack[i].(*ast.LabeledStmt)
		if !ok {
			break
		}
		start = l.Pos()
	}
	stmt := g.ed.take(g.c.text, g.off(n.Pos()), g.off(n.End()), "")
	g.ed.insert(g.off(start), "{ "+strings.Join(hoist, "")+stmt+"; ")
	g.ed.insertClosing(g.off(outer.End()), " }")
}

// commaOkVars returns the declarations of variables named names of the
// types of a comma-ok type assertion's or map index's results, values,
// or false for other values or types generated code cannot spell. Such
// variables are declared, not defined by the assignment: a failed
// assertion or a missing key does not write yaegi's variable, which in a
// loop keeps the value an earlier iteration gave it where Go gives the
// zero value; a declaration gives it the zero value.
func (g *gen) commaOkVars(values []ast.Expr, names []string) (string, bool) {
	if len(values) != 1 {
		return "", false
	}
	switch x := ast.Unparen(values[0]).(type) {
	case *ast.TypeAssertExpr:
	case *ast.IndexExpr:
		if !g.isMapIndex(x) {
			return "", false
		}
	default:
		return "", false
	}
	tuple, ok := g.c.info.TypeOf(values[0]).(*types.Tuple)
	if !ok || tuple.Len() != len(names) {
		return "", false
	}
	var b strings.Builder
	for i, name := range names {
		t, ok := g.typeSrc(tuple.At(i).Type())
		if !ok {
			return "", false
		}
		b.WriteString("var " + name + " " + t + "; ")
	}
	return b.String(), true
}

// mapElemRecv is mapElemAssign for a select's case: the case defines the
// variables, and its clause's first statements assign them.
func (g *gen) mapElemRecv(n *ast.AssignStmt, cc *ast.CommClause) {
	var stores []string
	for _, l := range n.Lhs {
		name := g.fresh("_gtv")
		stores = append(stores, g.ed.take(g.c.text, g.off(l.Pos()), g.off(l.End()), name)+" = "+name+"; ")
	}
	g.ed.replace(g.off(n.TokPos), g.off(n.TokPos)+1, ":=")
	g.ed.insert(g.off(cc.Colon)+1, " "+strings.Join(stores, ""))
}

// isMapIndex reports whether x is an element of a map.
func (g *gen) isMapIndex(x ast.Expr) bool {
	ix, ok := ast.Unparen(x).(*ast.IndexExpr)
	if !ok {
		return false
	}
	t := g.c.info.TypeOf(ix.X)
	if t == nil {
		return false
	}
	_, ok = t.Underlying().(*types.Map)
	return ok
}

// isIdent reports whether x is an identifier.
func isIdent(x ast.Expr) bool {
	_, ok := x.(*ast.Ident)
	return ok
}

// dependsOn reports whether evaluating x calls a function, receives, or
// reads one of the variables vars.
func (g *gen) dependsOn(x ast.Expr, vars map[types.Object]bool) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			tv := g.c.info.Types[n.Fun]
			found = found || !tv.IsType()
		case *ast.UnaryExpr:
			found = found || n.Op == token.ARROW
		case *ast.Ident:
			found = found || vars[g.c.info.Uses[n]]
		}
		return !found
	})
	return found
}
