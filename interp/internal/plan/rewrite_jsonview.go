package plan

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"
	"strings"
	"unicode"
)

// A view of a cell's value for compiled encoding/json.
//
// json.Marshal, json.MarshalIndent and (*json.Encoder).Encode of a value
// whose type a cell declared with unexported fields, embedded structs or
// a MarshalJSON or MarshalText method would see the interpreter's struct
// (see reflectCall). jsonView rewrites the argument into a value that
// compiled json marshals as Go marshals the original: each cell struct
// becomes an anonymous struct of the fields Go would write (see
// jsonFields), under their JSON names and options in the tag; a
// MarshalJSON or MarshalText method is called as the view is made (where
// Go calls it as it writes; the result is the same unless the method has
// side effects), one with a pointer receiver where Go's encoder reaches
// the value through a pointer or a slice, and its result given to json
// through _gt.JSONValue or _gt.JSONText; slices, arrays, maps and
// pointers of such types are copied into []any, map[K]any (map[string]any
// for keys with MarshalText) and nil-or-view. A map key of a struct type
// without MarshalText keeps the refusal.

// jsonMarshalCalls are the calls whose argument jsonViewCall rewrites.
var jsonMarshalCalls = map[string]bool{
	"encoding/json.Marshal":        true,
	"encoding/json.MarshalIndent":  true,
	"encoding/json.Encoder.Encode": true,
}

// jsonViewCall rewrites arg, the value a json marshalling call (key)
// writes, into its view, and reports whether it did.
func (g *gen) jsonViewCall(key string, call *ast.CallExpr, arg ast.Expr, t types.Type) bool {
	if !jsonMarshalCalls[key] {
		return false
	}
	v := jsonViewer{g: g, funcs: map[viewKey]string{}}
	src, ok := v.view("_gtjv", t, false)
	g.viewAdvice = v.advice
	if !ok || src == "_gtjv" {
		return false
	}
	g.ed.insert(g.off(arg.Pos()), "func() any { "+v.vars.String()+v.defs.String()+"_gtjv := (")
	g.ed.insertClosing(g.off(arg.End()), "); return "+src+" }()")
	if v.method && !g.discard[call] {
		fix := rtName + ".JSONResult("
		if strings.HasSuffix(key, "Encode") {
			fix = rtName + ".JSONError("
		}
		g.ed.insert(g.off(call.Pos()), fix)
		g.ed.insertClosing(g.off(call.End()), ")")
	}
	return true
}

// discarded notes that the results of a call, of a go or defer
// statement, are discarded: a wrapper of them would make the statement
// call the wrapper.
func (g *gen) discarded(call *ast.CallExpr) {
	if g.discard == nil {
		g.discard = map[*ast.CallExpr]bool{}
	}
	g.discard[call] = true
}

// A jsonViewer writes the source of views.
type jsonViewer struct {
	g *gen
	n int
	// funcs name the functions that view a named struct type, declared
	// in vars and defined in defs (a recursive type calls its own).
	funcs map[viewKey]string
	// method is set when a view calls a MarshalJSON method.
	method     bool
	vars, defs strings.Builder
	// advice, when set, says what to write instead of a call the viewer
	// cannot make.
	advice string
	// dispatch names the function that views a value of a cell's type
	// inside an interface (see anyView), "-" where no type needs it.
	dispatch string
}

// anyView returns the view of x (source xs) of a type that holds values
// of interface types, whose types the planner does not know: _gt.FmtAny
// with a function that finds their types among the session's types that
// need (see needs) and views them (see view), or "" where none needs.
func (v *jsonViewer) anyView(xs string, needs func(types.Type) bool, view func(xs string, t types.Type) (string, bool)) string {
	if v.dispatch == "" {
		v.dispatch = v.name()
		var b strings.Builder
		for _, tn := range v.g.cellTypeNames() {
			for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
				if !needs(t) {
					continue
				}
				ts, ok := v.g.typeSrc(t)
				if !ok {
					continue
				}
				s, ok := view("_gtx", t)
				if !ok {
					continue
				}
				c := cellType{ts, structLike(t)}
				b.WriteString(" if " + c.cond() + " { if _gtx, _gtok := _gtv.(" + ts + "); _gtok { return " + s + " } };")
			}
		}
		if b.Len() == 0 {
			v.dispatch = "-"
			return ""
		}
		fmt.Fprintf(&v.vars, "var %s func(any) any; ", v.dispatch)
		fmt.Fprintf(&v.defs, "%s = func(_gtv any) any { _gtt := %s.CellType(_gtv);%s return _gtv }; ", v.dispatch, rtName, b.String())
	}
	if v.dispatch == "-" {
		return ""
	}
	return rtName + ".FmtAny(" + xs + ", " + v.dispatch + ")"
}

// name returns a fresh variable name.
func (v *jsonViewer) name() string {
	v.n++
	return "_gtjv" + strconv.Itoa(v.n)
}

// needs reports whether compiled json would marshal a value of type t
// other than Go does.
func needsView(t types.Type) bool {
	why, _ := reflectProblem(t, "encoding/json", false)
	return why != ""
}

// wrappedInAny reports whether a value of type t is, or holds in the
// elements of its slices, arrays, maps and pointers, a value of a cell's
// type that is not a struct and has methods, which yaegi gives compiled
// code inside an interface as its wrapper (json writes {}): the view
// holds it as its underlying type's value.
func wrappedInAny(t types.Type) bool {
	return elemsHeld(t, false, bareWithMethods)
}

// hasMethod reports whether t's method set holds a method named m.
func hasMethod(t types.Type, m string) bool {
	ms := types.NewMethodSet(t)
	for i := range ms.Len() {
		if ms.At(i).Obj().Name() == m {
			return true
		}
	}
	return false
}

// view returns the source of an expression, of a type compiled json
// marshals as Go marshals x (source xs, a variable or what it points to,
// evaluated without side effects) of type t, and false when it cannot.
// addr is whether x is addressable in Go's encoder (reached through a
// pointer or a slice, not the value given to Marshal or a map's), where
// it calls methods with pointer receivers.
func (v *jsonViewer) view(xs string, t types.Type, addr bool) (string, bool) {
	if !needsView(t) && !wrappedInAny(t) {
		if holdsInterface(t, 0) {
			needs := func(t types.Type) bool { return needsView(t) || wrappedInAny(t) }
			if s := v.anyView(xs, needs, func(xs string, t types.Type) (string, bool) { return v.view(xs, t, false) }); s != "" {
				return s, true
			}
		}
		return xs, true
	}
	if _, ok := t.(*types.Pointer); !ok {
		pt := types.NewPointer(t)
		switch {
		case addr && hasMethod(pt, "MarshalJSON") || hasMethod(t, "MarshalJSON"):
			return v.methodView(xs, t, "MarshalJSON"), true
		case addr && hasMethod(pt, "MarshalText") || hasMethod(t, "MarshalText"):
			return v.methodView(xs, t, "MarshalText"), true
		}
	}
	if n, ok := t.(*types.Named); ok {
		if _, ok := n.Underlying().(*types.Struct); ok {
			return v.namedView(xs, n, addr)
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		// A method json does not call: the value, as its basic type
		// (yaegi hands compiled code a wrapper of a value with methods).
		return u.Name() + "(" + xs + ")", true
	case *types.Pointer:
		inner := "*" + xs
		switch {
		case hasMethod(t, "MarshalJSON"):
			inner = v.methodView(xs, t, "MarshalJSON")
		case hasMethod(t, "MarshalText"):
			inner = v.methodView(xs, t, "MarshalText")
		default:
			s, ok := v.view("(*"+xs+")", u.Elem(), true)
			if !ok {
				return "", false
			}
			inner = s
		}
		return "func() any { if " + xs + " == nil { return nil }; return " + inner + " }()", true
	case *types.Slice, *types.Array:
		var elem types.Type
		nilCheck := ""
		if s, ok := u.(*types.Slice); ok {
			elem, nilCheck, addr = s.Elem(), "if "+xs+" == nil { return nil }; ", true
		} else {
			elem = u.(*types.Array).Elem()
		}
		r, i, e := v.name(), v.name(), v.name()
		s, ok := v.view(e, elem, addr)
		if !ok {
			return "", false
		}
		return "func() any { " + nilCheck + r + " := make([]any, len(" + xs + ")); for " + i + ", " + e + " := range " + xs +
			" { " + r + "[" + i + "] = " + s + " }; return " + r + " }()", true
	case *types.Map:
		r, k, e := v.name(), v.name(), v.name()
		s, ok := v.view(e, u.Elem(), false)
		if !ok {
			return "", false
		}
		key := u.Key()
		if b, ok := key.Underlying().(*types.Basic); (!ok || b.Info()&types.IsString == 0) && hasMethod(key, "MarshalText") {
			// Go's json names an entry by its key's MarshalText.
			kb, kerr := v.name(), v.name()
			v.method = true
			return "func() any { if " + xs + " == nil { return nil }; " + r + " := make(map[string]any, len(" + xs + ")); for " + k + ", " + e + " := range " + xs +
				" { " + kb + ", " + kerr + " := " + k + ".MarshalText(); if " + kerr + " != nil { return " + rtName + ".JSONKeyError(" + strconv.Quote(goTypeName(t)) + ", " + kerr + ") }; " +
				r + "[string(" + kb + ")] = " + s + " }; return " + r + " }()", true
		}
		if _, basic := key.Underlying().(*types.Basic); !basic && needsView(key) {
			return "", false // json writes string and integer keys itself
		}
		ks, ok := v.g.typeSrc(key)
		if !ok {
			return "", false
		}
		return "func() any { if " + xs + " == nil { return nil }; " + r + " := make(map[" + ks + "]any, len(" + xs + ")); for " + k + ", " + e + " := range " + xs +
			" { " + r + "[" + k + "] = " + s + " }; return " + r + " }()", true
	case *types.Struct:
		return v.structView(xs, t, u, addr)
	}
	return "", false
}

// methodView returns the view of x (source xs) of type t by its method m,
// MarshalJSON or MarshalText.
func (v *jsonViewer) methodView(xs string, t types.Type, m string) string {
	v.method = true
	name := goTypeName(t)
	b, err := v.name(), v.name()
	wrap := ".JSONValue("
	if m == "MarshalText" {
		wrap = ".JSONText("
	}
	return "func() any { " + b + ", " + err + " := " + xs + "." + m + "(); return " + rtName + wrap + strconv.Quote(name) + ", " + b + ", " + err + ") }()"
}

// pointerMarshaler reports whether a value of type t holds a type with a
// MarshalJSON, MarshalText, MarshalXML or MarshalXMLAttr method with a
// pointer receiver.
func pointerMarshaler(t types.Type) bool {
	found := false
	valueTypes(t, func(t types.Type) bool {
		for _, m := range []string{"MarshalJSON", "MarshalText", "MarshalXML", "MarshalXMLAttr"} {
			if _, ok := t.Underlying().(*types.Pointer); !ok && hasMethod(types.NewPointer(t), m) && !hasMethod(t, m) {
				found = true
			}
		}
		return found
	})
	return found
}

// A viewKey is a named struct type viewed addressable or not.
type viewKey struct {
	t    types.Type
	addr bool
}

// namedView returns the view of x (source xs) of a named struct type n:
// a call of a function that views n.
func (v *jsonViewer) namedView(xs string, n *types.Named, addr bool) (string, bool) {
	addr = addr && pointerMarshaler(n) // one function where it is all one
	if f, ok := v.funcs[viewKey{n, addr}]; ok {
		return f + "(" + xs + ")", true
	}
	ts, ok := v.g.typeSrc(n)
	if !ok {
		return "", false
	}
	f, p := v.name(), v.name()
	v.funcs[viewKey{n, addr}] = f
	body, ok := v.structView(p, n, n.Underlying().(*types.Struct), addr)
	if !ok {
		return "", false
	}
	fmt.Fprintf(&v.vars, "var %s func(%s) any; ", f, ts)
	fmt.Fprintf(&v.defs, "%s = func(%s %s) any { return %s }; ", f, p, ts, body)
	return f + "(" + xs + ")", true
}

// structView returns the view of a struct value xs of type t.
func (v *jsonViewer) structView(xs string, t types.Type, st *types.Struct, addr bool) (string, bool) {
	if a := localAlias(t); a != nil {
		v.advice = localAdvice(a)
		return "", false
	}
	var decl, set strings.Builder
	r := v.name()
	for i, f := range jsonFields(st) {
		fname := "F" + strconv.Itoa(i)
		sel := xs + "." + f.sel
		ft := f.f.Type()
		// cond holds when Go writes the field: its embedded pointers are
		// not nil, and it is not empty for omitempty or zero for
		// omitzero.
		var cond []string
		for _, p := range f.ptrs {
			cond = append(cond, xs+"."+p.sel+" != nil")
		}
		src, ok := v.view(sel, ft, addr || len(f.ptrs) > 0)
		if !ok {
			return "", false
		}
		view := src != sel
		// Compiled json leaves the field out itself, but for a view, a
		// field behind an embedded pointer and one whose IsZero method
		// a cell declared.
		own := !view && len(f.ptrs) == 0 && !(f.hasOpt("omitzero") && cellIsZero(ft))
		var opts []string
		for _, o := range strings.Split(f.opts, ",") {
			switch {
			case o == "omitempty" && !own:
				cond = append(cond, "!("+emptyCond(sel, ft)+")")
			case o == "omitzero" && !own:
				cond = append(cond, "!("+zeroCond(sel, ft)+")")
			case o == "string" && !own:
				if _, ok := ft.Underlying().(*types.Pointer); ok {
					return "", false // the view's pointer would hide the option
				}
				opts = append(opts, o)
			case o == "omitempty" || o == "omitzero" || o == "string":
				opts = append(opts, o)
			}
		}
		tag := strings.Join(append([]string{f.name}, opts...), ",")
		switch {
		case len(cond) == 0 && !view:
			ts, ok := v.g.typeSrc(ft)
			if !ok {
				return "", false
			}
			fmt.Fprintf(&decl, "%s %s %s; ", fname, ts, strconv.Quote(`json:`+strconv.Quote(tag)))
			fmt.Fprintf(&set, "%s.%s = %s; ", r, fname, sel)
		case len(cond) == 0:
			fmt.Fprintf(&decl, "%s any %s; ", fname, strconv.Quote(`json:`+strconv.Quote(tag)))
			fmt.Fprintf(&set, "%s.%s = %s; ", r, fname, src)
		case !view:
			// A pointer to the field, nil where Go leaves it out.
			ts, ok := v.g.typeSrc(ft)
			if !ok {
				return "", false
			}
			fmt.Fprintf(&decl, "%s *%s %s; ", fname, ts, strconv.Quote(`json:`+strconv.Quote(tag+",omitempty")))
			fmt.Fprintf(&set, "if %s { %s.%s = &%s }; ", strings.Join(cond, " && "), r, fname, sel)
		default:
			fmt.Fprintf(&decl, "%s any %s; ", fname, strconv.Quote(`json:`+strconv.Quote(tag+",omitempty")))
			fmt.Fprintf(&set, "if %s { %s.%s = %s.JSONPresent(%s) }; ", strings.Join(cond, " && "), r, fname, rtName, src)
		}
	}
	return "func() any { var " + r + " struct { " + decl.String() + "}; " + set.String() + "return " + r + " }()", true
}

// isZeroMethod returns t's method IsZero() bool, or nil.
func isZeroMethod(t types.Type) *types.Func {
	m, _, _ := types.LookupFieldOrMethod(t, true, nil, "IsZero")
	f, ok := m.(*types.Func)
	if !ok {
		return nil
	}
	sig := f.Type().(*types.Signature)
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
		return nil
	}
	return f
}

// cellIsZero reports whether t has an IsZero method that a cell
// declared, which compiled json does not see.
func cellIsZero(t types.Type) bool {
	m := isZeroMethod(t)
	return m != nil && interpretedCell(m.Pkg())
}

// zeroCond returns the source of a condition that holds when x of type t
// is zero for omitzero: its IsZero method says so, or it is the zero
// value.
func zeroCond(x string, t types.Type) string {
	if isZeroMethod(t) != nil {
		if _, ok := t.Underlying().(*types.Pointer); ok || types.IsInterface(t) {
			return x + " == nil || " + x + ".IsZero()"
		}
		return x + ".IsZero()"
	}
	if types.IsInterface(t) {
		return x + " == nil"
	}
	return rtName + ".IsZero(" + x + ")"
}

// validJSONName is encoding/json's test of a name in a tag.
func validJSONName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// emptyCond returns the source of a condition that holds when x of type
// t is empty for omitempty.
func emptyCond(x string, t types.Type) string {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "!" + x
		case u.Info()&types.IsString != 0:
			return x + ` == ""`
		default:
			return x + " == 0"
		}
	case *types.Slice, *types.Map:
		return "len(" + x + ") == 0"
	case *types.Array:
		return strconv.FormatBool(u.Len() == 0)
	case *types.Struct:
		return "false"
	}
	return x + " == nil"
}
