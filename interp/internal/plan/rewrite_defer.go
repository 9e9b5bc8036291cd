package plan

import (
	"go/ast"
	"go/types"
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
