package plan

import (
	"go/ast"
	"go/token"
	"go/types"
)

// shiftConst gives the untyped constant of a shift by a variable count
// the type Go gives it, that of the context: in var u uint = 1 << i (or
// Flags(1 << i), m & (1 << i)) the 1 is a uint. yaegi makes it an int,
// whose value reflect then refuses as a uint (a panic inside reflect, or
// %!v(PANIC=...) in a String method). The constant is converted:
// uint(1) << i.
func (g *gen) shiftConst(b *ast.BinaryExpr) {
	if b.Op != token.SHL && b.Op != token.SHR {
		return
	}
	info := g.c.info
	tv, xv := info.Types[b], info.Types[b.X]
	if tv.Value != nil || xv.Value == nil || tv.Type == nil || hasTypeParam(tv.Type) {
		return
	}
	if types.Identical(tv.Type, types.Typ[types.Int]) {
		return // the interpreter's own choice
	}
	if bt, ok := tv.Type.(*types.Basic); ok && bt.Info()&types.IsUntyped != 0 {
		return
	}
	if !untypedConst(info, b.X) {
		return
	}
	t, ok := g.typeSrc(tv.Type)
	if !ok {
		return
	}
	g.ed.insert(g.off(b.X.Pos()), t+"(")
	g.ed.insertClosing(g.off(b.X.End()), ")")
}

// untypedConst reports whether e is written as an untyped constant: a
// literal, an untyped constant's name, or an expression of them.
func untypedConst(info *types.Info, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		c, ok := info.Uses[e].(*types.Const)
		if !ok {
			return false
		}
		b, ok := c.Type().(*types.Basic)
		return ok && b.Info()&types.IsUntyped != 0
	case *ast.SelectorExpr:
		c, ok := info.Uses[e.Sel].(*types.Const)
		if !ok {
			return false
		}
		b, ok := c.Type().(*types.Basic)
		return ok && b.Info()&types.IsUntyped != 0
	case *ast.UnaryExpr:
		return untypedConst(info, e.X)
	case *ast.BinaryExpr:
		if e.Op == token.SHL || e.Op == token.SHR {
			return untypedConst(info, e.X)
		}
		return untypedConst(info, e.X) && untypedConst(info, e.Y)
	}
	return false
}
