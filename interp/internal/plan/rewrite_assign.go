package plan

import (
	"go/ast"
	"go/token"
	"go/types"
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
	g.callValues(targets, n.Rhs)
}

// callValues makes the values of a parallel assignment to variables of
// the types targets the results of a call, as parallelAssign says, when
// yaegi needs it.
func (g *gen) callValues(targets []types.Type, values []ast.Expr) {
	need := false
	results := make([]string, len(targets))
	for i, t := range targets {
		r := g.c.info.Types[values[i]]
		if t == nil || r.Type == nil || types.Identical(t, types.Typ[types.UntypedNil]) {
			return
		}
		if isEmptyInterface(r.Type) || r.IsNil() && types.IsInterface(t) ||
			types.IsInterface(t) && !types.IsInterface(r.Type) && isCellType(r.Type) {
			need = true
		}
		src, ok := g.typeSrc(t)
		if !ok {
			return
		}
		results[i] = src
	}
	if !need {
		return
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
