package plan

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strconv"
	"strings"
)

// Values of cell types inside interfaces, formatted by fmt.
//
// fmtArgs gives fmt the methods of a cell type when the argument's type
// is that type. An argument of an interface type (a parameter v any, the
// elements of args ...any passed on with args...) holds a value whose
// type the planner does not know: yaegi hands it to compiled fmt as its
// own wrapper struct, printed as {0xc000... {...}}. The dispatch below
// finds the value's type among the session's types with fmt methods (as
// cellType.cond says), asserts to it, and formats it through _gt.Fmt as
// fmtArgs does.

// fmtDispatch returns a function literal, of type func(any) any, that
// gives a value of one of the session's types with String, Error, Format
// or GoString methods to fmt with them, and any other value as it is;
// "nil" when no type has such methods. A cell that declares types or
// methods assigns it to the prelude's _gtFmt (see dispatchVars), which
// the code of every cell uses: a function of an earlier cell formats a
// value of a type declared later.
func (g *gen) fmtDispatch() string {
	var b strings.Builder
	pending := g.pendingMethods()
	for _, tn := range g.cellTypeNames() {
		for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			call := fmtCall("_gtx", "_gtx", g.displayMethodsOf(t, pending))
			if call == "" {
				call = g.nestCall(t, pending) // see fmtNestArg
			}
			if call == "" {
				continue
			}
			ts, ok := g.typeSrc(t)
			if !ok {
				continue
			}
			// A named type that is not a struct is named in an interface
			// (see nameTag).
			c := cellType{ts, structLike(t)}
			b.WriteString(" if " + c.cond() + " { if _gtx, _gtok := _gtv.(" + ts + "); _gtok { return " + call + " } };")
		}
	}
	if b.Len() == 0 {
		return "nil"
	}
	return "func(_gtv any) any { _gtt := " + rtName + ".CellType(_gtv);" + b.String() + " return _gtv }"
}

// dispatchVars returns the assignments of the prelude's _gtFmt, _gtErr
// and _gtType (see fmtDispatch, errorMethods and typeDispatch) that a cell makes before its
// statements when it declares types or methods, or "".
func (g *gen) dispatchVars() string {
	if len(g.c.types) == 0 && len(g.c.methods) == 0 {
		return ""
	}
	g.warnLateTypes()
	g.noteFmtBases() // see fmtNestArg
	return fmtName + " = " + madeInCall(g.fmtDispatch(), "func(any) any") + "\n" +
		errName + " = " + madeInCall(g.errorMethods(), "func(any) (func() error, func() []error, func(error) bool)") + "\n" +
		typeName + " = " + madeInCall(g.typeDispatch(), "func(any) string") + "\n"
}

// fmtIfaceArg passes an argument of fmt's printing functions that holds
// values of interface type (an interface, []any, a struct with an any
// field, a map[string]any) through _gt.FmtAny with _gtFmt, unless the
// verbs that format it include %T or %p (which would see another value),
// or fmtArgs formats it with its type's methods or field names. With
// spread, the argument is the slice of args... .
func (g *gen) fmtIfaceArg(a ast.Expr, used []verb, spread bool) bool {
	t := g.c.info.Types[a].Type
	if t == nil || g.c.info.Types[a].IsNil() || !holdsInterface(t, 0) {
		return false
	}
	for _, v := range used {
		if strings.HasSuffix(v.verb, "T") || strings.HasSuffix(v.verb, "p") {
			return true
		}
		if len(v.verb) > 1 && isCellType(t) {
			return false // %+v, %#v: see describeCall
		}
	}
	if isCellType(t) && (fmtCall("", "", displayMethods(t)) != "" || fmtCall("", "", displayMethods(types.NewPointer(t))) != "") {
		return false
	}
	g.ed.insert(g.off(a.Pos()), rtName+".FmtAny(")
	if spread {
		g.ed.insertClosing(g.off(a.End()), ", "+fmtName+").([]any)")
	} else {
		g.ed.insertClosing(g.off(a.End()), ", "+fmtName+")")
	}
	return true
}

// holdsInterface reports whether a value of type t holds values of
// interface type that fmt prints: t itself, its elements or its fields,
// not through pointers but the one at the top (cellrt.FmtAny's walk).
func holdsInterface(t types.Type, depth int) bool {
	if depth > 8 {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Interface:
		return true
	case *types.Slice:
		return holdsInterface(u.Elem(), depth+1)
	case *types.Array:
		return holdsInterface(u.Elem(), depth+1)
	case *types.Map:
		return holdsInterface(u.Elem(), depth+1)
	case *types.Pointer:
		return depth == 0 && holdsInterface(u.Elem(), depth+1)
	case *types.Struct:
		for i := range u.NumFields() {
			if holdsInterface(u.Field(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// fmtSpread passes the slice of fmt.Print(args...)'s variadic arguments
// through _gt.FmtAny (see fmtIfaceArg).
func (g *gen) fmtSpread(call *ast.CallExpr, fn *types.Func) {
	sig := fn.Type().(*types.Signature)
	if !printing(fn) || !sig.Variadic() || len(call.Args) != sig.Params().Len() {
		return
	}
	var verbs map[int][]verb
	first := sig.Params().Len() - 1
	if v := g.c.info.Types[call.Args[max(first-1, 0)]].Value; strings.HasSuffix(fn.Name(), "f") && first >= 1 && v != nil && v.Kind() == constant.String {
		// %T and %p of a format the planner can read see the values
		// themselves (a format it cannot read sees yaegi's wrapper
		// either way).
		verbs = argVerbs(constant.StringVal(v))
		for _, vs := range verbs {
			for _, v := range vs {
				if strings.HasSuffix(v.verb, "T") || strings.HasSuffix(v.verb, "p") {
					return
				}
			}
		}
	}
	if types.Identical(g.c.info.Types[call.Args[first]].Type, types.NewSlice(types.NewInterfaceType(nil, nil))) {
		g.fmtIfaceArg(call.Args[first], nil, true)
	}
}

// printing reports whether fn, of fmt or log, prints its arguments (not
// fmt's Scan functions, which fill them).
func printing(fn *types.Func) bool {
	n := fn.Name()
	return strings.Contains(n, "rint") || strings.HasPrefix(n, "Append") || n == "Errorf" ||
		strings.HasPrefix(n, "Fatal") || strings.HasPrefix(n, "Panic") || n == "Output"
}

// typeDispatch returns a function literal, of type func(any) string,
// that gives Go's name of the type of a value of one of the session's
// types, which %T of a value in an interface prints (the interpreter's
// reflect type of a cell's struct is unnamed, and a value of a cell's
// type with methods in an interface is its wrapper), or "" for another
// value; "nil" when the session has no such types. A struct type (or a
// pointer to one) is tested as cellType.cond says, a type with methods by
// its name; a value of a type that is neither cannot be told from its
// underlying type's. Instances of generic types (and the types their
// code declares) are left out.
func (g *gen) typeDispatch() string {
	var b strings.Builder
	for _, tn := range g.cellTypeNames() {
		for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if !structLike(t) && types.NewMethodSet(t).Len() == 0 || isInstance(t) || strings.Contains(tn.Name(), sep) {
				continue
			}
			ts, ok := g.typeSrc(t)
			if !ok {
				continue
			}
			c := cellType{ts, structLike(t)}
			b.WriteString(" if " + c.cond() + " { if _, _gtok := _gtv.(" + ts + "); _gtok { return " + strconv.Quote(g.goTypeName(t)) + " } };")
		}
	}
	if b.Len() == 0 {
		return "nil"
	}
	return "func(_gtv any) string { _gtt := " + rtName + ".CellType(_gtv);" + b.String() + " return \"\" }"
}

// typeArg passes a, an argument of interface type that a format string
// literal formats only with %T (whose verb, at index at of newFormat, it
// makes %s), as its Go type name, which _gt.TypeName finds with _gtType.
func (g *gen) typeArg(a ast.Expr, newFormat *string, at int) {
	*newFormat = (*newFormat)[:at] + "s" + (*newFormat)[at+1:]
	g.ed.insert(g.off(a.Pos()), rtName+".TypeName(")
	g.ed.insertClosing(g.off(a.End()), ", "+typeName+")")
}

// madeInCall returns the expression that makes the function literal lit,
// of type typ, inside a call of its own ("nil" stays nil). yaegi locks the
// frame a function literal was made in whenever compiled code calls it,
// and holds the lock of a frame while its deferred calls run after a
// panic: a dispatch made in the cell's frame deadlocked a deferred
// fmt.Println(recover()) at the cell's top level.
func madeInCall(lit, typ string) string {
	if lit == "nil" {
		return lit
	}
	return "func() " + typ + " { return " + lit + " }()"
}
