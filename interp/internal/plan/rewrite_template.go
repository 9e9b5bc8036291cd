package plan

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"sync"
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
// (fn) whose data holds a value of a type a cell declared with methods,
// or an interface that may hold one.
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
	g.noteCompiledBases()
	// A value in an interface may be of a type with methods that the
	// session declares now, or later when a function of the cell runs.
	v := g.templateViewer(g.hasTemplateTypes() || g.inFunc(call.Pos()))
	g.pendingWarning(call, t, v)
	g.warnTemplateFuncs(data, t, v)
	// Every Execute goes through _gt.TemplateExecute, which gives the
	// template the functions of its rewritten trees: a template that
	// shares trees with one rewritten before (a Clone) needs them too.
	ok = true
	views := v.needs(t)
	if !views {
		// The data as it is.
	} else if lit := templateLiteral(data); lit != nil && ifaceElems(t) {
		ok = v.literal(lit)
		if ok {
			g.ed.insert(g.off(data.Pos()), "func() any { "+v.vars.String()+v.defs.String()+"return ")
			g.ed.insertClosing(g.off(data.End()), " }()")
		}
	} else if ts, tok := g.typeSrc(t); !tok {
		ok = false
	} else {
		var view string
		if view, ok = v.view("&_gttd", t, "false"); ok {
			g.ed.insert(g.off(data.Pos()), "func() any { "+v.vars.String()+v.defs.String()+"var _gttd "+ts+" = (")
			g.ed.insertClosing(g.off(data.End()), "); return "+view+" }()")
		}
	}
	if !ok {
		g.templateWarning(call, t) // and the data as it is
		views = false
	}
	g.ed.insert(g.off(call.Pos()), rtName+".TemplateExecute(")
	g.ed.replace(g.off(sel.X.End()), g.off(call.Args[0].Pos()), ", ")
	if named {
		g.ed.insertClosing(g.off(call.Args[1].End()), fmt.Sprintf(", true, %v", views))
	} else {
		g.ed.insertClosing(g.off(call.Args[0].End()), fmt.Sprintf(`, "", false, %v`, views))
	}
}

// inFunc reports whether pos is in the body of a function or function
// literal of the cell.
func (g *gen) inFunc(pos token.Pos) bool {
	for n, sc := range g.c.info.Scopes {
		if _, ok := n.(*ast.FuncType); ok && sc.Pos() <= pos && pos < sc.End() {
			return true
		}
	}
	return false
}

// ifaceElems reports whether t is a map, slice or array type whose
// elements are interfaces.
func ifaceElems(t types.Type) bool {
	var elem types.Type
	switch u := t.Underlying().(type) {
	case *types.Map:
		elem = u.Elem()
	case *types.Slice:
		elem = u.Elem()
	case *types.Array:
		elem = u.Elem()
	default:
		return false
	}
	return types.IsInterface(elem)
}

// warnTemplateFuncs warns at data, given to a template's Execute, when
// it holds functions (a field F of a func type, which {{call .F}} calls)
// whose results hold a cell's values with methods: the template gets
// their results as the interpreter's values, without the methods.
func (g *gen) warnTemplateFuncs(data ast.Expr, t types.Type, v *templateViewer) {
	var fn *types.Signature
	anyHeld(t, false, func(t types.Type) bool {
		sig, ok := t.Underlying().(*types.Signature)
		if ok && sig.Results().Len() > 0 && v.needs(sig.Results().At(0).Type()) {
			fn = sig
		}
		return fn != nil
	})
	if fn == nil {
		return
	}
	g.warnf(data.Pos(), "a template given %s calls its functions ({{call .F}}) without a view of what they return (%s): it sees the interpreter's values, without their methods; give the template the results instead, or the functions in a template.FuncMap literal",
		types.TypeString(t, cellQualifier), types.TypeString(fn.Results().At(0).Type(), cellQualifier))
}

// templateMethodValue warns at t.Execute or t.ExecuteTemplate of a
// template package taken as a value (not called where it is written):
// the planner gives the data a view only in a call it sees.
func (g *gen) templateMethodValue(n *ast.SelectorExpr) {
	sel, ok := g.c.info.Selections[n]
	if !ok || sel.Kind() != types.MethodVal {
		return
	}
	fn, ok := sel.Obj().(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "text/template" && fn.Pkg().Path() != "html/template" ||
		fn.Name() != "Execute" && fn.Name() != "ExecuteTemplate" {
		return
	}
	g.warnf(n.Pos(), "%s taken as a value: a call through it gives the template a cell's values as the interpreter's, without their methods; call %s where the data is given", g.text(n), fn.Name())
}

// funcMapLit gives the functions of a template.FuncMap literal (of
// text/template or html/template) whose results hold a cell's values
// with methods, or interfaces that may hold them, results that are their
// views, as templateCall gives the data.
func (g *gen) funcMapLit(lit *ast.CompositeLit) {
	if !isFuncMap(g.c.info.Types[lit].Type) {
		return
	}
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			g.funcMapValue(kv.Value)
		}
	}
}

// funcMapAssign does what funcMapLit does for m[name] = f, m a FuncMap.
func (g *gen) funcMapAssign(a *ast.AssignStmt) {
	if len(a.Lhs) != len(a.Rhs) {
		return
	}
	for i, l := range a.Lhs {
		if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok && isFuncMap(g.c.info.Types[ix.X].Type) {
			g.funcMapValue(a.Rhs[i])
		}
	}
}

// isFuncMap reports whether t is text/template's or html/template's
// FuncMap.
func isFuncMap(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == "FuncMap" && n.Obj().Pkg() != nil &&
		(n.Obj().Pkg().Path() == "text/template" || n.Obj().Pkg().Path() == "html/template")
}

// funcMapValue rewrites e, a function a FuncMap holds, into one whose
// result is its view where it needs one.
func (g *gen) funcMapValue(e ast.Expr) {
	g.noteCompiledBases()
	sig, ok := g.c.info.Types[e].Type.(*types.Signature)
	if !ok || sig.Results().Len() == 0 {
		return
	}
	v := g.templateViewer(true)
	if !v.needs(sig.Results().At(0).Type()) {
		return
	}
	w, ok := v.resultView("_gtfn", sig)
	if !ok {
		return
	}
	g.ed.insert(g.off(e.Pos()), "func() any { "+v.vars.String()+v.defs.String()+"_gtfn := (")
	g.ed.insertClosing(g.off(e.End()), "); return "+w+" }()")
}

// templateLiteral returns the composite literal data is, or nil.
func templateLiteral(data ast.Expr) *ast.CompositeLit {
	lit, _ := ast.Unparen(data).(*ast.CompositeLit)
	return lit
}

// literal rewrites the values of a composite literal whose elements are
// interfaces (map[string]any{"Score": s}) into the views of their own
// types, and reports whether it could.
func (v *templateViewer) literal(lit *ast.CompositeLit) bool {
	type edit struct {
		e          ast.Expr
		pre, close string
	}
	var edits []edit
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			e = kv.Value
		}
		et := v.g.c.info.Types[e].Type
		if et == nil || !v.needs(et) {
			continue
		}
		if b, ok := et.(*types.Basic); ok && b.Kind() == types.UntypedNil {
			continue
		}
		ts, ok := v.g.typeSrc(et)
		if !ok {
			return false
		}
		view, ok := v.view("&_gtte", et, "false")
		if !ok {
			return false
		}
		edits = append(edits, edit{e, "func() any { var _gtte " + ts + " = (", "); return " + view + " }()"})
	}
	for _, ed := range edits {
		v.g.ed.insert(v.g.off(ed.e.Pos()), ed.pre)
		v.g.ed.insertClosing(v.g.off(ed.e.End()), ed.close)
	}
	return true
}

// pendingWarning warns when the cell declares methods on a type of an
// earlier cell that the template's data may hold: the view of the cell
// cannot call them.
func (g *gen) pendingWarning(call *ast.CallExpr, t types.Type, v *templateViewer) {
	var found *types.Named
	var names []string
	for _, tn := range g.cellTypeNames() {
		n, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		held := v.ifaces && holdsIface(t)
		firstCellType(t, func(m *types.Named) bool {
			held = held || m.Obj() == n.Obj()
			return held
		})
		if ms := v.pendingOf(n); held && len(ms) > 0 {
			found = n
			for _, m := range ms {
				names = append(names, m.name)
			}
			break
		}
	}
	if found == nil {
		return
	}
	g.warnf(call.Pos(), "a template executed in the cell that declares the methods %s of %s, a type of an earlier cell, cannot call them nor print with them: execute it in a later cell",
		strings.Join(names, ", "), found.Obj().Name())
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
// the cell's type n, or gets its values in the interpreter's wrapper (a
// type with methods, every non-struct type of a cell: see nameTag), which
// a view opens.
func hasTemplateMethods(n *types.Named) bool {
	return !types.IsInterface(n) && types.NewMethodSet(types.NewPointer(n)).Len() > 0
}

// needsTemplateView reports whether a value of type t holds a value of a
// cell's type with methods (itself, or through pointers, slices, arrays,
// maps and struct fields).
func needsTemplateView(t types.Type) bool {
	found := false
	firstCellType(t, func(n *types.Named) bool {
		found = hasTemplateMethods(n) || compiledBase(n) != nil
		return found
	})
	return found
}

// compiledBases holds the types declared in cells on a named type of a
// compiled package with a basic underlying type (type Safe
// template.HTML), by *types.TypeName: the interpreter gives such a type
// the compiled type's reflect type, so compiled code sees the methods of
// the compiled type (a Duration's String) and takes it for that type
// (html/template would not escape a Safe).
var compiledBases sync.Map

// noteCompiledBases records the cell's types declared on a compiled
// named type (see compiledBases).
func (g *gen) noteCompiledBases() {
	for _, d := range g.onCompiled() {
		if _, basic := d.base.Underlying().(*types.Basic); basic {
			compiledBases.Store(d.tn, d.base)
		}
	}
}

// compiledBase returns the compiled type n was declared on (see
// compiledBases), or nil.
func compiledBase(n *types.Named) *types.Named {
	if b, ok := compiledBases.Load(n.Obj()); ok {
		return b.(*types.Named)
	}
	return nil
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
	// ifaces says that a value in an interface gets the view of its
	// type (see templateVars).
	ifaces bool
	// pending are the methods the cell declares on types of earlier
	// cells, which their types.Named do not have.
	pending []pendingMethod
}

// templateViewer returns a viewer; ifaces says whether values in
// interfaces get views.
func (g *gen) templateViewer(ifaces bool) *templateViewer {
	return &templateViewer{g: g, ifaces: ifaces, pending: g.pendingMethods()}
}

// needs reports whether a value of type t needs a view: it holds a
// value of a cell's type with methods, or an interface that may hold one.
func (v *templateViewer) needs(t types.Type) bool {
	return needsTemplateView(t) || v.ifaces && holdsIface(t)
}

// pendingOf returns the exported methods the cell declares on n, a type
// of an earlier cell: generated code of the cell cannot call them (it is
// checked with the earlier type).
func (v *templateViewer) pendingOf(n *types.Named) []pendingMethod {
	var out []pendingMethod
	for _, m := range v.pending {
		if m.tn == n.Obj() && token.IsExported(m.name) {
			out = append(out, m)
		}
	}
	return out
}

// hasTemplateTypes reports whether the session or the cell declares a
// type a template could call methods of.
func (g *gen) hasTemplateTypes() bool {
	for _, tn := range g.cellTypeNames() {
		if needsTemplateView(tn.Type()) {
			return true
		}
	}
	return false
}

// holdsIface reports whether a value of type t holds an interface:
// itself, or through pointers, slices, arrays, maps and struct fields.
func holdsIface(t types.Type) bool {
	return anyHeld(t, false, func(t types.Type) bool { return types.IsInterface(t) })
}

// anyHeld reports whether f holds for a type that a value of type t
// holds: t itself, and through pointers, slices, arrays, map values (and
// keys, when keys) and struct fields.
func anyHeld(t types.Type, keys bool, f func(types.Type) bool) bool {
	return walkHeld(t, keys, true, f)
}

// elemsHeld calls f on t and the types its values hold through
// pointers, slices, arrays and maps (their keys with keys), not struct
// fields, until f reports true; it reports whether f did.
func elemsHeld(t types.Type, keys bool, f func(types.Type) bool) bool {
	return walkHeld(t, keys, false, f)
}

// walkHeld is anyHeld, and with fields unset elemsHeld.
func walkHeld(t types.Type, keys, fields bool, f func(types.Type) bool) bool {
	seen := map[types.Type]bool{}
	var walk func(t types.Type) bool
	walk = func(t types.Type) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		if f(t) {
			return true
		}
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			return walk(u.Elem())
		case *types.Slice:
			return walk(u.Elem())
		case *types.Array:
			return walk(u.Elem())
		case *types.Map:
			return keys && walk(u.Key()) || walk(u.Elem())
		case *types.Struct:
			for i := range u.NumFields() {
				if fields && walk(u.Field(i).Type()) {
					return true
				}
			}
		}
		return false
	}
	return walk(t)
}

// templateVars returns the statements by which a cell registers, with
// _gt.TemplateType, the views of values in interfaces (see
// templateDispatch) of the types it declares, and of those the cell
// before it declared methods on (which its own generated code could not
// call: it is checked with the earlier type), or "". The views of every
// cell find them with _gt.TemplateAny: a function of an earlier cell
// sees a type declared later. Until a cell imports a template package,
// none registers (a view costs a cell's compilation time); the first
// that does registers the session's types.
func (g *gen) templateVars() string {
	g.noteCompiledBases()
	if !g.s.tplOn && !g.importsTemplates() {
		return "" // no template to see them yet
	}
	names := map[string]bool{}
	for _, ts := range g.c.types {
		names[ts.Name.Name] = true
	}
	for _, n := range g.s.tplStale {
		names[n] = true
	}
	if !g.s.tplOn {
		// The first cell with templates registers the session's types.
		for _, tn := range g.cellTypeNames() {
			names[tn.Name()] = true
		}
		g.commitAfter(-1, func() { g.s.tplOn = true })
	}
	var stale []string
	for _, m := range g.pendingMethods() {
		stale = append(stale, m.tn.Name())
	}
	if len(g.s.tplStale) > 0 || len(stale) > 0 {
		g.commitAfter(-1, func() { g.s.tplStale = stale })
	}
	if len(names) == 0 {
		return ""
	}
	var b strings.Builder
	for _, tn := range g.cellTypeNames() {
		if names[tn.Name()] {
			if d := g.templateDispatch(tn); d != "" {
				fmt.Fprintf(&b, "%s.TemplateType(%q, %s)\n", rtName, cellPath+"."+tn.Name(), d)
			}
		}
	}
	return b.String()
}

// importsTemplates reports whether the session or the cell imports
// text/template or html/template.
func (g *gen) importsTemplates() bool {
	for _, p := range g.s.imports {
		if p == "text/template" || p == "html/template" {
			return true
		}
	}
	for _, sp := range g.c.imports {
		if p, err := strconv.Unquote(sp.Path.Value); err == nil && (p == "text/template" || p == "html/template") {
			return true
		}
	}
	return false
}

// templateDispatch returns the source of a func(any) any that returns
// the view of a value of type tn (a type a template could call methods
// of), of a pointer to it, or of a slice or a map of string keys of
// them, and nil for another value; "" when tn needs no view.
func (g *gen) templateDispatch(tn *types.TypeName) string {
	t := tn.Type()
	if !needsTemplateView(t) || strings.Contains(g.goTypeName(t), "[") {
		return "" // an instance of a generic type: Execute's view sees it
	}
	v := g.templateViewer(true)
	var b strings.Builder
	for _, x := range []types.Type{t, types.NewPointer(t)} {
		for _, y := range []types.Type{x, types.NewSlice(x), types.NewMap(types.Typ[types.String], x)} {
			ts, ok := g.typeSrc(y)
			if !ok {
				continue
			}
			cond := cellType{ts, structLike(y)}.cond()
			if y != x {
				if !structLike(t) {
					continue // a bare []Temp cannot be told from a []float64
				}
				cond = `_gtt == ""`
			}
			vars, defs, funcs := v.vars.String(), v.defs.String(), len(v.funcs)
			view, ok := v.view("&_gtx", y, "false")
			if !ok {
				// Drop what the failed view declared.
				v.vars.Reset()
				v.vars.WriteString(vars)
				v.defs.Reset()
				v.defs.WriteString(defs)
				v.funcs = v.funcs[:funcs]
				continue
			}
			fmt.Fprintf(&b, "if %s { if _gtx, _gtok := _gtv.(%s); _gtok { return %s } }; ", cond, ts, view)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "func() func(any) any { " + v.vars.String() + v.defs.String() + "return func(_gtv any) any { _gtt := " + rtName + ".CellType(_gtv); " + b.String() + "return nil } }()"
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
	if !v.needs(t) || compiledNamed(t) {
		return rtName + ".TemplateField(" + ps + ", " + addr + ")", true
	}
	if types.IsInterface(t) {
		// The value in an interface: Go cannot take its address.
		name := "interface {}"
		if !isEmptyInterface(t) {
			name = v.g.goTypeName(t)
		}
		return "func() any { if _gtr := " + rtName + ".TemplateAny(*" + ps + "); _gtr != nil { return " + rtName + ".TemplateInInterface(_gtr, " + strconv.Quote(name) + ") }; return " + rtName + ".TemplateField(" + ps + ", " + addr + ") }()", true
	}
	switch u := t.(type) {
	case *types.Named:
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

// compiledNamed reports whether t is a named type of a compiled package
// (a value of it may hold a cell's values only in interfaces, which the
// template sees as compiled code does), or a pointer to one.
func compiledNamed(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && !interpretedCell(n.Obj().Pkg()) && !types.IsInterface(n)
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
	if _, isStruct := t.Underlying().(*types.Struct); !isStruct && v.needs(t.Underlying()) {
		e, ok := v.elems("p", t.Underlying(), "addr")
		if !ok {
			return "", false
		}
		elems = "func() any { return " + e + " }"
	} else if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 && t != types.Typ[b.Kind()] {
		// range over an integer of the type yields values of the type.
		elems = fmt.Sprintf("func() any { _gtn := int(*p); if _gtn < 0 { _gtn = 0 }; _gtr := make([]any, _gtn); for _gti := range _gtr { _gtx := %s(_gti); _gtr[_gti] = %s(&_gtx, false, false) }; return _gtr }", ts, f)
	}
	vm, pm := displayMethods(t), displayMethods(types.NewPointer(t))
	value := "*p"
	if n, ok := t.(*types.Named); ok && compiledBase(n) != nil {
		// fmt would see the compiled type's methods.
		value = types.TypeString(n.Underlying(), nil) + "(*p)"
	}
	format := value
	if fc := fmtCall(value, "(*p)", vm); fc != "" {
		format = fc
	}
	pformat := "p"
	if pc := fmtCall("p", "p", pm); pc != "" {
		pformat = pc
	}
	// An action prints an addressable value with its pointer's String or
	// Error method.
	ptrPrint := !vm["String"] && !vm["Error"] && (pm["String"] || pm["Error"])
	format = "func(ptr bool) any { if ptr { return " + pformat + " }; return " + format + " }"
	fmt.Fprintf(&v.vars, "var %s func(*%s, bool, bool) any; ", f, ts)
	fmt.Fprintf(&v.defs, "%s = func(p *%s, addr, viaPtr bool) any { return %s.TemplateView(%s, p, addr, viaPtr, %s, %s, %s, %s, %s, %v) }; ",
		f, ts, rtName, strconv.Quote(v.g.goTypeName(t)), methods, fields, hidden, elems, format, ptrPrint)
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
		bound = nilEmbeddedCheck(t, m) + "return " + bound
		if value.Lookup(m.Pkg(), m.Name()) != nil {
			fmt.Fprintf(&b, "case %q: %s; ", m.Name(), bound)
		} else {
			fmt.Fprintf(&b, "case %q: if addr { %s }; ", m.Name(), bound)
		}
	}
	if b.Len() == 0 {
		return "nil", true
	}
	return "func(name string) any { switch name { " + b.String() + "}; return nil }", true
}

// nilEmbeddedCheck returns the statements that return, for method m of
// t promoted through pointers to embedded structs, the error Go's call
// of it gives when one it must follow is nil, or "".
func nilEmbeddedCheck(t types.Type, m *types.Func) string {
	_, index, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, m.Pkg(), m.Name())
	if len(index) < 2 {
		return ""
	}
	_, ptrRecv := m.Type().(*types.Signature).Recv().Type().(*types.Pointer)
	var b strings.Builder
	sel, cur := "p", t
	for k, i := range index[:len(index)-1] {
		st, ok := cur.Underlying().(*types.Struct)
		if !ok {
			return ""
		}
		f := st.Field(i)
		sel += "." + f.Name()
		cur = f.Type()
		if p, ok := cur.Underlying().(*types.Pointer); ok {
			cur = p.Elem()
			if k < len(index)-2 || !ptrRecv {
				fmt.Fprintf(&b, "if %s == nil { return %s.TemplateNilEmbedded(\"\") }; ", sel, rtName)
			}
		}
	}
	return b.String()
}

// boundMethod returns the source of method m bound to p, as a function
// whose results are views where they hold a cell's types with methods.
func (v *templateViewer) boundMethod(m *types.Func) (string, bool) {
	return v.resultView("p."+m.Name(), m.Type().(*types.Signature))
}

// resultView returns the source of a function that calls fn (source of
// a function of signature sig, evaluated without side effects) and
// returns the view of its result where it needs one, or fn itself.
func (v *templateViewer) resultView(fn string, sig *types.Signature) (string, bool) {
	res := sig.Results()
	if res.Len() == 0 || !v.needs(res.At(0).Type()) {
		return fn, true
	}
	if res.Len() > 2 || res.Len() == 2 && needsTemplateView(res.At(1).Type()) {
		return fn, true // the template refuses it
	}
	var params, args []string
	for i := range sig.Params().Len() {
		pt := sig.Params().At(i).Type()
		if sig.Variadic() && i == sig.Params().Len()-1 {
			ts, ok := v.g.typeSrc(pt.(*types.Slice).Elem())
			if !ok {
				return "", false
			}
			params = append(params, fmt.Sprintf("_gta%d ...%s", i, ts))
			args = append(args, fmt.Sprintf("_gta%d...", i))
			continue
		}
		ts, ok := v.g.typeSrc(pt)
		if !ok {
			return "", false
		}
		params = append(params, fmt.Sprintf("_gta%d %s", i, ts))
		args = append(args, fmt.Sprintf("_gta%d", i))
	}
	rt := res.At(0).Type()
	view, ok := v.view("&_gtres", rt, "false")
	if !ok {
		return "", false
	}
	call := fn + "(" + strings.Join(args, ", ") + ")"
	if res.Len() == 2 {
		ets, ok := v.g.typeSrc(res.At(1).Type())
		if !ok {
			return "", false
		}
		return "func(" + strings.Join(params, ", ") + ") (any, " + ets + ") { _gtres, _gterr := " + call + "; return " + view + ", _gterr }", true
	}
	return "func(" + strings.Join(params, ", ") + ") any { _gtres := " + call + "; return " + view + " }", true
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
	// walk lists the fields of st, a struct that the selector sel (p.,
	// p.Inner.) reaches through the pointers to embedded structs that
	// nils tests.
	var walk func(st *types.Struct, depth int, sel, nils string) bool
	walk = func(st *types.Struct, depth int, sel, nils string) bool {
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
				view, ok := v.view("&"+sel+f.Name(), f.Type(), "addr")
				if !ok {
					return false
				}
				fmt.Fprintf(&b, "case %q: %sreturn %s, true; ", f.Name(), nils, view)
			}
		}
		for i := range st.NumFields() {
			f := st.Field(i)
			if !f.Embedded() {
				continue
			}
			ft, inner := f.Type(), nils
			if p, ok := ft.Underlying().(*types.Pointer); ok {
				ft = p.Elem()
				// Go's reflection says where the pointer is nil.
				inner += fmt.Sprintf("if %s%s == nil { return %s.TemplateNilEmbedded(%q), true }; ", sel, f.Name(), rtName, f.Name())
			}
			if st, ok := ft.Underlying().(*types.Struct); ok && !walk(st, depth+1, sel+f.Name()+".", inner) {
				return false
			}
		}
		return true
	}
	if !walk(st, 0, "p.", "") {
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
