package plan

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// multiValueVar rewrites a package-level "var a, b T = f()", whose one
// call gives several values, into variables without initializers and one
// that assigns them:
//
//	var a T; var b T; var _gtmv3 = func() bool { a, b = f(); return true }()
//
// yaegi gives functions compiled with such a declaration invalid values
// for a and b.
func (g *gen) multiValueVar(d *ast.GenDecl, vs *ast.ValueSpec) {
	if len(vs.Names) < 2 || len(vs.Values) != 1 {
		return
	}
	var decls, lhs []string
	for _, id := range vs.Names {
		obj := g.c.info.Defs[id]
		if obj == nil {
			decls = append(decls, "_ struct{}")
			lhs = append(lhs, "_")
			continue
		}
		t, ok := g.typeSrc(obj.Type())
		if !ok {
			return
		}
		decls = append(decls, g.yname(obj)+" "+t)
		lhs = append(lhs, g.yname(obj))
	}
	sep := "; "
	if !d.Lparen.IsValid() {
		sep = "; var "
	}
	v := vs.Values[0]
	g.ed.replace(g.off(vs.Names[0].Pos()), g.off(v.Pos()),
		strings.Join(decls, sep)+sep+g.s.fresh("_gtmv")+" = func() bool { "+strings.Join(lhs, ", ")+" = ")
	g.ed.insertClosing(g.off(v.End()), "; return true }()")
}

// topLevel rewrites the statements of the cell's top level: definitions
// assign the session variables the declaration file declares, and the
// last expression hands its value to the runtime.
func (g *gen) topLevel(body *ast.BlockStmt) {
	for i, st := range body.List {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				g.ed.replace(g.off(st.TokPos), g.off(st.TokPos)+2, "=")
			}
		case *ast.DeclStmt:
			g.varDecl(st.Decl.(*ast.GenDecl))
		case *ast.ExprStmt:
			if i == len(body.List)-1 {
				g.result(st)
			}
		}
	}
}

// varDecl turns a top-level "var" declaration into assignments: "var x T
// = e" into "x = e", "var x T" into "x = *new(T)" ("x = nil" for an
// interface with methods written in a cell, of which yaegi's *new is not
// nil); one of several anys as parallelAssign says.
func (g *gen) varDecl(d *ast.GenDecl) {
	if d.Tok != token.VAR {
		return
	}
	if d.Lparen.IsValid() {
		g.ed.replace(g.off(d.TokPos), g.off(d.Lparen)+1, "")
		g.ed.replace(g.off(d.Rparen), g.off(d.Rparen)+1, "")
	} else {
		g.ed.replace(g.off(d.TokPos), g.off(d.Specs[0].Pos()), "")
	}
	for _, sp := range d.Specs {
		vs := sp.(*ast.ValueSpec)
		last := vs.Names[len(vs.Names)-1]
		switch {
		case vs.Type != nil && len(vs.Values) > 0:
			g.ed.replace(g.off(last.End()), g.off(vs.Type.End()), "")
		case len(vs.Values) == 0:
			t := g.text(vs.Type)
			zero := "*new(" + t + ")"
			typ := g.c.info.Types[vs.Type].Type
			if srcIface(typ) {
				zero = "nil" // yaegi's *new of an interface written in a cell is not nil
			}
			zeros := make([]string, len(vs.Names))
			for i := range zeros {
				zeros[i] = zero
			}
			values := strings.Join(zeros, ", ")
			if len(zeros) > 1 && (isEmptyInterface(typ) || srcIface(typ)) {
				// A parallel assignment of anys (see parallelAssign).
				values = "func() (" + strings.Repeat(t+", ", len(zeros)-1) + t + ") { return " + values + " }()"
			}
			g.ed.replace(g.off(last.End()), g.off(vs.Type.End()), " = "+values)
		}
		if len(vs.Values) > 1 && len(vs.Values) == len(vs.Names) {
			targets := make([]types.Type, len(vs.Names))
			for i, id := range vs.Names {
				if obj := g.c.info.Defs[id]; obj != nil {
					targets[i] = obj.Type()
				} else {
					targets[i] = types.Default(g.c.info.Types[vs.Values[i]].Type)
				}
			}
			g.callValues(targets, vs.Values)
		}
	}
}
