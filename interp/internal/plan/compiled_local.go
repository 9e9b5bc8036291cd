package plan

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// Top-level variables in registers.
//
// The statements' top-level variables are the package's variables, so
// that later cells see them: a loop at the cell's top level that adds to
// one (s += i % 7) would load and store memory at every iteration, about
// twice the time of the same loop on a local. So a top-level loop that
// cannot panic (see cannotPanic) works on local copies of the top-level
// variables it uses, the cell's and earlier cells' (a notebook runs
// s := 0 and its loop again: s is then an earlier cell's), which it
// writes back when it ends and at the stop check, where it loads them
// again once the session has acted (a widget's callback may have changed
// them): whatever happens, the session sees each variable's last value.
// Variables that a function or closure of the cell uses, or whose address
// the cell takes, stay in memory.

// localPrefix starts the name of a top-level variable's local copy.
const localPrefix = "ꞏl_"

// localize gives the top-level loops of the statements that cannot panic
// local copies of the top-level variables they use.
func (g *cgen) localize(body *ast.BlockStmt) {
	excluded := g.sharedTopVars(body)
	for _, st := range body.List {
		switch st.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
		default:
			continue // a labeled loop may be a goto's target
		}
		if !g.cannotPanic(st) {
			continue
		}
		vars := map[*types.Var]*ast.Ident{}
		var idents []*ast.Ident
		ast.Inspect(st, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v := g.loopVar(g.c.info.Uses[id]); v != nil && !excluded[v] {
					vars[v] = id
					idents = append(idents, id)
				}
			}
			return true
		})
		if len(vars) == 0 {
			continue
		}
		var names []string
		where := map[string]string{} // a variable's name → how the file reaches it
		for v, id := range vars {
			names = append(names, v.Name())
			where[v.Name()] = g.spell(v, id.Pos())
		}
		sort.Strings(names)
		var in, back, reload []string
		for _, n := range names {
			in = append(in, localPrefix+n+" := "+where[n])
			back = append(back, where[n]+" = "+localPrefix+n)
			reload = append(reload, localPrefix+n+" = "+where[n])
		}
		for _, id := range idents {
			g.local[id] = localPrefix + id.Name
		}
		wb := strings.Join(back, "; ")
		// At the stop check: write back, let the session act (an
		// interrupt ends the cell there; a widget's callback may change
		// the variables), and load them again.
		check := wb + "; " + cHooks + ".Stop(); " + strings.Join(reload, "; ")
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ForStmt:
				g.writeBack[n.Body] = check
			case *ast.RangeStmt:
				g.writeBack[n.Body] = check
			}
			return true
		})
		g.ed.insert(g.off(st.Pos()), "{ "+strings.Join(in, "; ")+"; ")
		g.ed.insertClosing(g.off(st.End()), "; "+wb+" }")
	}
}

// loopVar returns the variable obj when it is one a top-level loop may
// keep in a local: a top-level variable of the statements, or a variable
// of an earlier cell, compiled or interpreted.
func (g *cgen) loopVar(obj types.Object) *types.Var {
	if v := g.topVar(obj); v != nil {
		return v
	}
	if v, ok := obj.(*types.Var); ok {
		if isEarlier, _ := g.earlier(v); isEarlier {
			return v
		}
	}
	return nil
}

// sharedTopVars returns the top-level variables that code other than the
// statements' top level may reach: the cell's functions and closures, or
// a pointer (&x, a method with a pointer receiver, a slice of an array).
func (g *cgen) sharedTopVars(body *ast.BlockStmt) map[*types.Var]bool {
	shared := map[*types.Var]bool{}
	mark := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if v := g.loopVar(g.c.info.Uses[id]); v != nil {
				shared[v] = true
			}
		}
	}
	for _, d := range g.c.file.Decls {
		if d == ast.Decl(g.c.body) {
			continue
		}
		ast.Inspect(d, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v := g.loopVar(g.c.info.Uses[id]); v != nil {
					shared[v] = true
				}
			}
			return true
		})
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			ast.Inspect(n, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok {
					if v := g.loopVar(g.c.info.Uses[id]); v != nil {
						shared[v] = true
					}
				}
				return true
			})
			return false
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				mark(n.X)
			}
		case *ast.SliceExpr:
			mark(n.X)
		case *ast.SelectorExpr:
			if s, ok := g.c.info.Selections[n]; ok && s.Kind() == types.MethodVal {
				if sig, ok := s.Obj().Type().(*types.Signature); ok && sig.Recv() != nil {
					if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
						mark(n.X)
					}
				}
			}
		}
		return true
	})
	return shared
}

// cannotPanic reports whether a statement can neither panic nor leave the
// cell's function other than by its end: arithmetic on variables, with
// division by constants and shifts by constants or unsigned counts,
// conversions, the builtins that cannot fail and package math's
// functions, and no return, goto, send, receive, index, dereference or
// function literal.
func (g *cgen) cannotPanic(st ast.Stmt) bool {
	ok := true
	info := g.c.info
	ast.Inspect(st, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			tv := info.Types[n.Fun]
			switch {
			case tv.IsType():
				// A conversion: none panics but to a slice-to-array
				// pointer or array.
				if _, isPtr := tv.Type.Underlying().(*types.Pointer); isPtr {
					ok = false
				}
				if _, isArr := tv.Type.Underlying().(*types.Array); isArr {
					ok = false
				}
			case tv.IsBuiltin():
				id, _ := ast.Unparen(n.Fun).(*ast.Ident)
				switch id.Name {
				case "len", "cap", "min", "max", "real", "imag", "complex":
				default:
					ok = false
				}
			default:
				f, isSel := ast.Unparen(n.Fun).(*ast.SelectorExpr)
				if !isSel {
					ok = false
					break
				}
				fn, _ := info.Uses[f.Sel].(*types.Func)
				ok = fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "math" && fn.Type().(*types.Signature).Recv() == nil
			}
		case *ast.IndexExpr, *ast.IndexListExpr, *ast.SliceExpr, *ast.StarExpr, *ast.TypeAssertExpr,
			*ast.FuncLit, *ast.CompositeLit, *ast.ReturnStmt, *ast.SendStmt, *ast.GoStmt, *ast.DeferStmt,
			*ast.SelectStmt, *ast.LabeledStmt:
			ok = false
		case *ast.BranchStmt:
			ok = n.Tok != token.GOTO
		case *ast.UnaryExpr:
			ok = n.Op != token.AND && n.Op != token.ARROW
		case *ast.SelectorExpr:
			if s, isSel := info.Selections[n]; isSel && (s.Indirect() || s.Kind() != types.FieldVal) {
				ok = false
			}
		case *ast.BinaryExpr:
			switch n.Op {
			case token.QUO, token.REM:
				if b, isBasic := info.Types[n].Type.Underlying().(*types.Basic); isBasic && b.Info()&types.IsInteger != 0 {
					if v := info.Types[n.Y].Value; v == nil {
						ok = false // a division by zero, or of the minimum by -1
					}
				}
			case token.SHL, token.SHR:
				if info.Types[n.Y].Value == nil {
					if b, isBasic := info.Types[n.Y].Type.Underlying().(*types.Basic); !isBasic || b.Info()&types.IsUnsigned == 0 {
						ok = false // a negative count
					}
				}
			}
		case *ast.RangeStmt:
			switch info.Types[n.X].Type.Underlying().(type) {
			case *types.Signature, *types.Chan, *types.Pointer:
				ok = false
			}
		}
		return ok
	})
	return ok
}
