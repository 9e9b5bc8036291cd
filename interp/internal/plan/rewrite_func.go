package plan

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"
)

// walkFunc rewrites a function: its body counts its depth (when it calls
// interpreted code: a function that calls none cannot recurse) and checks
// the interrupt flag on entry.
func (g *gen) walkFunc(name string, ft *ast.FuncType, body *ast.BlockStmt) {
	g.walk(ft, &fnCtx{})
	if body == nil {
		return
	}
	fc := &fnCtx{name: name, results: ft.Results}
	// main and init run once, from the plan: they need no count, and a
	// prologue there would meet a yaegi bug that their pasted programs
	// do not meet without it.
	once := name == "main" || name == "init"
	// A function literal in a package-level variable's initializer does
	// not count its depth: yaegi refuses an initializer that refers to a
	// variable of an earlier compilation ("variable definition loop"),
	// even inside a literal.
	if !g.s.cfg.NoDepthCheck && !g.noDepth && !once && !g.initializer && g.callsInterpreted(body) {
		enter := fmt.Sprintf("%s++; if %s > %s { %s.Enter(%s) };", depthName, depthName, limitName, rtName, strconv.Quote(name))
		if hasDefer(body) {
			fc.reset = true
			g.ed.insert(g.off(body.Lbrace)+1, fmt.Sprintf(" _gtd := %s; %s defer func() { %s = _gtd }();", depthName, enter, depthName))
		} else {
			fc.depth = true
			g.ed.insert(g.off(body.Lbrace)+1, " "+enter)
			if ft.Results == nil || len(ft.Results.List) == 0 {
				g.ed.insert(g.off(body.Rbrace), "; "+depthName+"--; ")
			}
		}
	}
	g.deferPanics(body)
	g.walk(body, fc)
}

// hasDefer reports whether a function body defers a call (its own, not a
// nested function literal's).
func hasDefer(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			found = true
		}
		return !found
	})
	return found
}

// callsInterpreted reports whether a function body calls interpreted
// code: a function or method declared in a cell, a function value, an
// interface method.
func (g *gen) callsInterpreted(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if g.interpretedCall(n) {
				found = true
			}
		}
		return !found
	})
	return found
}

// interpretedCall reports whether call may call interpreted code.
func (g *gen) interpretedCall(call *ast.CallExpr) bool {
	info := g.c.info
	tv := info.Types[call.Fun]
	if tv.IsType() || tv.IsBuiltin() {
		return false
	}
	compiled := func(obj types.Object) bool {
		fn, ok := obj.(*types.Func)
		return ok && fn.Pkg() != nil && !interpretedCell(fn.Pkg()) && !instantiated(fn)
	}
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return !compiled(info.Uses[f])
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[f]; ok {
			return sel.Kind() != types.MethodVal || types.IsInterface(sel.Recv()) || !compiled(sel.Obj())
		}
		return !compiled(info.Uses[f.Sel])
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return true
}
