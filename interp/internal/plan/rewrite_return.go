package plan

import (
	"fmt"
	"go/ast"
	"go/types"
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
	if names := g.convertedResults(r, fc); names != nil {
		// The call's results, then the return of them.
		dec := ""
		if fc.depth {
			dec = depthName + "--; "
		}
		g.ed.replace(g.off(r.Pos()), g.off(r.Return)+len("return"), "{ "+strings.Join(names, ", ")+" :=")
		g.ed.insertClosing(g.off(r.End()), "; "+dec+"return "+strings.Join(names, ", ")+" }")
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

// convertedResults returns names for the results of r's call where r
// returns one call's several results and converts one of them to an
// interface (return os.OpenFile(...) in a function whose results are
// (Sink, error)), else nil. yaegi does not convert a result so returned
// when the function is called through a variable, as a cell's functions
// are (see runBlock): its interface held nothing, and a use panicked; a
// result assigned to a variable first is converted by the return.
func (g *gen) convertedResults(r *ast.ReturnStmt, fc *fnCtx) []string {
	if len(r.Results) != 1 {
		return nil
	}
	call, ok := ast.Unparen(r.Results[0]).(*ast.CallExpr)
	if !ok {
		return nil
	}
	got, ok := g.c.info.TypeOf(call).(*types.Tuple)
	if !ok || got.Len() < 2 {
		return nil
	}
	want := g.resultTypes(fc)
	if len(want) != got.Len() {
		return nil
	}
	converts := false
	for i, t := range want {
		if t != nil && types.IsInterface(t) && !types.Identical(t, got.At(i).Type()) {
			converts = true
		}
	}
	if !converts {
		return nil
	}
	names := make([]string, len(want))
	for i := range names {
		names[i] = g.fresh("_gtc")
	}
	return names
}

// resultTypes returns the types of the results of fc's function, one for
// each result (a field of several names gives several), or nil for a
// function without results.
func (g *gen) resultTypes(fc *fnCtx) []types.Type {
	if fc.results == nil {
		return nil
	}
	var results []types.Type
	for _, f := range fc.results.List {
		t := g.c.info.Types[f.Type].Type
		for range max(len(f.Names), 1) {
			results = append(results, t)
		}
	}
	return results
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
