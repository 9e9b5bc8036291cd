package plan

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// Implicit conversions of a cell's struct values to compiled interfaces.
//
// yaegi makes a value of a struct type declared in a cell into a
// compiled interface (error, fmt.Stringer) with a wrapper whose value is
// the struct's last field, not the struct (its getConcreteValue looks for
// an emulated interface's value): "reflect: Method index out of range"
// for var e error = E{"m", 3}, and an error whose type assertions,
// errors.Is and errors.As see a string; a function's return statement
// gives the wrapper the right methods but the same value. The planner
// converts such values itself, return statements included: to error
// through _gt.Fmt with the type's methods (a compiled error that fmt
// prints with them, _gt.Identity opens and _gt.Named tells _gt.Equal the
// type of), to another compiled interface through a function literal
// whose result _gt.Rewrap gives the struct. A value of a cell's
// interface made a compiled interface is converted likewise, and a
// compiled value made a cell's interface goes through a variable of its
// own (see convIfaceToCompiled and convCompiledToCellIface): yaegi's
// conversions held the place of the value, not a copy of it.

// convNode rewrites the implicit conversions in one node: assignments,
// var declarations, call arguments, composite literal elements, sends
// and explicit conversions.
func (g *gen) convNode(n ast.Node, fc *fnCtx) {
	info := g.c.info
	switch n := n.(type) {
	case *ast.ReturnStmt:
		results := g.resultTypes(fc)
		if results == nil || len(results) != len(n.Results) {
			return
		}
		for i, r := range n.Results {
			g.convTo(r, results[i])
			g.convAny(r, results[i])
		}
	case *ast.AssignStmt:
		if n.Tok != token.ASSIGN || len(n.Lhs) != len(n.Rhs) {
			return
		}
		for i, l := range n.Lhs {
			if t := info.Types[l].Type; t != nil {
				g.convTo(n.Rhs[i], t)
				if len(n.Lhs) == 1 {
					g.convAny(n.Rhs[i], t) // several: see parallelAssign
				}
			}
		}
	case *ast.ValueSpec:
		if n.Type == nil || len(n.Values) != len(n.Names) {
			return
		}
		t := info.Types[n.Type].Type
		for _, v := range n.Values {
			g.convTo(v, t)
			if len(n.Values) == 1 {
				g.convAny(v, t) // several: see parallelAssign
			}
		}
	case *ast.SendStmt:
		if c, ok := info.Types[n.Chan].Type.Underlying().(*types.Chan); ok {
			g.convTo(n.Value, c.Elem())
			g.convAny(n.Value, c.Elem())
		}
	case *ast.CallExpr:
		tv := info.Types[n.Fun]
		if tv.IsType() {
			if len(n.Args) == 1 {
				g.convTo(n.Args[0], tv.Type)
				g.convAnyAt(n.Args[0], tv.Type, true)
			}
			return
		}
		if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && !n.Ellipsis.IsValid() && len(n.Args) > 1 {
			if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "append" {
				if st, ok := info.Types[n].Type.Underlying().(*types.Slice); ok {
					for _, a := range n.Args[1:] {
						g.convTo(a, st.Elem())
						g.convAny(a, st.Elem())
					}
				}
				return
			}
		}
		sig, ok := tv.Type.(*types.Signature)
		if !ok {
			return
		}
		// Compiled code given such a value: see compiledAnyCall; fmt's
		// and json's: their views.
		g.compiledArgs = compiledCallee(info, n.Fun) || g.contextValue(n)
		defer func() { g.compiledArgs = false }()
		params := sig.Params()
		for i, a := range n.Args {
			var target types.Type
			switch {
			case sig.Variadic() && i >= params.Len()-1:
				if n.Ellipsis.IsValid() {
					return
				}
				target = params.At(params.Len() - 1).Type().(*types.Slice).Elem()
			case i < params.Len():
				if len(n.Args) != params.Len() && !sig.Variadic() {
					return // f(g()) with several results
				}
				target = params.At(i).Type()
			default:
				continue
			}
			g.convTo(a, target)
			if !g.compiledArgs {
				g.convAny(a, target) // compiled code: see compiledAnyCall
			}
		}
	case *ast.CompositeLit:
		t := info.Types[n].Type
		if t == nil {
			return
		}
		convAny := g.convAny
		if g.viewed[n] {
			convAny = func(ast.Expr, types.Type) {}
		}
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		switch u := t.Underlying().(type) {
		case *types.Struct:
			for i, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						if f, ok := info.Uses[id].(*types.Var); ok {
							g.convTo(kv.Value, f.Type())
							convAny(kv.Value, f.Type())
						}
					}
				} else if i < u.NumFields() {
					g.convTo(e, u.Field(i).Type())
					convAny(e, u.Field(i).Type())
				}
			}
		case *types.Slice, *types.Array, *types.Map:
			var key, elem types.Type
			switch u := u.(type) {
			case *types.Slice:
				elem = u.Elem()
			case *types.Array:
				elem = u.Elem()
			case *types.Map:
				key, elem = u.Key(), u.Elem()
			}
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if key != nil {
						g.convTo(kv.Key, key)
					}
					e = kv.Value
				}
				g.convTo(e, elem)
				convAny(e, elem)
			}
		}
	}
}

// convTo converts e, when its type is a struct type declared in a cell,
// to target, when target is an interface with methods that no cell
// declared (see above).
func (g *gen) convTo(e ast.Expr, target types.Type) {
	g.warnAmbiguous(e, target)
	if !g.compiledArgs {
		g.warnUnnamedInAny(e, target)
	}
	if g.convIfaceToCompiled(e, target) {
		return
	}
	tv := g.c.info.Types[e]
	if tv.Type == nil || tv.IsType() || target == nil {
		return
	}
	n, ok := types.Unalias(tv.Type).(*types.Named)
	if !ok || !interpretedCell(n.Obj().Pkg()) || n.TypeArgs().Len() > 0 {
		return
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return
	}
	iface, ok := target.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 || isCellType(target) || !types.AssignableTo(n, target) {
		return
	}
	ts, ok1 := g.typeSrc(n)
	is, ok2 := g.typeSrc(target)
	if !ok1 || !ok2 {
		return
	}
	g.ed.insert(g.off(e.Pos()), "func(_gtx "+ts+") "+is+" { return "+structToCompiled(n, ts, is, target, "_gtx")+" }(")
	g.ed.insertClosing(g.off(e.End()), ")")
}

// structToCompiled returns the expression that converts x, a variable
// of n, a struct type declared in a cell whose source is ts, to target,
// a compiled interface whose source is is, as convTo says.
func structToCompiled(n *types.Named, ts, is string, target types.Type, x string) string {
	if types.Identical(target, errorIface) {
		return rtName + ".Named(" + fmtCall(x, x, displayMethods(n)) + ", " + strconv.Quote(cellTypeStr(ts)) + ").(error)"
	}
	if _, named := types.Unalias(target).(*types.Named); named {
		// A compiled interface: the interpreter's wrapper gets the
		// struct in place of its last field (see cellrt.Rewrap).
		return rewrapped(is, x)
	}
	return x
}

// rewrapped returns the expression that converts x, a variable of a
// cell's struct type or interface, to a compiled interface whose source
// is is, with the value itself in the interpreter's wrapper (see
// cellrt.Rewrap).
func rewrapped(is, x string) string {
	return rtName + ".Rewrap(func() " + is + " { return " + x + " }(), " + x + ").(" + is + ")"
}

// warnUnnamedInAny warns where a value of an unnamed slice, array or
// map type that holds values of a cell's non-struct types with fmt
// methods ([]Level, map[string]Temp) is made into an interface, target,
// in interpreted code: the interpreter names the values of named types
// in interfaces (see nameTag), not of unnamed ones, and a Level's reflect
// type is int's, so fmt and templates given the interface print it as
// the interpreter's value ([]int), without the methods. Composites of a
// cell's struct types print as Go prints them (see cellrt.FmtAny).
func (g *gen) warnUnnamedInAny(e ast.Expr, target types.Type) {
	tv := g.c.info.Types[e]
	if tv.Type == nil || tv.IsType() || tv.IsNil() || target == nil || !types.IsInterface(target) {
		return
	}
	switch tv.Type.(type) {
	case *types.Slice, *types.Array, *types.Map:
	default:
		return
	}
	// The cell's type with fmt methods that the value holds through
	// slices, arrays, maps and pointers: a struct's (of a cell's type)
	// reflect type is the interpreter's own, which fmt's dispatch finds
	// in the value when it runs (see cellrt.FmtAny).
	var found types.Type
	elemsHeld(tv.Type, true, func(t types.Type) bool {
		n, ok := types.Unalias(t).(*types.Named)
		if !ok || !isCellType(n) || structLike(n) {
			return false
		}
		for _, m := range displayMethods(types.NewPointer(n)) {
			if m {
				found = n
				return true
			}
		}
		return false
	})
	if found == nil {
		return
	}
	ts := types.TypeString(tv.Type, cellQualifier)
	g.warnf(e.Pos(), "a %s made into an interface prints without the fmt methods of %s (the interpreter names the values of named types in interfaces, and %s is unnamed): declare a named type for it (type Name %s) and convert the value to it",
		ts, types.TypeString(found, cellQualifier), ts, ts)
}

// convAny converts e, when its type is one declared in a cell with
// methods, to target, when target is an empty interface, through a
// variable of the interface: yaegi's return statement, conversion any(v)
// and assignment of a value that is not a variable's give the interface
// the bare value, which loses its type (a Temp float64 becomes a
// float64), where an assignment of a variable keeps it (see
// cellrt.CellType); and the interface that other conversions (an
// argument, an element of append or of a composite literal, a send, a
// field) make holds the variable itself, not its value, so the values
// that a loop appends of its range variable all read as the last. The
// function's parameter is a variable of each call's own. An interface
// with methods that a cell declares is the interpreter's too, and any
// conversion to it, an assignment of a variable's value included, held
// the variable: var v Valuer = c, then c.N = 2, changed v.Value(); so
// did a compiled one given a value of a cell's type that is not a struct
// (var s fmt.Stringer = t, then t = 7).
func (g *gen) convAny(e ast.Expr, target types.Type) { g.convAnyAt(e, target, false) }

// convAnyAt is convAny; with explicit set, e is the operand of a
// conversion to target (I(v)), which goes through a variable whether or
// not e is one: yaegi's conversion to an interface with methods of a
// value that is not a variable's gave an interface whose type assertion
// to the value's own type failed (I(V{8}).(V) was false).
func (g *gen) convAnyAt(e ast.Expr, target types.Type, explicit bool) {
	if g.convCompiledToCellIface(e, target) {
		return
	}
	tv := g.c.info.Types[e]
	if tv.Type == nil || tv.IsType() || target == nil || !isCellType(tv.Type) || types.IsInterface(tv.Type) {
		return
	}
	iface, ok := target.Underlying().(*types.Interface)
	if !ok || types.NewMethodSet(tv.Type).Len() == 0 {
		return
	}
	if iface.NumMethods() > 0 {
		// Only a variable's value is held in its place (a pointer is
		// itself the value); a struct to a compiled interface: see
		// convTo.
		_, isStruct := tv.Type.Underlying().(*types.Struct)
		_, isPtr := tv.Type.Underlying().(*types.Pointer)
		if isPtr || !tv.Addressable() && !explicit || isStruct && !isCellType(target) {
			return
		}
	}
	ts, ok1 := g.typeSrc(tv.Type)
	is, ok2 := g.typeSrc(target)
	if !ok1 || !ok2 {
		return
	}
	g.ed.insert(g.off(e.Pos()), throughVar(ts, is))
	g.ed.insertClosing(g.off(e.End()), ")")
}

// convCompiledToCellIface converts e, a value of a compiled type
// (time.Duration, image.Point, *bytes.Buffer, fmt.Stringer), to
// target, an interface with methods declared or written in a cell,
// through a variable of the interface (see throughVar), wherever the
// conversion is and whether or not e is a variable's value: the
// interpreter's interface holds the place the value was in, not a copy
// of it, so var s Shower = d, then d += time.Second, changed s, and the
// values that a loop appended as Shower(time.Duration(i)) all read as
// the last (the place of a value that is not a variable's is the
// frame's, used again by each iteration). It reports whether it
// converted e.
func (g *gen) convCompiledToCellIface(e ast.Expr, target types.Type) bool {
	tv := g.c.info.Types[e]
	if tv.Type == nil || tv.IsType() || tv.IsNil() || target == nil || !srcIface(target) || isTypeParam(target) {
		return false
	}
	if srcIface(tv.Type) || isTypeParam(tv.Type) || mentionsCellType(tv.Type) || types.NewMethodSet(tv.Type).Len() == 0 {
		return false
	}
	ts, ok1 := g.typeSrc(tv.Type)
	is, ok2 := g.typeSrc(target)
	if !ok1 || !ok2 {
		return false
	}
	open := throughVar(ts, is)
	if types.IsInterface(tv.Type) {
		// A nil compiled interface made a Shower that was not nil.
		open = "func(_gtx " + ts + ") " + is + " { if _gtx == nil { return nil }; var _gtr " + is + " = _gtx; return _gtr }("
	}
	g.ed.insert(g.off(e.Pos()), open)
	g.ed.insertClosing(g.off(e.End()), ")")
	return true
}

// convIfaceToCompiled converts e, a value of an interface with methods
// declared or written in a cell, to target, an interface with methods
// of a compiled package (fmt.Stringer, error, sort.Interface), through
// a variable of the cell's interface whose value _gt.Rewrap puts in the
// compiled interface: the interpreter's wrapper that gives the value
// compiled methods calls them on the place the value was in (var s
// fmt.Stringer = i, then i = V{2}, changed s) and holds, for a struct,
// its last field in place of the value (see convTo), so a type
// assertion s.(Point) was false, and one to the last field's type true;
// and a nil interface panicked where Go gives a nil one. It reports
// whether it converted e.
func (g *gen) convIfaceToCompiled(e ast.Expr, target types.Type) bool {
	tv := g.c.info.Types[e]
	if tv.Type == nil || tv.IsType() || tv.IsNil() || target == nil || !srcIface(tv.Type) || isTypeParam(tv.Type) {
		return false
	}
	iface, ok := target.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 || srcIface(target) || isTypeParam(target) || mentionsCellType(target) {
		return false
	}
	ts, ok1 := g.typeSrc(tv.Type)
	is, ok2 := g.typeSrc(target)
	if !ok1 || !ok2 {
		return false
	}
	var b strings.Builder
	b.WriteString("func(_gtx " + ts + ") " + is + " { if _gtx == nil { return nil };")
	if types.Identical(target, errorIface) {
		// The cell's struct errors as convTo makes them errors, which
		// errors.Is and errors.As find through fmt.Errorf's %w.
		// Types whose methods the cell declares are left to Rewrap.
		iface := tv.Type.Underlying().(*types.Interface)
		for _, tn := range g.cellTypeNames() {
			n := tn.Type().(*types.Named)
			if _, ok := n.Underlying().(*types.Struct); !ok || !types.Implements(n, iface) {
				continue
			}
			if ns, ok := g.typeSrc(n); ok {
				b.WriteString(" if _gtv, _gtok := _gtx.(" + ns + "); _gtok { return " + structToCompiled(n, ns, is, target, "_gtv") + " };")
			}
		}
	}
	b.WriteString(" return " + rewrapped(is, "_gtx") + " }(")
	g.ed.insert(g.off(e.Pos()), b.String())
	g.ed.insertClosing(g.off(e.End()), ")")
	return true
}

// isTypeParam reports whether t is a type parameter.
func isTypeParam(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.TypeParam)
	return ok
}

// throughVar returns the opening of a call that converts a value of the
// type ts to the interface is through a variable of the interface (see
// convAny), up to the argument.
func throughVar(ts, is string) string {
	return "func(_gtx " + ts + ") " + is + " { var _gtr " + is + " = _gtx; return _gtr }("
}

// keepResult makes the result of n, a call of an interpreted function
// whose result is of an empty interface or one declared in a cell, a
// variable's when n is an argument of fmt's or log's printing functions
// (which _gt.FmtAny opens) or the operand of a type assertion (parent is
// the node above n): yaegi hands such a result on bare, without the
// wrapper that names a value's type (see cellrt.CellType), so a cell's
// Temp float64 returned from func id(v any) any was a float64 to fmt and
// to assertions. A variable keeps the wrapper: the call becomes
// (*func() *T { _gtr := n; return &_gtr }()). Other compiled code is
// handed the bare value, as before: encoding/json reads the wrapper as
// an empty struct.
func (g *gen) keepResult(n *ast.CallExpr, parent ast.Node) {
	switch p := parent.(type) {
	case *ast.CallExpr:
		if !printingCallee(g.c.info, p.Fun) || !slices.Contains(p.Args, ast.Expr(n)) {
			return
		}
	case *ast.TypeAssertExpr:
		if p.X != ast.Expr(n) {
			return
		}
	default:
		return
	}
	tv := g.c.info.Types[n]
	if tv.Type == nil || !isIfaceValue(tv.Type) || g.c.info.Types[n.Fun].IsType() || compiledCallee(g.c.info, n.Fun) && !g.storeGetter(n) {
		return
	}
	if iface := tv.Type.Underlying().(*types.Interface); iface.NumMethods() > 0 && !isCellType(tv.Type) {
		return // a compiled interface holds a compiled value (see convTo)
	}
	if _, builtin := g.c.info.Uses[calleeIdent(n.Fun)].(*types.Builtin); builtin {
		return
	}
	ts, ok := g.typeSrc(tv.Type)
	if !ok {
		return
	}
	g.ed.insert(g.off(n.Pos()), "(*func() *"+ts+" { _gtr := ")
	g.ed.insertClosing(g.off(n.End()), "; return &_gtr }())")
}

// printingCallee reports whether fun, the function of a call, is one of
// fmt's or log's printing functions or methods.
func printingCallee(info *types.Info, fun ast.Expr) bool {
	id := calleeIdent(fun)
	if id == nil {
		return false
	}
	f, ok := info.Uses[id].(*types.Func)
	return ok && f.Pkg() != nil && (f.Pkg().Path() == "fmt" || f.Pkg().Path() == "log") && printing(f)
}

// compiledCallee reports whether fun, the function of a call, is a
// function or method of a compiled package.
func compiledCallee(info *types.Info, fun ast.Expr) bool {
	id := calleeIdent(fun)
	if id == nil {
		return false
	}
	f, ok := info.Uses[id].(*types.Func)
	return ok && f.Pkg() != nil && !interpretedCell(f.Pkg())
}

// calleeIdent returns the name of the function that fun denotes (f,
// pkg.F, x.M, f[T]), or nil.
func calleeIdent(fun ast.Expr) *ast.Ident {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	case *ast.IndexExpr:
		return calleeIdent(f.X)
	case *ast.IndexListExpr:
		return calleeIdent(f.X)
	}
	return nil
}

// warnAmbiguous warns when e, converted to target, an interface, is a
// value of a struct type without methods (or a pointer to one) that has
// the fields of a cell's struct type with methods: the interpreter gives
// both one reflect type and hands a value without methods on bare, as it
// does a value of the cell's type that passed through compiled code (a
// container/heap, a list.List), so type assertions, type switches and
// fmt take it for the cell's type.
func (g *gen) warnAmbiguous(e ast.Expr, target types.Type) {
	tv := g.c.info.Types[e]
	if tv.Type == nil || tv.IsType() || tv.IsNil() || target == nil || !types.IsInterface(target) || types.IsInterface(tv.Type) {
		return
	}
	t := tv.Type
	if !structLike(t) || isInstance(t) || types.NewMethodSet(t).Len() > 0 || types.NewMethodSet(types.NewPointer(t)).Len() > 0 {
		return
	}
	ptr := false
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	for _, tn := range g.cellTypeNames() {
		u := tn.Type()
		if types.Identical(u, t) || !types.Identical(u.Underlying(), t.Underlying()) {
			continue
		}
		withMethods := types.NewMethodSet(u).Len() > 0
		if ptr {
			withMethods = types.NewMethodSet(types.NewPointer(u)).Len() > 0
		}
		if !withMethods {
			continue
		}
		name, other := types.TypeString(tv.Type, cellQualifier), tn.Name()
		if ptr {
			other = "*" + other
		}
		g.warnf(e.Pos(), "a %s in an interface cannot be told from a %s, a type declared in a cell with the same fields and methods (the interpreter gives both one representation): type assertions, type switches and fmt would take it for a %s; declare the value as a %s, or give one of the types another field",
			name, other, other, other)
		return
	}
}
