package plan

import (
	"fmt"
	"go/ast"
	"strconv"
	"strings"
)

// returnStmt rewrites a return: inside a range-over-func loop into a jump
// (see jump); in a function that counts its depth, so that the count goes
// down after the results are computed.
func (g *gen) returnStmt(r *ast.ReturnStmt, fc *fnCtx) {
	if len(fc.loops) > 0 {
		results := ""
		if len(r.Results) > 0 {
			results = g.exprList(r.Results)
		}
		g.ed.replace(g.off(r.Pos()), g.off(r.End()), g.jump(fc, len(fc.loops)-1, "return", results))
		return
	}
	if !fc.depth {
		return
	}
	if len(r.Results) == 0 || !g.hasCall(r.Results) {
		g.ed.insert(g.off(r.Pos()), depthName+"--; ")
		return
	}
	var decls, names []string
	for _, f := range fc.results.List {
		for range max(len(f.Names), 1) {
			v := "_gtr" + strconv.Itoa(len(names))
			names = append(names, v)
			decls = append(decls, "var "+v+" "+g.text(f.Type)+";")
		}
	}
	closing := fmt.Sprintf("; %s--; return %s }", depthName, strings.Join(names, ", "))
	if len(r.Results) == 1 || len(r.Results) != len(names) {
		// One result, or one call of several results.
		g.ed.replace(g.off(r.Pos()), g.off(r.Return)+len("return"),
			"{ "+strings.Join(decls, " ")+" "+strings.Join(names, ", ")+" =")
		g.ed.insertClosing(g.off(r.End()), closing)
		return
	}
	// One assignment per result, in order: yaegi gets a parallel
	// assignment of nil to an interface wrong (reflect: New(nil)), and the
	// temporaries are not in the results, so the order of evaluation is
	// the same.
	g.ed.replace(g.off(r.Pos()), g.off(r.Return)+len("return"), "{ "+strings.Join(decls, " "))
	for i, e := range r.Results {
		g.ed.insert(g.off(e.Pos()), names[i]+" = ")
		if i > 0 {
			prev := g.off(r.Results[i-1].End())
			if comma := strings.IndexByte(g.c.text[prev:g.off(e.Pos())], ','); comma >= 0 {
				g.ed.replace(prev+comma, prev+comma+1, ";")
			}
		}
	}
	g.ed.insertClosing(g.off(r.End()), closing)
}

// resultNames returns the names of named results.
func resultNames(l *ast.FieldList) []string {
	var names []string
	for _, f := range l.List {
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
	}
	return names
}
