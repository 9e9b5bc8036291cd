package plan

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"runtime"
	"strconv"
)

// minMaxInstance returns the name of the instance of the prelude's
// _gtMin or _gtMax for type t (see mono.minMax).
func (g *gen) minMaxInstance(fn string, t types.Type) (string, bool) {
	e, ok := g.s.entries[fn]
	if !ok {
		return "", false
	}
	key := g.s.instKey(e.obj, []types.Type{t})
	if g.c.inst != nil {
		return g.c.inst.lookup(key)
	}
	name, ok := g.s.instances[key]
	return name, ok
}

// minMaxFunc returns the prelude's function that the builtin min or max
// (name) of values of type t calls.
func minMaxFunc(name string, t types.Type) string {
	float := false
	if b, ok := t.Underlying().(*types.Basic); ok {
		float = b.Info()&types.IsFloat != 0
	}
	switch {
	case name == "min" && float:
		return minFName
	case name == "min":
		return minName
	case float:
		return maxFName
	}
	return maxName
}

// builtin rewrites min, max, clear, new(expr), make, recover, print and
// println.
func (g *gen) builtin(call *ast.CallExpr, id *ast.Ident, name string) {
	info := g.c.info
	switch name {
	case "min", "max":
		tv := info.Types[call]
		if tv.Value != nil {
			// A constant: the argument that is the result, converted.
			for _, a := range call.Args {
				if av := info.Types[a].Value; av != nil && constant.Compare(av, token.EQL, tv.Value) {
					text := g.text(a)
					if b, ok := tv.Type.(*types.Basic); !ok || b.Info()&types.IsUntyped == 0 {
						if t, ok := g.typeSrc(tv.Type); ok {
							text = t + "(" + text + ")"
						}
					}
					g.ed.replace(g.off(call.Pos()), g.off(call.End()), text)
					return
				}
			}
			return
		}
		t, ok := g.typeSrc(tv.Type)
		if !ok {
			g.errorf(call.Pos(), "%s of %s is not supported: the interpreter cannot name the type", name, tv.Type)
			return
		}
		fn := minMaxFunc(name, tv.Type)
		if inst, ok := g.minMaxInstance(fn, tv.Type); ok {
			g.ed.replace(g.off(id.Pos()), g.off(id.End()), inst)
			return
		}
		g.ed.replace(g.off(id.Pos()), g.off(id.End()), fn+"["+t+"]")
	case "clear":
		g.ed.replace(g.off(id.Pos()), g.off(id.End()), rtName+".Clear")
	case "new":
		// new(expr), Go 1.26: a pointer to a copy of the value.
		if len(call.Args) != 1 || info.Types[call.Args[0]].IsType() {
			return
		}
		t := info.Types[call.Args[0]].Type
		if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
			t = types.Default(t)
		}
		if ts, ok := g.typeSrc(t); ok {
			g.ed.replace(g.off(id.Pos()), g.off(id.End()), "func(_gtv "+ts+") *"+ts+" { return &_gtv }")
		}
	case "make":
		g.makeSize(call)
	case "recover":
		// yaegi's own run-time errors carry its source position in their
		// text; Go's do not.
		if g.pendingRecover[call] {
			// The panic of a later deferred literal, if any, replaces the
			// one under way (see deferPanics).
			g.ed.insert(g.off(call.Pos()), "func(_gtr any) any { if "+pendingName+" != nil { _gtr = "+pendingName+"; "+pendingName+" = nil }; return _gtr }("+rtName+".Recovered(")
			g.ed.insertClosing(g.off(call.End()), "))")
			return
		}
		g.ed.insert(g.off(call.Pos()), rtName+".Recovered(")
		g.ed.insertClosing(g.off(call.End()), ")")
	case "print":
		g.ed.replace(g.off(id.Pos()), g.off(id.End()), rtName+".Print")
	case "println":
		g.ed.replace(g.off(id.Pos()), g.off(id.End()), rtName+".Println")
	}
}

// sizes gives the sizes of types as the running Go lays them out.
var sizes = types.SizesFor("gc", runtime.GOARCH)

// sizeof returns the size of a value of t, or 0 when t's size depends on a
// type parameter (go/types asserts it is not asked).
func sizeof(t types.Type) (n int64) {
	defer func() {
		if recover() != nil {
			n = 0
		}
	}()
	return sizes.Sizeof(t)
}

// makeSize passes the argument of make that sizes its allocation (a
// slice's capacity, else its length; a map's hint; a channel's buffer)
// through _gt.Make, which panics with an error naming the size when it
// cannot fit in memory: the Go runtime would end the process. Constant
// sizes that are small are left alone.
func (g *gen) makeSize(call *ast.CallExpr) {
	if len(call.Args) < 2 {
		return
	}
	tv := g.c.info.Types[call.Args[0]]
	if !tv.IsType() {
		return
	}
	var size int64
	switch u := tv.Type.Underlying().(type) {
	case *types.Slice:
		size = sizeof(u.Elem())
	case *types.Chan:
		size = sizeof(u.Elem())
	case *types.Map:
		size = sizeof(u.Key()) + sizeof(u.Elem()) + 1
	}
	a := call.Args[len(call.Args)-1]
	if size <= 0 {
		return
	}
	if v := g.c.info.Types[a].Value; v != nil {
		if n, ok := constant.Int64Val(constant.ToInt(v)); ok && n <= (64<<20)/size {
			return
		}
	}
	name := types.TypeString(tv.Type, func(p *types.Package) string {
		if p.Path() == cellPath {
			return ""
		}
		return p.Name()
	})
	g.ed.insert(g.off(a.Pos()), rtName+".Make(int64(")
	g.ed.insertClosing(g.off(a.End()), fmt.Sprintf("), %d, %s)", size, strconv.Quote(name)))
}
