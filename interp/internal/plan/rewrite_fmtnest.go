package plan

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"
	"sync"
)

// Values of a cell's types nested in what fmt prints.
//
// fmtArgs gives fmt the methods of an argument's own type. A value of a
// cell's type with fmt methods in a struct field, a slice, array or map,
// or behind a pointer at the top, reaches compiled fmt without them; a
// value of a cell's type declared on a compiled named type (type Ticks
// time.Duration) reaches it with the compiled type's methods, which Go
// does not call. fmtNestArg passes such an argument through _gt.Nest with
// a shape of its static type (cellrt.Shape) that marks those values, and
// that names the cell's struct types and fields for %+v and %#v.

// maxShapeDepth bounds the shapes of recursive types (type Tree
// struct{ Kids []Tree; L Level }): deeper values print as fmt prints them.
const maxShapeDepth = 6

// fmtNestArg wraps the argument a of a printing function of fmt or log in
// _gt.Nest when its type holds nested values that compiled fmt would
// print wrongly, and reports whether it did. An argument of a cell's type
// with fmt methods itself is left to fmtArgs, as is one formatted with %T
// or %p.
func (g *gen) fmtNestArg(a ast.Expr, used []verb) bool {
	tv := g.c.info.Types[a]
	if tv.Type == nil || tv.IsNil() || tv.IsType() {
		return false
	}
	for _, v := range used {
		if strings.HasSuffix(v.verb, "T") || strings.HasSuffix(v.verb, "p") || v.verb == "*" {
			return false
		}
	}
	g.noteCompiledBases() // the types this cell declares on compiled ones
	g.noteFmtBases()
	pending := g.pendingMethods()
	if fmtCall("", "", g.displayMethodsOf(tv.Type, pending)) != "" {
		return false // fmtArgs
	}
	if n, ok := types.Unalias(tv.Type).(*types.Named); ok && isCellType(n) && compiledBase(n) != nil {
		// Its underlying value, as Go prints it: fmt.Print puts no
		// space between two strings, which a view is not.
		if b, ok := n.Underlying().(*types.Basic); ok {
			g.ed.insert(g.off(a.Pos()), b.Name()+"(")
			g.ed.insertClosing(g.off(a.End()), ")")
			return true
		}
	}
	src, special := g.shape(tv.Type, 0, pending)
	if !special && !(namesVerb(used) && namesBelow(tv.Type)) {
		return false
	}
	g.ed.insert(g.off(a.Pos()), rtName+".Nest(")
	g.ed.insertClosing(g.off(a.End()), ", "+src+")")
	return true
}

// namesVerb reports whether used holds %+v or %#v, which print the names
// of fields, and %#v those of types, where the interpreter's values of a
// cell's types have others (its struct types are unnamed).
func namesVerb(used []verb) bool {
	for _, v := range used {
		if v.verb == "#v" || v.verb == "+v" || v.verb == "+#v" || v.verb == "#+v" {
			return true
		}
	}
	return false
}

// mentionsInstance reports whether t, its fields or what it points to
// are instances of generic types, which the interpreter's code names
// otherwise (see mono).
func mentionsInstance(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	found := isInstance(t) || strings.Contains(goTypeName(t), sep)
	walkType(t.Underlying(), nil, func(t types.Type) bool {
		found = found || isInstance(t)
		return !found
	})
	return found
}

// namesBelow reports whether the fields, elements, keys or what a
// pointer points to of a value of type t are of a cell's types, or hold
// them: %+v and %#v of t print their names (see describeCall for t's own).
func namesBelow(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	return mentionsCellType(t.Underlying())
}

// shape returns the source of the cellrt.Shape of t at the given depth
// ("nil" for a part that compiled fmt prints right), and whether it marks
// a value that compiled fmt would print wrongly (see fmtNestArg).
func (g *gen) shape(t types.Type, depth int, pending []pendingMethod) (string, bool) {
	if _, ok := t.Underlying().(*types.Interface); ok && depth > 0 {
		return rtName + ".ShapeAny(" + fmtName + ")", false
	}
	if depth > maxShapeDepth || !fmtHoldsCell(t, 0) {
		return "nil", false
	}
	name := strconv.Quote(g.goTypeName(t))
	if isCellType(t) || isInstance(t) {
		value := "_gtx"
		if _, isPtr := t.(*types.Pointer); !isPtr {
			// %#v without GoString prints Go's names (a pointer
			// prints its address, and Fmt says <nil> for a nil one).
			if d := g.describeCall(t); d != "" {
				value = d
			}
		}
		if text := fmtCall(value, "_gtx", g.displayMethodsOf(t, pending)); text != "" {
			ts, ok := g.typeSrc(t)
			if !ok {
				return "nil", false
			}
			return rtName + ".ShapeView(" + name + ", func(_gtv any) any { _gtx := _gtv.(" + ts + "); return " + text + " })", true
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && (compiledBase(n) != nil || fmtBase(n)) {
			return rtName + ".ShapeBase(" + name + ")", true
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		if depth > 0 {
			// fmt prints its address, with its type for %#v.
			return rtName + ".ShapeElem(" + name + ", nil)", false
		}
		elem, special := g.shape(u.Elem(), depth+1, pending)
		return rtName + ".ShapeElem(" + name + ", " + elem + ")", special
	case *types.Slice:
		elem, special := g.shape(u.Elem(), depth+1, pending)
		return rtName + ".ShapeElem(" + name + ", " + elem + ")", special
	case *types.Array:
		if u.Len() == 0 {
			return "nil", false // no element to print
		}
		elem, special := g.shape(u.Elem(), depth+1, pending)
		return rtName + ".ShapeElem(" + name + ", " + elem + ")", special
	case *types.Map:
		key, sk := g.shape(u.Key(), depth+1, pending)
		elem, se := g.shape(u.Elem(), depth+1, pending)
		return rtName + ".ShapeMap(" + name + ", " + key + ", " + elem + ")", sk || se
	case *types.Struct:
		var names, parts []string
		special := false
		for i := range u.NumFields() {
			f := u.Field(i)
			fname := f.Name()
			if strings.HasPrefix(fname, "_gtblank") {
				fname = "_" // see mono
			}
			names = append(names, strconv.Quote(fname))
			p, s := g.shape(f.Type(), depth+1, pending)
			parts = append(parts, p)
			special = special || s
		}
		args := append([]string{name, "[]string{" + strings.Join(names, ", ") + "}"}, parts...)
		return rtName + ".ShapeStruct(" + strings.Join(args, ", ") + ")", special
	}
	return "nil", false
}

// fmtHoldsCell reports whether a value of type t holds values of a cell's
// types that fmt prints: t itself, its elements, keys or fields, and what
// a pointer at the top points to.
func fmtHoldsCell(t types.Type, depth int) bool {
	if depth > maxShapeDepth {
		return false
	}
	if isCellType(t) || isInstance(t) {
		return true
	}
	if _, ok := types.Unalias(t).(*types.Named); ok {
		return false // a compiled type, which compiled fmt prints
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return depth == 0 && fmtHoldsCell(u.Elem(), depth+1)
	case *types.Slice:
		return fmtHoldsCell(u.Elem(), depth+1)
	case *types.Array:
		return fmtHoldsCell(u.Elem(), depth+1)
	case *types.Map:
		return fmtHoldsCell(u.Key(), depth+1) || fmtHoldsCell(u.Elem(), depth+1)
	case *types.Struct:
		for i := range u.NumFields() {
			if fmtHoldsCell(u.Field(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// nestCall returns the call of _gt.Nest that gives fmt a value _gtx of a
// cell's type t, without fmt methods, whose parts compiled fmt would print
// wrongly; for a struct type, or a pointer to one, whose parts fmt prints
// right, the call of _gt.NestNames that gives %+v and %#v its Go names; or
// "".
func (g *gen) nestCall(t types.Type, pending []pendingMethod) string {
	src, special := g.shape(t, 0, pending)
	switch {
	case special:
		return rtName + ".Nest(_gtx, " + src + ")"
	case structLike(t) && src != "nil" && !mentionsInstance(t):
		return rtName + ".NestNames(_gtx, " + src + ")"
	}
	return ""
}

// fmtHoldsCellStruct reports whether t's elements, keys or what it points to
// are a cell's struct types, or hold them: yaegi hands compiled code no
// name for a value of a cell's type without methods, but its reflect type
// is one no compiled type has (see cellType.cond), while a type like
// type Levels []Level has []int's.
func fmtHoldsCellStruct(t types.Type, depth int) bool {
	if depth > maxShapeDepth {
		return false
	}
	if depth > 0 && isCellType(t) && structLike(t) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return fmtHoldsCellStruct(u.Elem(), depth+1)
	case *types.Slice:
		return fmtHoldsCellStruct(u.Elem(), depth+1)
	case *types.Array:
		return fmtHoldsCellStruct(u.Elem(), depth+1)
	case *types.Map:
		return fmtHoldsCellStruct(u.Key(), depth+1) || fmtHoldsCellStruct(u.Elem(), depth+1)
	}
	return false
}

// fmtBases holds the types declared in cells on a named type of a compiled
// package that is not basic (type Stamp time.Time), by *types.TypeName:
// the interpreter gives such a type the compiled type's reflect type, so
// compiled fmt would call the compiled type's methods (see compiledBases
// for basic ones).
var fmtBases sync.Map

// noteFmtBases records the cell's types declared on a compiled named type
// that is not basic (see fmtBases).
func (g *gen) noteFmtBases() {
	for _, d := range g.onCompiled() {
		fmtBases.Store(d.tn, true)
	}
}

// onCompiledDecl is a type declared in a cell on a named type of a
// compiled package.
type onCompiledDecl struct {
	tn   *types.TypeName
	base *types.Named
}

// onCompiled returns the cell's types declared on named types of compiled
// packages.
func (g *gen) onCompiled() []onCompiledDecl {
	var out []onCompiledDecl
	for _, ts := range g.c.types {
		tn, _ := g.c.info.Defs[ts.Name].(*types.TypeName)
		rhs := g.c.info.Types[ts.Type].Type
		if tn == nil || rhs == nil || ts.Assign.IsValid() {
			continue
		}
		if n, ok := types.Unalias(rhs).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() != cellPath {
			out = append(out, onCompiledDecl{tn, n})
		}
	}
	return out
}

// fmtBase reports whether n was declared on a compiled named type that is
// not basic (see fmtBases).
func fmtBase(n *types.Named) bool {
	_, ok := fmtBases.Load(n.Obj())
	return ok
}
