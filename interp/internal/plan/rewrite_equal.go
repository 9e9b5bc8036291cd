package plan

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Comparisons of interface values.
//
// Go's a == b with an operand of interface type compares dynamic types
// and values. yaegi's does not for values of types declared in cells:
// each conversion of a cell's struct value to error is a compiled error
// of its own (see rewrite_conv.go), so var a, b error = E{1}, E{1} made
// a == b false; two Shapes holding equal Sq values were not equal
// either. The planner makes such a comparison _gt.Equal, which looks
// inside the wrappers and compares as Go does, panicking on a dynamic
// type that is not comparable.

// equalIface rewrites a == b and a != b, when an operand is of interface
// type and neither is nil, into _gt.Equal(a, b) and !_gt.Equal(a, b). The
// operands go to it as they are: passed to an interpreted function's any,
// a nil interface declared in a cell stops being nil.
func (g *gen) equalIface(n *ast.BinaryExpr) {
	if n.Op != token.EQL && n.Op != token.NEQ {
		return
	}
	x, y := g.c.info.Types[n.X], g.c.info.Types[n.Y]
	if x.Type == nil || y.Type == nil || x.IsNil() || y.IsNil() || !isIfaceValue(x.Type) && !isIfaceValue(y.Type) {
		return
	}
	call := rtName + ".Equal("
	if n.Op == token.NEQ {
		call = "!" + call
	}
	// A value of a cell's type that is not an interface goes to Equal
	// as the interface it is compared as: named, as the other side's
	// value of it is.
	g.ed.insert(g.off(n.X.Pos()), call)
	g.boxed(n.X)
	g.ed.replace(g.off(n.OpPos), g.off(n.OpPos)+len(n.Op.String()), ",")
	g.boxed(n.Y)
	g.ed.insertClosing(g.off(n.Y.End()), ")")
}

// isIfaceValue reports whether t is an interface type, not a type
// parameter.
func isIfaceValue(t types.Type) bool {
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return false
	}
	return types.IsInterface(t)
}

// srcIface reports whether t is an interface with methods declared or
// written in a cell.
func srcIface(t types.Type) bool {
	iface, ok := t.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return false
	}
	switch n := types.Unalias(t).(type) {
	case *types.Named:
		return interpretedCell(n.Obj().Pkg())
	case *types.Interface:
		return true
	}
	return false
}
