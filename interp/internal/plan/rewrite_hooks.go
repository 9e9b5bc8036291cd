package plan

import (
	"go/ast"
	"go/types"
	"strings"
)

// hooks are the functions that end the process or the goroutine, which a
// cell must not, and errors.Is, which compiled code cannot do on a cell's
// errors: generated code calls the session's runtime instead.
var hooks = map[string]string{
	"os.Exit":        rtName + ".Exit",
	"syscall.Exit":   rtName + ".Exit",
	"runtime.Goexit": rtName + ".Goexit",
	"errors.Is":      rtName + ".ErrorsIs",
}

// hook replaces a reference to os.Exit, runtime.Goexit or errors.Is (the
// expression n, whose object is named by id) with the runtime's.
func (g *gen) hook(n ast.Expr, id *ast.Ident) bool {
	fn, ok := g.c.info.Uses[id].(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	key := fn.Pkg().Path() + "." + fn.Name()
	if h, ok := hooks[key]; ok {
		g.ed.replace(g.off(n.Pos()), g.off(n.End()), h)
		return true
	}
	switch key {
	case "log.Fatal", "log.Fatalln", "log.Fatalf":
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		g.fatal(sel, key)
		return true
	}
	return false
}

// fatal rewrites log.Fatal(...) and l.Fatal(...) into a call of the
// runtime that prints with log's Print and ends the cell.
func (g *gen) fatal(sel *ast.SelectorExpr, key string) {
	print := strings.Replace(strings.TrimPrefix(key[strings.LastIndex(key, "."):], "."), "Fatal", "Print", 1)
	wrap := rtName + ".Fatal("
	if strings.HasSuffix(key, "f") {
		wrap = rtName + ".Fatalf("
	}
	if _, method := g.c.info.Selections[sel]; method {
		// yaegi cannot pass a compiled method value (l.Print) as a
		// function: a literal calls it.
		if strings.HasSuffix(key, "f") {
			g.ed.insert(g.off(sel.Pos()), wrap+"func(_gtf string, _gtv ...any) { ")
			g.ed.replace(g.off(sel.Sel.Pos()), g.off(sel.Sel.End()), print+"(_gtf, _gtv...) })")
		} else {
			g.ed.insert(g.off(sel.Pos()), wrap+"func(_gtv ...any) { ")
			g.ed.replace(g.off(sel.Sel.Pos()), g.off(sel.Sel.End()), print+"(_gtv...) })")
		}
		return
	}
	g.ed.insert(g.off(sel.Pos()), wrap)
	g.ed.replace(g.off(sel.Sel.Pos()), g.off(sel.Sel.End()), print+")")
}
