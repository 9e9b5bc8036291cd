package plan

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// deferValues evaluates a deferred call's arguments into variables of
// their own, declared in a block around the statement, where Go
// evaluates them:
//
//	defer t.note(fmt.Sprint("step", i))  →  { _gtdv1 := fmt.Sprint("step", i); defer t.note(_gtdv1) }
//
// yaegi keeps, for each argument, the place where the interpreter put
// its value: the result of a call, an operation or a conversion is
// written there again when the statement runs again (in a loop, every
// deferred call saw the last iteration's argument), and a field, an
// element or a dereferenced pointer is read when the call runs. A
// variable defined at the statement is a new one each time it runs.
// Constants, nil, names (see deferArgs), function literals and
// arguments written over several lines are left as they are. It runs
// once the statement's own rewrites are made (see walk): the argument's
// text moves with them.
func (g *gen) deferValues(d *ast.DeferStmt) {
	info := g.c.info
	call := d.Call
	var decls []string
	for _, a := range call.Args {
		tv := info.Types[a]
		if tv.Value != nil || tv.IsNil() || tv.Type == nil {
			continue
		}
		if _, tuple := tv.Type.(*types.Tuple); tuple {
			return // f(g()) with several results
		}
		switch ast.Unparen(a).(type) {
		case *ast.Ident, *ast.FuncLit:
			continue
		}
		pos, end := g.off(a.Pos()), g.off(a.End())
		if strings.Contains(g.c.text[pos:end], "\n") {
			continue
		}
		name := g.fresh("_gtdv")
		decls = append(decls, name+" := ("+g.ed.take(g.c.text, pos, end, name)+"); ")
	}
	if len(decls) == 0 {
		return
	}
	g.ed.insert(g.off(d.Pos()), "{ "+strings.Join(decls, ""))
	g.ed.insertClosing(g.off(d.End()), " }")
}

// deferDirect makes a deferred call of a cell's function that calls
// recover call its declared function, not the variable that holds it
// (see bodyOf): yaegi's recover does not stop a panic in a function that
// a deferred call reached through a variable, so defer handle() did not
// recover. A later cell that declares the function again does not
// reach such a deferred call.
func (g *gen) deferDirect(call *ast.CallExpr) {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return
	}
	if v, ok := g.c.info.Uses[id].(*types.Var); ok {
		g.deferredClosure(call, v)
		return
	}
	fn, ok := g.c.info.Uses[id].(*types.Func)
	if !ok || !interpretedCell(fn.Pkg()) {
		return
	}
	recovers := g.s.recovers[fn]
	for fd := range g.bodies {
		if g.c.info.Defs[fd.Name] == fn {
			recovers = callsRecover(fd.Body)
		}
	}
	if body := g.bodyOf(fn); recovers && body != "" {
		g.ed.replace(g.off(id.Pos()), g.off(id.End()), body)
		g.direct = append(g.direct, id)
	}
}

// deferArgs gives a deferred call the values its arguments' variables
// have at the defer statement, as Go evaluates the arguments there:
// yaegi reads them when the call runs, so x := 1; defer fmt.Println(x);
// x = 2 printed 2, and a deferred call in a for loop saw the loop
// variable's last value. A local variable that the arguments read by
// name (not its address, a field or a method of it), and that the
// function assigns after the statement or in a loop around it, is
// copied into a variable of the same name in a block around the
// statement: { x := x; defer fmt.Println(x) }; so is the receiver of a
// deferred method, unless the method takes its address.
func (g *gen) deferArgs(d *ast.DeferStmt, stack []ast.Node) {
	// Each function body is walked on its own (see walkFunc): the
	// stack's first node is the body of the function d is in.
	if len(stack) == 0 {
		return
	}
	body := stack[0]
	var loops []ast.Node
	for _, n := range stack {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			loops = append(loops, n)
		}
	}
	info := g.c.info
	cands := map[*types.Var]bool{}
	skip := map[*types.Var]bool{}
	for _, a := range d.Call.Args {
		var parents []ast.Node
		ast.Inspect(a, func(n ast.Node) bool {
			if n == nil {
				parents = parents[:len(parents)-1]
				return true
			}
			if _, lit := n.(*ast.FuncLit); lit {
				return false
			}
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok && !v.IsField() && v.Pos() > body.Pos() && v.Pos() < body.End() {
					cands[v] = true
					if len(parents) > 0 {
						switch p := parents[len(parents)-1].(type) {
						case *ast.UnaryExpr:
							skip[v] = skip[v] || p.Op == token.AND
						case *ast.SelectorExpr:
							skip[v] = skip[v] || p.X == ast.Expr(id)
						}
					}
				}
			}
			parents = append(parents, n)
			return true
		})
	}
	// The receiver of a method: Go evaluates it at the statement too (f
	// of defer f.Close(), before f = other), but a method with a pointer
	// receiver called on a variable takes the variable's address
	// (defer wg.Done()), which a copy would not be.
	if sel, ok := ast.Unparen(d.Call.Fun).(*ast.SelectorExpr); ok {
		id, isIdent := ast.Unparen(sel.X).(*ast.Ident)
		s, isMethod := info.Selections[sel]
		if isIdent && isMethod && s.Kind() == types.MethodVal {
			if v, ok := info.Uses[id].(*types.Var); ok && !v.IsField() && v.Pos() > body.Pos() && v.Pos() < body.End() {
				_, ptrRecv := s.Obj().Type().(*types.Signature).Recv().Type().(*types.Pointer)
				switch v.Type().Underlying().(type) {
				case *types.Pointer, *types.Interface, *types.Map, *types.Chan, *types.Signature:
					cands[v] = true
				default:
					if ptrRecv {
						skip[v] = true
					} else {
						cands[v] = true
					}
				}
			}
		}
	}
	var names []string
	for v := range cands {
		if skip[v] || !g.assignedLater(body, v, d, loops) {
			continue
		}
		names = append(names, v.Name())
	}
	if len(names) == 0 {
		return
	}
	sort.Strings(names)
	list := strings.Join(names, ", ")
	g.ed.insert(g.off(d.Pos()), "{ "+list+" := "+list+"; ")
	g.ed.insertClosing(g.off(d.End()), " }")
}

// assignedLater reports whether body assigns v after d, or inside one of
// loops (the loops around d).
func (g *gen) assignedLater(body ast.Node, v *types.Var, d *ast.DeferStmt, loops []ast.Node) bool {
	found := false
	for _, l := range loops {
		// A range loop's own variables: the interpreter assigns them at
		// each iteration.
		if r, ok := l.(*ast.RangeStmt); ok && r.Tok == token.DEFINE {
			for _, e := range []ast.Expr{r.Key, r.Value} {
				if id, ok := e.(*ast.Ident); ok && g.c.info.Defs[id] == v {
					return true
				}
			}
		}
	}
	_, value := v.Type().Underlying().(*types.Struct)
	if _, ok := v.Type().Underlying().(*types.Array); ok {
		value = true
	}
	assigned := func(e ast.Expr, at token.Pos) {
		e = ast.Unparen(e)
		for value {
			// A field or element of a struct or array variable.
			switch x := e.(type) {
			case *ast.SelectorExpr:
				e = ast.Unparen(x.X)
				continue
			case *ast.IndexExpr:
				e = ast.Unparen(x.X)
				continue
			}
			break
		}
		id, ok := e.(*ast.Ident)
		if !ok || g.c.info.Uses[id] != v {
			return
		}
		if at > d.End() {
			found = true
		}
		for _, l := range loops {
			if at > l.Pos() && at < l.End() {
				found = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				assigned(l, n.Pos())
			}
		case *ast.IncDecStmt:
			assigned(n.X, n.Pos())
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				assigned(n.Key, n.Pos())
				if n.Value != nil {
					assigned(n.Value, n.Pos())
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				assigned(n.X, n.Pos()) // &v may change it
			}
		case *ast.CallExpr:
			// v.M() of a method with a pointer receiver takes &v.
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				if s, ok := g.c.info.Selections[sel]; ok && s.Kind() == types.MethodVal {
					if _, ptr := s.Obj().Type().(*types.Signature).Recv().Type().(*types.Pointer); ptr {
						if _, isPtr := s.Recv().Underlying().(*types.Pointer); !isPtr {
							assigned(sel.X, n.Pos())
						}
					}
				}
			}
		}
		return !found
	})
	return found
}

// deferredClosure refuses a deferred call of v, a variable that holds a
// function literal that sets a named result of a function: yaegi holds
// the lock of the function's frame while its deferred calls run, and
// such a literal waits for it, so the call never returned (err :=
// ...; wrap := func() { err = fmt.Errorf("f: %w", err) }; defer wrap()).
// A function literal written in the defer statement is right.
func (g *gen) deferredClosure(call *ast.CallExpr, v *types.Var) {
	if _, isFunc := v.Type().Underlying().(*types.Signature); !isFunc {
		return
	}
	results := map[types.Object]bool{}
	ast.Inspect(g.c.file, func(n ast.Node) bool {
		var ft *ast.FuncType
		switch n := n.(type) {
		case *ast.FuncDecl:
			ft = n.Type
		case *ast.FuncLit:
			ft = n.Type
		}
		if ft != nil && ft.Results != nil {
			for _, f := range ft.Results.List {
				for _, name := range f.Names {
					if obj := g.c.info.Defs[name]; obj != nil {
						results[obj] = true
					}
				}
			}
		}
		return true
	})
	if len(results) == 0 {
		return
	}
	set := ""
	ast.Inspect(g.c.file, func(n ast.Node) bool {
		lit := assignedLit(g.c.info, n, v)
		if lit == nil || set != "" {
			return set == ""
		}
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			var lhs []ast.Expr
			switch n := n.(type) {
			case *ast.AssignStmt:
				lhs = n.Lhs
			case *ast.IncDecStmt:
				lhs = []ast.Expr{n.X}
			}
			for _, l := range lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && results[g.c.info.Uses[id]] {
					set = id.Name
				}
			}
			return set == ""
		})
		return set == ""
	})
	if set != "" {
		g.errorf(call.Pos(), "defer %s(...) of a function literal that sets the named result %s: the interpreter would wait forever for the function's frame, which it holds while the deferred calls run; write the function literal in the defer statement (defer func() { ... }())", v.Name(), set)
	}
}

// assignedLit returns the function literal that n, an assignment or
// var declaration, gives v, or nil.
func assignedLit(info *types.Info, n ast.Node, v *types.Var) *ast.FuncLit {
	var lhs, rhs []ast.Expr
	switch n := n.(type) {
	case *ast.AssignStmt:
		lhs, rhs = n.Lhs, n.Rhs
	case *ast.ValueSpec:
		for _, name := range n.Names {
			lhs = append(lhs, name)
		}
		rhs = n.Values
	default:
		return nil
	}
	if len(lhs) != len(rhs) {
		return nil
	}
	for i, l := range lhs {
		id, ok := ast.Unparen(l).(*ast.Ident)
		if !ok || info.Defs[id] != v && info.Uses[id] != v {
			continue
		}
		if lit, ok := ast.Unparen(rhs[i]).(*ast.FuncLit); ok {
			return lit
		}
	}
	return nil
}

// callsRecover reports whether body calls recover itself (not in a
// function literal).
func callsRecover(body *ast.BlockStmt) bool {
	found := false
	if body == nil {
		return false
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "recover" {
				found = true
			}
		}
		return !found
	})
	return found
}
