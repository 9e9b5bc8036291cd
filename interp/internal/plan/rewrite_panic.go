package plan

import (
	"go/ast"
)

// pendingName is the variable of a function that holds the panic of one
// of its deferred function literals (see deferPanics).
const pendingName = "_gtpanic"

// deferPanics makes a panic raised by a deferred function literal reach
// the function's earlier deferred calls, as in Go, where it replaces the
// panic under way (if any) and a deferred call made before it may
// recover it:
//
//	defer func() { err = fmt.Errorf("%v", recover()) }()
//	defer func() { panic("second") }()
//
// yaegi runs a function's deferred calls in a loop that such a panic
// ends: the earlier ones did not run, and the cell ended with the panic.
// In a function with a deferred literal that calls recover and another
// deferred call, each deferred literal recovers its own panic into a
// variable of the function, _gtpanic; recover in a deferred literal
// gives that panic when there is one (see pendingRecover); and a call
// deferred first panics again with one that none recovered.
func (g *gen) deferPanics(body *ast.BlockStmt) {
	var lits []*ast.FuncLit
	defers := 0
	recovers := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			defers++
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
				lits = append(lits, lit)
				recovers = recovers || callsRecover(lit.Body)
			}
		}
		return true
	})
	if !recovers || defers < 2 {
		return
	}
	g.ed.insert(g.off(body.Lbrace)+1, " var "+pendingName+" any; defer func() { if "+pendingName+" != nil { panic("+pendingName+") } }();")
	for _, lit := range lits {
		g.ed.insert(g.off(lit.Body.Lbrace)+1, " defer func() { if _gtr := "+rtName+".Recovered(recover()); _gtr != nil { "+pendingName+" = _gtr } }();")
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "recover" && len(n.Args) == 0 {
					if g.pendingRecover == nil {
						g.pendingRecover = map[*ast.CallExpr]bool{}
					}
					g.pendingRecover[n] = true
				}
			}
			return true
		})
	}
}
