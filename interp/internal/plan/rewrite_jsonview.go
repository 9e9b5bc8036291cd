package plan

import (
	"fmt"
	"go/ast"
	"go/types"
	"reflect"
	"strconv"
	"strings"
	"unicode"
)

// A view of a cell's value for compiled encoding/json.
//
// json.Marshal, json.MarshalIndent and (*json.Encoder).Encode of a value
// whose type a cell declared with unexported fields, embedded structs or
// a MarshalJSON method would see the interpreter's struct (see
// reflectCall). jsonView rewrites the argument into a value that compiled
// json marshals as Go marshals the original: each cell struct becomes an
// anonymous struct of the fields Go would write (exported ones, and those
// promoted from embedded structs), under their JSON names and options in
// the tag; a MarshalJSON method is called as the view is made (where Go calls it
// as it writes; the result is the same unless the method has side
// effects) and its result given to json through _gt.JSONValue; slices,
// arrays, maps and pointers of such types are copied into []any,
// map[K]any and nil-or-view. A shape it does not cover (conflicting
// names, an embedded pointer, MarshalText, a pointer receiver's
// MarshalJSON reached without a pointer, a recursive type) keeps the
// refusal.

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
	v := jsonViewer{g: g, funcs: map[types.Type]string{}}
	src, ok := v.view("_gtjv", t)
	if !ok {
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
	funcs map[types.Type]string
	// method is set when a view calls a MarshalJSON method.
	method     bool
	vars, defs strings.Builder
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
// marshals as Go marshals x (source xs, evaluated without side effects)
// of type t, and false when it cannot.
func (v *jsonViewer) view(xs string, t types.Type) (string, bool) {
	if !needsView(t) {
		return xs, true
	}
	if _, ok := t.(*types.Pointer); !ok {
		if hasMethod(t, "MarshalJSON") {
			return v.methodView(xs, t), true
		}
		if hasMethod(t, "MarshalText") || hasMethod(types.NewPointer(t), "MarshalJSON") || hasMethod(types.NewPointer(t), "MarshalText") {
			return "", false
		}
	}
	if n, ok := t.(*types.Named); ok {
		if _, ok := n.Underlying().(*types.Struct); ok {
			return v.namedView(xs, n)
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		if hasMethod(t, "MarshalText") {
			return "", false
		}
		inner := "*" + xs
		if hasMethod(t, "MarshalJSON") {
			inner = v.methodView(xs, t)
		} else {
			s, ok := v.view("(*"+xs+")", u.Elem())
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
			elem, nilCheck = s.Elem(), "if "+xs+" == nil { return nil }; "
		} else {
			elem = u.(*types.Array).Elem()
		}
		r, i, e := v.name(), v.name(), v.name()
		s, ok := v.view(e, elem)
		if !ok {
			return "", false
		}
		return "func() any { " + nilCheck + r + " := make([]any, len(" + xs + ")); for " + i + ", " + e + " := range " + xs +
			" { " + r + "[" + i + "] = " + s + " }; return " + r + " }()", true
	case *types.Map:
		if needsView(u.Key()) || hasMethod(u.Key(), "MarshalText") {
			return "", false
		}
		ks, ok := v.g.typeSrc(u.Key())
		if !ok {
			return "", false
		}
		r, k, e := v.name(), v.name(), v.name()
		s, ok := v.view(e, u.Elem())
		if !ok {
			return "", false
		}
		return "func() any { if " + xs + " == nil { return nil }; " + r + " := make(map[" + ks + "]any, len(" + xs + ")); for " + k + ", " + e + " := range " + xs +
			" { " + r + "[" + k + "] = " + s + " }; return " + r + " }()", true
	case *types.Struct:
		return v.structView(xs, t, u)
	}
	return "", false
}

// methodView returns the view of x (source xs) of type t with a
// MarshalJSON method.
func (v *jsonViewer) methodView(xs string, t types.Type) string {
	v.method = true
	name := types.TypeString(t, func(p *types.Package) string {
		if p.Path() == cellPath {
			return "main"
		}
		return p.Name()
	})
	b, err := v.name(), v.name()
	return "func() any { " + b + ", " + err + " := " + xs + ".MarshalJSON(); return " + rtName + ".JSONValue(" + strconv.Quote(name) + ", " + b + ", " + err + ") }()"
}

// namedView returns the view of x (source xs) of a named struct type n:
// a call of a function that views n.
func (v *jsonViewer) namedView(xs string, n *types.Named) (string, bool) {
	if f, ok := v.funcs[n]; ok {
		return f + "(" + xs + ")", true
	}
	ts, ok := v.g.typeSrc(n)
	if !ok {
		return "", false
	}
	f, p := v.name(), v.name()
	v.funcs[n] = f
	body, ok := v.structView(p, n, n.Underlying().(*types.Struct))
	if !ok {
		return "", false
	}
	fmt.Fprintf(&v.vars, "var %s func(%s) any; ", f, ts)
	fmt.Fprintf(&v.defs, "%s = func(%s %s) any { return %s }; ", f, p, ts, body)
	return f + "(" + xs + ")", true
}

// A jsonField is a field Go's json writes: its selector from the outer
// value, its type, its JSON name and tag options.
type jsonField struct {
	sel  string
	f    *types.Var
	name string
	opts string
}

// structView returns the view of a struct value xs of type t.
func (v *jsonViewer) structView(xs string, t types.Type, st *types.Struct) (string, bool) {
	var fields []jsonField
	if !jsonFields(t, st, &fields, map[*types.Struct]bool{}) {
		return "", false
	}
	seen := map[string]bool{}
	var decl, set strings.Builder
	r := v.name()
	for i, f := range fields {
		if seen[f.name] {
			return "", false // a conflict Go resolves by depth and tags
		}
		seen[f.name] = true
		obj, _, _ := types.LookupFieldOrMethod(t, false, f.f.Pkg(), f.f.Name())
		if obj != f.f {
			return "", false // the selector would be ambiguous
		}
		fname := "F" + strconv.Itoa(i)
		sel := xs + "." + f.sel
		if !needsView(f.f.Type()) {
			ts, ok := v.g.typeSrc(f.f.Type())
			if !ok {
				return "", false
			}
			tag := f.name
			if f.opts != "" {
				tag += "," + f.opts
			}
			fmt.Fprintf(&decl, "%s %s %s; ", fname, ts, strconv.Quote(`json:`+strconv.Quote(tag)))
			fmt.Fprintf(&set, "%s.%s = %s; ", r, fname, sel)
			continue
		}
		omit := false
		for _, o := range strings.Split(f.opts, ",") {
			switch o {
			case "omitempty":
				omit = true
			case "omitzero":
				return "", false
			}
		}
		s, ok := v.view(sel, f.f.Type())
		if !ok {
			return "", false
		}
		tag := f.name
		if omit {
			tag += ",omitempty" // the field is left nil when Go omits it
		}
		fmt.Fprintf(&decl, "%s any %s; ", fname, strconv.Quote(`json:`+strconv.Quote(tag)))
		if omit {
			fmt.Fprintf(&set, "if !(%s) { %s.%s = %s }; ", emptyCond(sel, f.f.Type()), r, fname, s)
		} else {
			fmt.Fprintf(&set, "%s.%s = %s; ", r, fname, s)
		}
	}
	return "func() any { var " + r + " struct { " + decl.String() + "}; " + set.String() + "return " + r + " }()", true
}

// jsonFields appends the fields of st (a struct of type t, or embedded
// in it) that Go's json writes, flattening embedded structs, and reports
// false for an embedded pointer to a struct (whose fields are written
// only when it is not nil).
func jsonFields(t types.Type, st *types.Struct, out *[]jsonField, seen map[*types.Struct]bool) bool {
	if seen[st] {
		return false
	}
	seen[st] = true
	defer delete(seen, st)
	for i := range st.NumFields() {
		f := st.Field(i)
		tag := reflect.StructTag(st.Tag(i)).Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if !validJSONName(name) {
			name = ""
		}
		if f.Embedded() && name == "" {
			ft := f.Type()
			if _, ok := ft.Underlying().(*types.Pointer); ok {
				return false
			}
			if inner, ok := ft.Underlying().(*types.Struct); ok {
				if !jsonFields(t, inner, out, seen) {
					return false
				}
				continue
			}
		}
		if !f.Exported() {
			continue
		}
		if name == "" {
			name = f.Name()
		}
		*out = append(*out, jsonField{sel: f.Name(), f: f, name: name, opts: opts})
	}
	return true
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

// jsonFillCall rewrites json.Unmarshal(data, p) or dec.Decode(p), p a
// pointer to a cell struct that compiled json would fill wrongly, into an Unmarshal into a
// view: an anonymous struct of pointers to the fields Go fills, under
// their JSON names and options. A JSON null sets a field of pointer,
// slice, map or interface type to nil, as Go does, and leaves another
// alone. It reports whether it
// did; a field whose own type compiled json would fill wrongly, a type
// with UnmarshalJSON or UnmarshalText, or a call of a go or defer
// statement keeps the refusal.
func (g *gen) jsonFillCall(key string, call *ast.CallExpr, t types.Type) bool {
	decode := key == "encoding/json.Decoder.Decode"
	if key != "encoding/json.Unmarshal" && !decode || call.Ellipsis.IsValid() || g.discard[call] {
		// A go or defer statement's call would evaluate its arguments late.
		return false
	}
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	if !ok {
		return false
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok || hasMethod(p, "UnmarshalJSON") || hasMethod(p, "UnmarshalText") {
		return false
	}
	var fields []jsonField
	if !jsonFields(n, st, &fields, map[*types.Struct]bool{}) {
		return false
	}
	seen := map[string]bool{}
	var decl, set, fix strings.Builder
	for i, f := range fields {
		if seen[f.name] {
			return false
		}
		seen[f.name] = true
		if obj, _, _ := types.LookupFieldOrMethod(n, false, f.f.Pkg(), f.f.Name()); obj != f.f {
			return false
		}
		ft := f.f.Type()
		if why, _ := reflectProblem(ft, "encoding/json", true); why != "" {
			return false
		}
		nullable := false
		switch ft.Underlying().(type) {
		case *types.Pointer, *types.Slice, *types.Map, *types.Interface:
			nullable = true
		}
		if nullable && strings.Contains(","+f.opts+",", ",string,") {
			return false
		}
		ts, ok := g.typeSrc(ft)
		if !ok {
			return false
		}
		tag := f.name
		if f.opts != "" {
			tag += "," + f.opts
		}
		fname := "F" + strconv.Itoa(i)
		fmt.Fprintf(&decl, "%s *%s %s; ", fname, ts, strconv.Quote(`json:`+strconv.Quote(tag)))
		fmt.Fprintf(&set, "_gtjr.%s = &_gtjp.%s; ", fname, f.sel)
		// A null sets the view's pointer to nil, and a value after it
		// fills a new variable.
		if nullable {
			fmt.Fprintf(&fix, "if _gtjr.%s == nil { _gtjp.%s = nil }; ", fname, f.sel)
		}
		fmt.Fprintf(&fix, "if _gtjr.%s != nil && _gtjr.%s != &_gtjp.%s { _gtjp.%s = *_gtjr.%s }; ", fname, fname, f.sel, f.sel, fname)
	}
	view := "var _gtjr struct { " + decl.String() + "}; " + set.String()
	fixed := fix.String() + "return " + rtName + ".JSONFillError(_gte, " + strconv.Quote(n.Obj().Name()) + ") }"
	if decode {
		// dec.Decode(p) becomes func(dec, p) error { ... }(dec, p).
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || len(call.Args) != 1 {
			return false
		}
		dt, ok := g.typeSrc(g.c.info.Types[sel.X].Type)
		if !ok {
			return false
		}
		ps, ok := g.typeSrc(p)
		if !ok {
			return false
		}
		g.ed.insert(g.off(call.Pos()), "func(_gtjdec "+dt+", _gtjp "+ps+") error { if _gtjp == nil { return _gtjdec.Decode(_gtjp) }; "+view+
			"_gte := _gtjdec.Decode(&_gtjr); "+fixed+"(")
		g.ed.replace(g.off(sel.X.End()), g.off(call.Args[0].Pos()), ", ")
		return true
	}
	if len(call.Args) != 2 {
		return false
	}
	data, target := call.Args[0], call.Args[1]
	pkg, ok := g.qualify(g.calledFunc(call).Pkg())
	if !ok {
		return false
	}
	unmarshal := pkg + ".Unmarshal"
	g.ed.replace(g.off(call.Pos()), g.off(data.Pos()), "func() error { _gtjd := (")
	g.ed.replace(g.off(data.End()), g.off(target.Pos()), "); _gtjp := (")
	g.ed.replace(g.off(target.End()), g.off(call.End()), "); if _gtjp == nil { return "+unmarshal+"(_gtjd, _gtjp) }; "+view+
		"_gte := "+unmarshal+"(_gtjd, &_gtjr); "+fixed+"()")
	return true
}
