package plan

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"
	"strings"
)

// Templates executed with values of a cell's types.
//
// Compiled text/template and html/template see the interpreter's value of
// a type declared in a cell, without its methods: {{.Final}}, Final a
// method, fails with "can't evaluate field Final". templateCall rewrites
// t.Execute(w, data) and t.ExecuteTemplate(w, name, data) into
// _gt.TemplateExecute(t, w, name, named, view), where the view of data
// (see templateViewer) holds, for each value of a cell's type with
// methods (or holding such values), a _gt.TemplateView: the type's
// exported methods bound to the value (a pointer receiver's only where
// Go could take the value's address), its fields, seen the same way, and
// how fmt prints it. _gt.TemplateExecute rewrites the template's trees
// so that its field and method chains, conditions, ranges, comparisons
// and function calls understand views (see cellrt.rewriteTree). A data
// value of a shape the view does not cover keeps a warning.

// templateCall rewrites a template's Execute or ExecuteTemplate call
// (fn) whose data holds a value of a type a cell declared with methods.
func (g *gen) templateCall(call *ast.CallExpr, fn *types.Func) {
	named := fn.Name() == "ExecuteTemplate"
	if named && len(call.Args) != 3 || !named && len(call.Args) != 2 || call.Ellipsis.IsValid() {
		return
	}
	data := call.Args[len(call.Args)-1]
	t := g.c.info.Types[data].Type
	if t == nil {
		return
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || g.c.info.Selections[sel] == nil {
		return
	}
	v := templateViewer{g: g}
	src, ok := "", false
	if lit := templateLiteral(data); lit != nil && !needsTemplateView(t) {
		ok = v.literal(lit)
	} else if needsTemplateView(t) {
		ts, tok := g.typeSrc(t)
		if tok {
			var view string
			view, ok = v.view("&_gttd", t, "false")
			src = "func() any { " + v.vars.String() + v.defs.String() + "var _gttd " + ts + " = ("
			src2 := "); return " + view + " }()"
			if ok {
				g.ed.insert(g.off(data.Pos()), src)
				g.ed.insertClosing(g.off(data.End()), src2)
			}
		}
	} else {
		return
	}
	if !ok {
		g.templateWarning(call, t)
		return
	}
	g.ed.insert(g.off(call.Pos()), rtName+".TemplateExecute(")
	g.ed.replace(g.off(sel.X.End()), g.off(call.Args[0].Pos()), ", ")
	if named {
		g.ed.insertClosing(g.off(call.Args[1].End()), ", true")
	} else {
		g.ed.insertClosing(g.off(call.Args[0].End()), `, "", false`)
	}
}

// templateLiteral returns the composite literal data is (or whose
// address it takes), or nil.
func templateLiteral(data ast.Expr) *ast.CompositeLit {
	e := ast.Unparen(data)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op.String() == "&" {
		e = ast.Unparen(u.X)
	}
	lit, _ := e.(*ast.CompositeLit)
	return lit
}

// literal rewrites the values of a composite literal whose elements
// are interfaces (map[string]any{"Score": s}) into views where their
// type needs one, and reports whether it found one and could view all.
func (v *templateViewer) literal(lit *ast.CompositeLit) bool {
	found := false
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			e = kv.Value
		}
		if inner, ok := e.(*ast.CompositeLit); ok && inner.Type == nil {
			continue // an element of an elided type: not an interface
		}
		et := v.g.c.info.Types[e].Type
		if et == nil || !needsTemplateView(et) {
			continue
		}
		if tv, ok := v.g.c.info.Types[e]; !ok || tv.Type == nil {
			continue
		}
		found = true
	}
	if !found {
		return false
	}
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			e = kv.Value
		}
		et := v.g.c.info.Types[e].Type
		if et == nil || !needsTemplateView(et) {
			continue
		}
		w := templateViewer{g: v.g}
		ts, ok := v.g.typeSrc(et)
		if !ok {
			return false
		}
		view, ok := w.view("&_gtte", et, "false")
		if !ok {
			return false
		}
		v.g.ed.insert(v.g.off(e.Pos()), "func() any { "+w.vars.String()+w.defs.String()+"var _gtte "+ts+" = (")
		v.g.ed.insertClosing(v.g.off(e.End()), "); return "+view+" }()")
	}
	return true
}

// templateWarning warns that a template executed with data of type t
// cannot call the methods of a cell's type in it.
func (g *gen) templateWarning(call *ast.CallExpr, t types.Type) {
	var found *types.Named
	firstCellType(t, func(n *types.Named) bool {
		if hasTemplateMethods(n) {
			found = n
		}
		return found != nil
	})
	if found == nil {
		return
	}
	name := types.TypeString(found, cellQualifier)
	g.warnf(call.Pos(), "a template cannot call the methods of %s, a type declared in a cell, in a value of type %s (compiled code does not see them): {{.%s}} fails with \"can't evaluate field\"; pass the template a value of %s, a pointer, slice, array or map of them, or a struct holding them",
		name, types.TypeString(t, cellQualifier), types.NewMethodSet(types.NewPointer(found)).At(0).Obj().Name(), name)
}

// hasTemplateMethods reports whether a template could call methods of
// the cell's type n.
func hasTemplateMethods(n *types.Named) bool {
	return !types.IsInterface(n) && types.NewMethodSet(types.NewPointer(n)).Len() > 0
}

// needsTemplateView reports whether a value of type t holds a value of a
// cell's type with methods (itself, or through pointers, slices, arrays,
// maps and struct fields).
func needsTemplateView(t types.Type) bool {
	found := false
	firstCellType(t, func(n *types.Named) bool {
		found = hasTemplateMethods(n)
		return found
	})
	return found
}

// A templateViewer writes the source of a template's view of a value.
type templateViewer struct {
	g *gen
	n int
	// funcs are the functions that view a named or struct type,
	// declared in vars and defined in defs (a recursive type calls its
	// own).
	funcs      []viewFunc
	vars, defs strings.Builder
}

type viewFunc struct {
	t    types.Type
	name string
}

func (v *templateViewer) name() string {
	v.n++
	return "_gttv" + strconv.Itoa(v.n)
}

// view returns the source of an expression of type any: the view of the
// variable that ps (a pointer, evaluated without side effects) points
// to, of type t; addr is the source of a bool that says whether Go could
// take its address.
func (v *templateViewer) view(ps string, t types.Type, addr string) (string, bool) {
	if !needsTemplateView(t) {
		return rtName + ".TemplateField(" + ps + ", " + addr + ")", true
	}
	switch u := t.(type) {
	case *types.Named:
		if u.Obj().Pkg() == nil || u.Obj().Pkg().Path() != cellPath {
			return "", false
		}
		f, ok := v.viewFunc(t)
		if !ok {
			return "", false
		}
		return f + "(" + ps + ", " + addr + ", false)", true
	case *types.Pointer:
		ts, ok := v.g.typeSrc(u)
		if !ok {
			return "", false
		}
		inner := ""
		if n, ok := u.Elem().(*types.Named); ok {
			f, ok := v.viewFunc(n)
			if !ok {
				return "", false
			}
			inner = f + "(*" + ps + ", true, true)"
		} else {
			var ok bool
			if inner, ok = v.view("*"+ps, u.Elem(), "true"); !ok {
				return "", false
			}
		}
		return "func() any { if *" + ps + " == nil { return " + rtName + ".TemplateNil(" + strconv.Quote(v.g.goTypeName(u)) + ", " + "(" + ts + ")(nil)) }; return " + inner + " }()", true
	}
	return v.elems(ps, t, addr)
}

// elems returns the view of a slice, array, map or struct type that is
// not a cell's named type: []any or map[K]any of the elements' views,
// or a view of the struct.
func (v *templateViewer) elems(ps string, t types.Type, addr string) (string, bool) {
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Array:
		var elem types.Type
		nilCheck, eaddr := "", addr
		if s, ok := u.(*types.Slice); ok {
			elem, nilCheck, eaddr = s.Elem(), "if *"+ps+" == nil { return []any(nil) }; ", "true"
		} else {
			elem = u.(*types.Array).Elem()
		}
		r, i := v.name(), v.name()
		e, ok := v.view("&(*"+ps+")["+i+"]", elem, eaddr)
		if !ok {
			return "", false
		}
		return "func() any { " + nilCheck + r + " := make([]any, len(*" + ps + ")); for " + i + " := range *" + ps +
			" { " + r + "[" + i + "] = " + e + " }; return " + r + " }()", true
	case *types.Map:
		if needsTemplateView(u.Key()) {
			return "", false
		}
		ks, ok := v.g.typeSrc(u.Key())
		if !ok {
			return "", false
		}
		r, k, x := v.name(), v.name(), v.name()
		e, ok := v.view("&"+x, u.Elem(), "false")
		if !ok {
			return "", false
		}
		return "func() any { if *" + ps + " == nil { return map[" + ks + "]any(nil) }; " + r + " := make(map[" + ks + "]any, len(*" + ps + ")); for " + k + ", " + x + " := range *" + ps +
			" { " + x + " := " + x + "; " + r + "[" + k + "] = " + e + " }; return " + r + " }()", true
	case *types.Struct:
		f, ok := v.viewFunc(t)
		if !ok {
			return "", false
		}
		return f + "(" + ps + ", " + addr + ", false)", true
	}
	return "", false
}

// viewFunc returns the name of a function func(p *T, addr, viaPtr bool)
// any that returns the view of *p, for t a cell's named type or a struct
// type.
func (v *templateViewer) viewFunc(t types.Type) (string, bool) {
	for _, f := range v.funcs {
		if types.Identical(f.t, t) {
			return f.name, true
		}
	}
	ts, ok := v.g.typeSrc(t)
	if !ok {
		return "", false
	}
	f := v.name()
	v.funcs = append(v.funcs, viewFunc{t, f})
	methods, ok := v.methods(t)
	if !ok {
		return "", false
	}
	fields, hidden, ok := v.fields(t)
	if !ok {
		return "", false
	}
	elems := "nil"
	if _, isStruct := t.Underlying().(*types.Struct); !isStruct && needsTemplateView(t.Underlying()) {
		e, ok := v.elems("p", t.Underlying(), "addr")
		if !ok {
			return "", false
		}
		elems = "func() any { return " + e + " }"
	}
	format := "*p"
	vm, pm := displayMethods(t), displayMethods(types.NewPointer(t))
	if fc := fmtCall("*p", "(*p)", vm); fc != "" {
		format = fc
	}
	if pc := fmtCall("p", "p", pm); !vm["String"] && !vm["Error"] && (pm["String"] || pm["Error"]) {
		// An action prints an addressable value with its pointer's
		// String or Error method.
		format = "func() any { if ptr { return " + pc + " }; return " + format + " }()"
	}
	fmt.Fprintf(&v.vars, "var %s func(*%s, bool, bool) any; ", f, ts)
	fmt.Fprintf(&v.defs, "%s = func(p *%s, addr, viaPtr bool) any { return %s.TemplateView(%s, p, addr, viaPtr, %s, %s, %s, %s, func(ptr bool) any { return %s }) }; ",
		f, ts, rtName, strconv.Quote(v.g.goTypeName(t)), methods, fields, hidden, elems, format)
	return f, true
}

// methods returns the source of a func(string) any that returns the
// exported methods of t bound to p (those with a pointer receiver when
// addr), or "nil".
func (v *templateViewer) methods(t types.Type) (string, bool) {
	if types.IsInterface(t) {
		return "nil", true
	}
	value := types.NewMethodSet(t)
	all := types.NewMethodSet(types.NewPointer(t))
	var b strings.Builder
	for i := range all.Len() {
		m := all.At(i).Obj().(*types.Func)
		if !m.Exported() {
			continue
		}
		bound, ok := v.boundMethod(m)
		if !ok {
			return "", false
		}
		if value.Lookup(m.Pkg(), m.Name()) != nil {
			fmt.Fprintf(&b, "case %q: return %s; ", m.Name(), bound)
		} else {
			fmt.Fprintf(&b, "case %q: if addr { return %s }; ", m.Name(), bound)
		}
	}
	if b.Len() == 0 {
		return "nil", true
	}
	return "func(name string) any { switch name { " + b.String() + "}; return nil }", true
}

// boundMethod returns the source of method m bound to p, as a function
// whose results are views where they hold a cell's types with methods.
func (v *templateViewer) boundMethod(m *types.Func) (string, bool) {
	sig := m.Type().(*types.Signature)
	res := sig.Results()
	needs := false
	for i := range res.Len() {
		needs = needs || needsTemplateView(res.At(i).Type())
	}
	if !needs {
		return "p." + m.Name(), true
	}
	if res.Len() > 2 || res.Len() == 2 && needsTemplateView(res.At(1).Type()) {
		return "p." + m.Name(), true // the template refuses it
	}
	var params, args []string
	for i := range sig.Params().Len() {
		pt := sig.Params().At(i).Type()
		if sig.Variadic() && i == sig.Params().Len()-1 {
			ts, ok := v.g.typeSrc(pt.(*types.Slice).Elem())
			if !ok {
				return "", false
			}
			params = append(params, fmt.Sprintf("a%d ...%s", i, ts))
			args = append(args, fmt.Sprintf("a%d...", i))
			continue
		}
		ts, ok := v.g.typeSrc(pt)
		if !ok {
			return "", false
		}
		params = append(params, fmt.Sprintf("a%d %s", i, ts))
		args = append(args, fmt.Sprintf("a%d", i))
	}
	rt := res.At(0).Type()
	view, ok := v.view("&r", rt, "false")
	if !ok {
		return "", false
	}
	call := "p." + m.Name() + "(" + strings.Join(args, ", ") + ")"
	if res.Len() == 2 {
		ets, ok := v.g.typeSrc(res.At(1).Type())
		if !ok {
			return "", false
		}
		return "func(" + strings.Join(params, ", ") + ") (any, " + ets + ") { r, err := " + call + "; return " + view + ", err }", true
	}
	return "func(" + strings.Join(params, ", ") + ") any { r := " + call + "; return " + view + " }", true
}

// fields returns the source of a func(string) (any, bool) that returns
// the view of p's exported field of a name (promoted ones too), or
// "nil", and the source of a []string of the unexported ones.
func (v *templateViewer) fields(t types.Type) (fields, hidden string, ok bool) {
	st, isStruct := t.Underlying().(*types.Struct)
	if !isStruct {
		return "nil", "nil", true
	}
	var b strings.Builder
	var private []string
	seen := map[string]bool{}
	var walk func(st *types.Struct, depth int) bool
	walk = func(st *types.Struct, depth int) bool {
		if depth > 8 {
			return true
		}
		for i := range st.NumFields() {
			f := st.Field(i)
			if f.Name() == "_" || seen[f.Name()] {
				continue
			}
			obj, _, _ := types.LookupFieldOrMethod(t, true, f.Pkg(), f.Name())
			if obj != f {
				continue // ambiguous, or shadowed by a method or a shallower field
			}
			seen[f.Name()] = true
			if !f.Exported() {
				private = append(private, strconv.Quote(f.Name()))
			} else {
				view, ok := v.view("&p."+f.Name(), f.Type(), "addr")
				if !ok {
					return false
				}
				fmt.Fprintf(&b, "case %q: return %s, true; ", f.Name(), view)
			}
		}
		for i := range st.NumFields() {
			f := st.Field(i)
			if !f.Embedded() {
				continue
			}
			ft := f.Type()
			if p, ok := ft.Underlying().(*types.Pointer); ok {
				ft = p.Elem()
			}
			if inner, ok := ft.Underlying().(*types.Struct); ok && !walk(inner, depth+1) {
				return false
			}
		}
		return true
	}
	if !walk(st, 0) {
		return "", "", false
	}
	fields, hidden = "nil", "nil"
	if b.Len() > 0 {
		fields = "func(name string) (any, bool) { switch name { " + b.String() + "}; return nil, false }"
	}
	if len(private) > 0 {
		hidden = "[]string{" + strings.Join(private, ", ") + "}"
	}
	return fields, hidden, true
}
