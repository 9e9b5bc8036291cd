package plan

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"
)

// goStmt makes a goroutine belong to the session (GoStart: its outputs
// and interrupt are the session's, see cellrt.Runtime.OnGoStart) and
// report its panic instead of killing the process: "go f(a, b)" becomes
//
//	go func(_gtf F, _gta0 A, _gta1 B) { defer <start>; defer <report>; _gtf(_gta0, _gta1) }(f, a, b)
//
// which evaluates f and its arguments where the go statement is, as Go
// does.
func (g *gen) goStmt(st *ast.GoStmt) {
	call := st.Call
	report := "defer " + rtName + ".GoStart()(); defer func() { if _gtr := recover(); _gtr != nil { " + rtName + ".GoPanic(_gtr) } }();"
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
		g.ed.insert(g.off(lit.Body.Lbrace)+1, " "+report)
		return
	}
	tv := g.c.info.Types[call.Fun]
	sig, ok := tv.Type.(*types.Signature)
	if !ok || tv.IsBuiltin() || tv.IsType() {
		return
	}
	f, ok := g.typeSrc(sig)
	if !ok {
		return
	}
	params := []string{"_gtf " + f}
	var args []string
	for i := 0; i < sig.Params().Len(); i++ {
		t, ok := g.typeSrc(sig.Params().At(i).Type())
		if !ok {
			return
		}
		name := "_gta" + strconv.Itoa(i)
		params = append(params, name+" "+t)
		args = append(args, name)
	}
	inner := "_gtf(" + strings.Join(args, ", ")
	if sig.Variadic() {
		if call.Ellipsis.IsValid() {
			inner += "..."
		} else {
			// The variadic arguments, gathered into their slice.
			n := sig.Params().Len() - 1
			last := sig.Params().At(n).Type()
			ts, _ := g.typeSrc(last)
			if len(call.Args) > n {
				g.ed.insert(g.off(call.Args[n].Pos()), ts+"{")
				g.ed.insertClosing(g.off(call.Args[len(call.Args)-1].End()), "}")
			} else {
				g.ed.insert(g.off(call.Rparen), ", "+ts+"(nil)")
			}
			inner += "..."
		}
	}
	inner += ")"
	g.ed.insert(g.off(call.Fun.Pos()), "func("+strings.Join(params, ", ")+") { "+report+" "+inner+" }(")
	sep := ""
	if len(call.Args) > 0 || sig.Variadic() && !call.Ellipsis.IsValid() {
		sep = ", "
	}
	g.ed.replace(g.off(call.Lparen), g.off(call.Lparen)+1, sep)
	if call.Ellipsis.IsValid() {
		g.ed.replace(g.off(call.Ellipsis), g.off(call.Ellipsis)+3, "")
	}
}
