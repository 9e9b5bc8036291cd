package plan

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// Type assertions and type switches to interfaces with methods.
//
// yaegi tests whether a value of a type declared in a cell implements an
// interface declared in a cell by comparing method signatures as strings,
// which fails (a.(Shape) is false, a type switch's case Shape panics with
// "method not found"); and it makes the value of a cell type asserted to
// a compiled interface (fmt.Stringer) from the frame of the function
// where the value was made into an interface, not the frame it runs in:
// a nil value, or another variable's. The planner knows which types
// declared in cells implement an interface, so it asserts to them
// first, as concrete types (which yaegi gets right), and converts the
// result to the interface; any other value goes through the assertion as
// written (compiled types: yaegi gets those right).

// assertIface rewrites e.(I), I an interface with methods that a type
// declared in a cell implements, into a function literal that tests the
// cell's types first. parent is the node above the assertion: the
// comma-ok form is an assignment or a var declaration of two names.
func (g *gen) assertIface(n *ast.TypeAssertExpr, parent ast.Node) {
	t := g.c.info.Types[n.Type].Type
	impls, ok := g.ifaceAssertion(t)
	if !ok {
		return
	}
	commaOk := isCommaOk(n, parent)
	// e.(I) becomes func(...){...}(e): the text from the dot to the
	// closing parenthesis goes.
	operand := "_gtv"
	if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && g.localVar(id) {
		operand = id.Name
	}
	g.ed.insert(g.off(n.X.Pos()), g.assertFunc(t, impls, commaOk, operand)+"(")
	g.ed.replace(g.off(n.X.End()), g.off(n.Rparen)+1, ")")
}

// ifaceAssertion reports whether assertIface rewrites an assertion to t,
// and returns the cell's types that implement it.
func (g *gen) ifaceAssertion(t types.Type) ([]cellType, bool) {
	if t == nil {
		return nil, false
	}
	iface, ok := t.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return nil, false
	}
	impls := g.cellImplementers(iface, nil)
	if len(impls) == 0 && g.compiledCheck(t) == "" {
		return nil, false
	}
	if _, ok := g.typeSrc(t); !ok {
		return nil, false
	}
	return impls, true
}

// switchIface rewrites a type switch that has a case of an interface
// with methods that a type declared in a cell implements into an
// expression switch whose cases test the types as assertFunc does, the
// cell's types first, and bind the switch's variable again:
//
//	switch x := v.(type) { case Shape: A; case int: B; default: C }
//
// becomes
//
//	switch _gtsx := v; { case func(...) bool {...}(_gtsx): x := func(...) Shape {...}(_gtsx); _ = x; A
//	case func(...) bool {...}(_gtsx): x := _gtsx.(int); _ = x; B; default: x := _gtsx; _ = x; C }
//
// An interface declared in a cell is tested through the cell's types
// alone: yaegi's own test of it is wrong. So is a switch over a compiled
// interface with methods (fmt.Stringer) that has a case of a cell's
// type: yaegi's switch does not see through its wrapper of the cell's
// value, and the case tests it by a comma-ok assertion, which does.
func (g *gen) switchIface(sw *ast.TypeSwitchStmt) {
	if sw.Init != nil {
		return
	}
	var guard *ast.TypeAssertExpr
	var bound *ast.Ident
	switch a := sw.Assign.(type) {
	case *ast.AssignStmt:
		guard, _ = a.Rhs[0].(*ast.TypeAssertExpr)
		bound, _ = a.Lhs[0].(*ast.Ident)
	case *ast.ExprStmt:
		guard, _ = a.X.(*ast.TypeAssertExpr)
	}
	if guard == nil {
		return
	}
	type typeCase struct {
		cells  []cellType // the cell's types with methods that select the case
		tests  []string   // the other types that select it
		null   bool       // whether nil selects it
		checks []string   // the compiledCheck of its interfaces declared in cells
		bind   string     // the variable's value in the case
	}
	rewrite := false
	cases := make([]typeCase, len(sw.Body.List))
	for i, st := range sw.Body.List {
		cc := st.(*ast.CaseClause)
		tc := &cases[i]
		tc.bind = "_gtsx"
		for _, e := range cc.List {
			tv := g.c.info.Types[e]
			if tv.IsNil() {
				tc.null = true
				continue
			}
			ts, ok := g.typeSrc(tv.Type)
			if !ok {
				return
			}
			iface, isIface := tv.Type.Underlying().(*types.Interface)
			if !isIface || iface.NumMethods() == 0 {
				// A type the interpreter takes other types for (see
				// concreteCond): a cell's type is tested by its name,
				// another only when the value is bare (the tests come
				// after "_gtt != """).
				_, confused := g.concreteCond(tv.Type)
				xt := g.c.info.Types[guard.X].Type
				confused = confused && g.mayConfuse(xt)
				// A compiled interface with methods holds a cell's
				// value in the interpreter's wrapper, which its type
				// switch does not see through: its assertion does.
				rewrite = rewrite || confused || isCellType(tv.Type) && !g.mayConfuse(xt)
				switch {
				case isCellType(tv.Type) && !isIface && confused:
					tc.cells = append(tc.cells, cellType{ts, structLike(tv.Type) || types.NewMethodSet(tv.Type).Len() == 0})
				default:
					tc.tests = append(tc.tests, ts)
				}
				if len(cc.List) == 1 {
					tc.bind = "_gtsx.(" + ts + ")"
				}
				continue
			}
			impls := g.cellImplementers(iface, nil)
			check := g.compiledCheck(tv.Type)
			rewrite = rewrite || len(impls) > 0 || check != ""
			tc.checks = append(tc.checks, check)
			tc.cells = append(tc.cells, impls...)
			if len(impls) == 0 || !isCellType(tv.Type) {
				tc.tests = append(tc.tests, ts)
			}
			if len(cc.List) == 1 {
				tc.bind = g.assertFunc(tv.Type, impls, false, "_gtsx") + "(_gtsx)"
			}
		}
	}
	if !rewrite {
		return
	}
	g.ed.replace(g.off(sw.Assign.Pos()), g.off(guard.X.Pos()), "_gtsx := ")
	g.ed.replace(g.off(guard.X.End()), g.off(sw.Assign.End()), ";")
	for i, st := range sw.Body.List {
		cc := st.(*ast.CaseClause)
		if cc.List != nil {
			// A value of a cell's type with methods is tested by its
			// type's name (see cellrt.CellType); the others as written.
			var b strings.Builder
			b.WriteString("case func(_gtv any) bool { if _gtv == nil { return " + strconv.FormatBool(cases[i].null) + " };")
			b.WriteString(" _gtt := " + rtName + ".CellType(_gtv);")
			for _, c := range cases[i].cells {
				b.WriteString(" if " + c.cond() + " { if _, _gtok := _gtv.(" + c.src + "); _gtok { return true } };")
			}
			for _, c := range cases[i].checks {
				b.WriteString(c)
			}
			b.WriteString(" if " + rtName + ".InPackage(_gtt, \"" + cellPath + "\") { return false };")
			for _, t := range cases[i].tests {
				b.WriteString(" if _, _gtok := _gtsx.(" + t + "); _gtok { return true };")
			}
			b.WriteString(" return false }(_gtsx)")
			g.ed.replace(g.off(cc.Case), g.off(cc.Colon), b.String())
		}
		if bound != nil {
			g.ed.insert(g.off(cc.Colon)+1, " "+bound.Name+" := "+cases[i].bind+"; _ = "+bound.Name+";")
		}
	}
}

// assertFunc returns a function literal that asserts its argument to
// the interface iface: to the cell's types impls first, each by a
// concrete assertion tested as cellType.cond says (yaegi gets "if x, ok
// := v.(T); ok" right where a type switch's case of a pointer type gives
// a zero value, and its own test of an interface declared in a cell is
// wrong), any other value by the assertion of operand to iface itself:
// the argument, _gtv, or the local variable the argument is (yaegi's assertion of a compiled value held in an interface
// written in a cell fails on the any it is passed as). A value of a
// cell's struct type found for a compiled iface is converted to it as
// convTo converts it: returned bare, the interpreter's wrapper held the
// struct's last field, so any(p).(fmt.Stringer).(Point) was false, and
// errors.As did not find a struct error asserted from an any to error.
func (g *gen) assertFunc(iface types.Type, impls []cellType, commaOk bool, operand string) string {
	is, _ := g.typeSrc(iface)
	var b strings.Builder
	// A nil is tested before the value goes to compiled code: a nil
	// interface declared in a cell is no value there.
	if commaOk {
		b.WriteString("func(_gtv any) (" + is + ", bool) { if _gtv == nil { return nil, false };")
	} else {
		b.WriteString("func(_gtv any) " + is + " { if _gtv == nil { panic(" + rtName + ".NotType(nil, \"\", \"interface\", " + strconv.Quote(g.goTypeName(iface)) + ")) };")
	}
	b.WriteString(" _gtt := " + rtName + ".CellType(_gtv);")
	for _, c := range impls {
		value := "_gtx"
		if c.structLike && !strings.HasPrefix(c.src, "*") && !srcIface(iface) {
			// Methods the cell declares are not in n's method set yet.
			if n := g.cellStruct(c.src); n != nil && types.Implements(n, iface.Underlying().(*types.Interface)) {
				// A struct made a compiled interface as convTo makes it.
				value = structToCompiled(n, c.src, is, iface, "_gtx")
			}
		}
		b.WriteString(" if " + c.cond() + " { if _gtx, _gtok := _gtv.(" + c.src + "); _gtok { return " + value)
		if commaOk {
			b.WriteString(", true")
		}
		b.WriteString(" } };")
	}
	b.WriteString(g.compiledCheck(iface))
	if commaOk {
		b.WriteString(" if " + rtName + ".InPackage(_gtt, \"" + cellPath + "\") { return nil, false };")
		b.WriteString(" _gtr, _gtok := " + operand + ".(" + is + "); return _gtr, _gtok }")
	} else {
		b.WriteString(" if " + rtName + ".InPackage(_gtt, \"" + cellPath + "\") { panic(" + rtName + ".NotInterface(_gtt, " + strconv.Quote(g.goTypeName(iface)) + ")) };")
		b.WriteString(" return " + operand + ".(" + is + ") }")
	}
	return b.String()
}

// cellStruct returns the struct type declared in a cell whose source is
// src, or nil.
func (g *gen) cellStruct(src string) *types.Named {
	for _, tn := range g.cellTypeNames() {
		n := tn.Type().(*types.Named)
		if _, ok := n.Underlying().(*types.Struct); ok {
			if ts, ok := g.typeSrc(n); ok && ts == src {
				return n
			}
		}
	}
	return nil
}

// cellType is a type declared in a cell with methods, or a pointer to
// one, as generated code tests an interface value for it.
type cellType struct {
	src        string // its source
	structLike bool   // a struct type or a pointer to one
}

// cond returns the condition under which generated code asserts a value
// _gtv, whose cellrt.CellType is _gtt, to the type. yaegi hands a value
// of a cell's type with methods inside an interface either in a wrapper
// that names its type (_gtt) or bare; a type assertion compares reflect
// types, which a cell's type Temp float64 shares with float64. So the
// name is tested, and a bare value is asserted only to struct types
// (their reflect types are the interpreter's own): a bare Temp is not
// recognized.
func (c cellType) cond() string {
	q := strconv.Quote(cellTypeStr(c.src))
	if c.structLike {
		return "(_gtt == " + q + " || _gtt == \"\")"
	}
	return "_gtt == " + q
}

// structLike reports whether t is a struct type or a pointer to one.
func structLike(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// cellTypeStr returns the interpreter's name of a type declared in a
// cell, or of a pointer to one, from its source ("*main.P" for "*P"), as
// cellrt.CellType gives it.
func cellTypeStr(ts string) string {
	if p, ok := strings.CutPrefix(ts, "*"); ok {
		return "*" + cellPath + "." + p
	}
	return cellPath + "." + ts
}

// cellImplementers returns the types declared in cells, and pointers to
// them, that implement iface and are not in skip, in a stable order: the
// cell's own package-level types and the session's.
func (g *gen) cellImplementers(iface *types.Interface, skip map[string]bool) []cellType {
	var out []cellType
	pending := g.pendingMethods()
	for _, tn := range g.cellTypeNames() {
		for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if !g.implements(t, iface, pending) {
				continue
			}
			ts, ok := g.typeSrc(t)
			if !ok || skip[ts] {
				continue
			}
			out = append(out, cellType{ts, structLike(t)})
		}
	}
	return out
}

// cellTypeNames returns the types declared in cells that are not
// interfaces, generic or aliases, in a stable order: the cell's own
// package-level types and the session's.
func (g *gen) cellTypeNames() []*types.TypeName {
	seen := map[*types.TypeName]bool{}
	var names []*types.TypeName
	add := func(obj types.Object) {
		tn, ok := obj.(*types.TypeName)
		if !ok || tn.IsAlias() || seen[tn] || !interpretedCell(tn.Pkg()) {
			return
		}
		n, ok := tn.Type().(*types.Named)
		if !ok || n.TypeParams().Len() > 0 || types.IsInterface(n) {
			return
		}
		seen[tn] = true
		names = append(names, tn)
	}
	for _, name := range g.c.pkg.Scope().Names() {
		add(g.c.pkg.Scope().Lookup(name))
	}
	for _, e := range g.s.entries {
		add(e.obj)
	}
	sort.Slice(names, func(i, j int) bool { return names[i].Name() < names[j].Name() })
	return names
}

// ifaceNode is the hook of node for assertions and type switches; parent
// is the node above n, fc the function it is in.
func (g *gen) ifaceNode(n ast.Node, parent ast.Node, fc *fnCtx) {
	switch n := n.(type) {
	case *ast.TypeAssertExpr:
		if n.Type != nil {
			g.assertIface(n, parent)
			g.assertConcrete(n, parent)
			g.warnSameFields(n.Type.Pos(), g.c.info.Types[n.Type].Type)
			if !fc.cellBody {
				g.recordAssert(g.c.info.Types[n.Type].Type, n.Pos())
			}
		}
	case *ast.TypeSwitchStmt:
		g.switchIface(n)
		for _, st := range n.Body.List {
			for _, e := range st.(*ast.CaseClause).List {
				g.warnSameFields(e.Pos(), g.c.info.Types[e].Type)
			}
		}
		if fc.cellBody {
			return
		}
		for _, st := range n.Body.List {
			for _, e := range st.(*ast.CaseClause).List {
				g.recordAssert(g.c.info.Types[e].Type, e.Pos())
			}
		}
	}
}

// assertSite is an interface that a function of a cell tests values for:
// the generated code knows the types declared in cells up to that cell.
type assertSite struct {
	iface *types.Interface
	name  string // the interface's name in messages
	cell  int
	// fn is the function or method ("T.M") whose body tests, with its
	// declaration (doc comment included); "" for another place.
	fn, src string
	method  bool
}

// recordAssert records, when the cell commits, that a function of it
// tests values for t, an interface with methods, at pos.
func (g *gen) recordAssert(t types.Type, pos token.Pos) {
	if t == nil {
		return
	}
	iface, ok := t.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return
	}
	site := assertSite{iface: iface, name: types.TypeString(t, cellQualifier), cell: g.c.n}
	for _, fd := range append(append([]*ast.FuncDecl{}, g.c.funcs...), g.c.methods...) {
		if fd.Body == nil || pos < fd.Body.Pos() || pos >= fd.Body.End() || fd.Type.TypeParams != nil {
			continue
		}
		if _, inst := g.c.instDecls[fd]; inst {
			break
		}
		site.fn = fd.Name.Name
		if fd.Recv != nil {
			recv, _ := recvBase(fd.Recv.List[0].Type)
			site.fn, site.method = recv+"."+fd.Name.Name, true
		}
		start := fd.Pos()
		if fd.Doc != nil {
			start = fd.Doc.Pos()
		}
		site.src = g.c.text[g.off(start):g.off(fd.End())]
	}
	g.commitAfter(-1, func() { g.s.asserts = append(g.s.asserts, site) })
}

// current reports whether the function or method of the site is still
// the one the session has by its name (it was not declared again since),
// or the site is in no function.
func (s *Session) current(site assertSite) bool {
	if site.fn == "" {
		return true
	}
	if recv, name, ok := strings.Cut(site.fn, "."); ok && site.method {
		e := s.entries[recv]
		if e == nil {
			return false
		}
		tn, _ := e.obj.(*types.TypeName)
		cell, ok := s.methods[tn][name]
		return ok && cell == site.cell
	}
	e := s.entries[site.fn]
	return e != nil && e.cell == site.cell
}

// staleAsserts returns the functions of earlier cells whose assertions
// or type switches test values for an interface that a type the checked
// cell c declares (or adds methods to) implements, and that c does not
// declare itself: their
// sources, to be declared again with the cell, so that they know the
// type, as Go's code would (see planStale). Methods cannot be declared
// again: warnLateTypes warns about them.
func (s *Session) staleAsserts(c *cell) (funcs, srcs []string) {
	seen := map[string]bool{}
	var declared []*types.TypeName // the cell's types, and those it adds methods to
	for _, ts := range c.types {
		if tn, ok := c.info.Defs[ts.Name].(*types.TypeName); ok {
			declared = append(declared, tn)
		}
	}
	// Earlier types given methods by the cell: their names.
	added := map[*types.TypeName]map[string]bool{}
	for _, md := range c.methods {
		name, _ := recvBase(md.Recv.List[0].Type)
		e := s.entries[name]
		if _, ok := c.earlier[md]; !ok || e == nil {
			continue
		}
		if tn, ok := e.obj.(*types.TypeName); ok {
			if added[tn] == nil {
				added[tn] = map[string]bool{}
				declared = append(declared, tn)
			}
			added[tn][md.Name.Name] = true
		}
	}
	// implements reports whether tn, with the methods the cell adds,
	// implements iface (the added ones by name).
	implements := func(tn *types.TypeName, iface *types.Interface) bool {
		if added[tn] == nil {
			return types.Implements(tn.Type(), iface) || types.Implements(types.NewPointer(tn.Type()), iface)
		}
		ms := types.NewMethodSet(types.NewPointer(tn.Type()))
		for i := range iface.NumMethods() {
			m := iface.Method(i).Name()
			if !added[tn][m] && ms.Lookup(iface.Method(i).Pkg(), m) == nil {
				return false
			}
		}
		return true
	}
	for _, tn := range declared {
		if types.IsInterface(tn.Type()) {
			continue
		}
		for _, site := range s.asserts {
			if site.fn == "" || site.method || site.cell == c.n || seen[site.fn] || c.declared[site.fn] || !s.current(site) {
				continue
			}
			if !implements(tn, site.iface) {
				continue
			}
			if old, ok := s.entries[tn.Name()]; ok && added[tn] == nil {
				if ot, ok := old.obj.(*types.TypeName); ok && (types.Implements(ot.Type(), site.iface) || types.Implements(types.NewPointer(ot.Type()), site.iface)) {
					continue // the name was such a type already
				}
			}
			seen[site.fn] = true
			funcs, srcs = append(funcs, site.fn), append(srcs, site.src)
		}
	}
	return funcs, srcs
}

// warnLateTypes warns about each type the cell declares that implements an
// interface which functions of earlier cells test values for (see
// recordAssert): their code does not know the type.
func (g *gen) warnLateTypes() {
	warned := map[string]bool{}
	type declared struct {
		tn  *types.TypeName
		pos token.Pos
	}
	var decls []declared
	for _, ts := range g.c.types {
		if tn, ok := g.c.info.Defs[ts.Name].(*types.TypeName); ok {
			decls = append(decls, declared{tn, ts.Name.Pos()})
		}
	}
	pending := g.pendingMethods()
	for _, m := range pending {
		// A method on an earlier type may make it implement the interface.
		for _, md := range g.c.methods {
			if fn, ok := g.c.earlier[md]; ok && md.Name.Name == m.name && g.c.info.Defs[fn.Name] != nil {
				decls = append(decls, declared{m.tn, md.Name.Pos()})
				break
			}
		}
	}
	for _, d := range decls {
		tn := d.tn
		if types.IsInterface(tn.Type()) {
			continue
		}
		for _, site := range g.s.asserts {
			key := tn.Name() + "\x00" + site.name + "\x00" + strconv.Itoa(site.cell)
			before := types.Implements(tn.Type(), site.iface) || types.Implements(types.NewPointer(tn.Type()), site.iface)
			now := g.implements(tn.Type(), site.iface, pending) || g.implements(types.NewPointer(tn.Type()), site.iface, pending)
			if site.cell == g.c.n || warned[key] || !now || before && g.s.isEntry(tn) || g.c.declared[site.fn] || !g.s.current(site) {
				// The function is declared again with this cell (see
				// staleAsserts), or was since its cell.
				continue
			}
			warned[key] = true
			where := "a function of cell " + strconv.Itoa(site.cell)
			if site.fn != "" {
				where = site.fn + " (cell " + strconv.Itoa(site.cell) + ")"
			}
			g.warnf(d.pos, "type %s implements %s, which a type assertion or type switch in %s tests values for: that code knows the types declared up to cell %d, and given a %s it would not take it for a %s; run cell %d again",
				tn.Name(), site.name, where, site.cell, tn.Name(), site.name, site.cell)
		}
	}
}

// errorsIs makes errors.Is and errors.Unwrap the runtime's ErrorsIsWith
// and ErrorsUnwrapWith, given the prelude's _gtErr: the Unwrap and Is
// methods of the error types declared in cells, which compiled code does
// not see (see errorMethods).
func (g *gen) errorsIs(call *ast.CallExpr, name string) {
	if len(call.Args) == 0 || call.Ellipsis.IsValid() {
		return
	}
	// The hook's replacement of errors.Is, made later, yields to this.
	g.ed.replace(g.off(call.Fun.Pos()), g.off(call.Fun.End()), rtName+".Errors"+name+"With")
	// An insertion, not a closing: it follows every closing of the last
	// argument's rewrites, made before or after this (a cell's struct
	// value converted to error).
	g.ed.insert(g.off(call.Args[len(call.Args)-1].End()), ", "+errName)
}

// errorMethods returns a function literal of type
// cellrt.CellErrorMethods that gives the Unwrap and Is methods of the
// session's error types that have them, found by concrete assertions of
// the values compiled code holds (the interpreter's bare values, see
// cellrt.Identity); "nil" when no type has them. A cell that declares
// types or methods assigns it to the prelude's _gtErr (see dispatchVars).
func (g *gen) errorMethods() string {
	errT := errorIface
	sig := func(params, results []types.Type) *types.Signature {
		vars := func(ts []types.Type) *types.Tuple {
			var vs []*types.Var
			for _, t := range ts {
				vs = append(vs, types.NewParam(0, nil, "", t))
			}
			return types.NewTuple(vs...)
		}
		return types.NewSignatureType(nil, nil, nil, vars(params), vars(results), false)
	}
	methods := []struct {
		name string
		sig  *types.Signature
	}{
		{"Unwrap", sig(nil, []types.Type{errT})},
		{"Unwrap", sig(nil, []types.Type{types.NewSlice(errT)})},
		{"Is", sig([]types.Type{errT}, []types.Type{types.Typ[types.Bool]})},
	}
	var b strings.Builder
	pending := g.pendingMethods()
	for _, tn := range g.cellTypeNames() {
		for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if !g.implements(t, errT.Underlying().(*types.Interface), pending) {
				continue
			}
			results := []string{"nil", "nil", "nil"}
			has := false
			for i, m := range methods {
				iface := types.NewInterfaceType([]*types.Func{types.NewFunc(0, nil, m.name, m.sig)}, nil).Complete()
				if g.implements(t, iface, pending) {
					results[i] = "_gtx." + m.name
					has = true
				}
			}
			ts, ok := g.typeSrc(t)
			if !has || !ok {
				continue
			}
			b.WriteString(" if _gtx, _gtok := _gtv.(" + ts + "); _gtok { return " + strings.Join(results, ", ") + " };")
		}
	}
	if b.Len() == 0 {
		return "nil"
	}
	return "func(_gtv any) (func() error, func() []error, func(error) bool) { if _gtv == nil { return nil, nil, nil };" + b.String() + " return nil, nil, nil }"
}

// pendingMethod is a method the cell declares on a type of an earlier
// cell: the type has it once the cell commits (see commitDecls), but the
// code generated for the cell must count it.
type pendingMethod struct {
	tn   *types.TypeName
	name string
	sig  *types.Signature // without the receiver
	ptr  bool             // declared on the pointer
}

// pendingMethods returns the methods the cell declares on types of
// earlier cells.
func (g *gen) pendingMethods() []pendingMethod {
	var out []pendingMethod
	for _, m := range g.c.methods {
		fn, ok := g.c.earlier[m]
		if !ok {
			continue
		}
		name, _ := recvBase(m.Recv.List[0].Type)
		e, ok := g.s.entries[name]
		if !ok {
			continue
		}
		tn, _ := e.obj.(*types.TypeName)
		f, _ := g.c.info.Defs[fn.Name].(*types.Func)
		if tn == nil || f == nil {
			continue
		}
		if _, had := g.s.methods[tn][m.Name.Name]; had {
			continue // kept as it was (see skipMethod)
		}
		sig := f.Type().(*types.Signature)
		params := make([]*types.Var, 0, sig.Params().Len())
		for i := 1; i < sig.Params().Len(); i++ {
			params = append(params, sig.Params().At(i))
		}
		_, ptr := m.Recv.List[0].Type.(*ast.StarExpr)
		out = append(out, pendingMethod{tn, m.Name.Name,
			types.NewSignatureType(nil, nil, nil, types.NewTuple(params...), sig.Results(), sig.Variadic()), ptr})
	}
	return out
}

// methodOf returns the signature of t's method name, counting the
// methods the cell adds to earlier types, or nil.
func (g *gen) methodOf(t types.Type, name string, pending []pendingMethod) *types.Signature {
	ms := types.NewMethodSet(t)
	for i := range ms.Len() {
		if f := ms.At(i).Obj(); f.Name() == name {
			return f.Type().(*types.Signature)
		}
	}
	base, isPtr := t, false
	if p, ok := t.(*types.Pointer); ok {
		base, isPtr = p.Elem(), true
	}
	for _, m := range pending {
		if m.name == name && types.Identical(m.tn.Type(), base) && (isPtr || !m.ptr) {
			return m.sig
		}
	}
	return nil
}

// implements is types.Implements counting the methods the cell adds to
// earlier types.
func (g *gen) implements(t types.Type, iface *types.Interface, pending []pendingMethod) bool {
	if types.Implements(t, iface) {
		return true
	}
	for i := range iface.NumMethods() {
		m := iface.Method(i)
		sig := g.methodOf(t, m.Name(), pending)
		want := m.Type().(*types.Signature)
		if sig == nil || !types.Identical(types.NewSignatureType(nil, nil, nil, sig.Params(), sig.Results(), sig.Variadic()),
			types.NewSignatureType(nil, nil, nil, want.Params(), want.Results(), want.Variadic())) {
			return false
		}
	}
	return true
}

// displayMethodsOf is displayMethods counting the methods the cell adds
// to earlier types.
func (g *gen) displayMethodsOf(t types.Type, pending []pendingMethod) map[string]bool {
	out := displayMethods(t)
	for _, name := range []string{"String", "Error", "GoString", "Format"} {
		if out[name] {
			continue
		}
		sig := g.methodOf(t, name, pending)
		if sig == nil {
			continue
		}
		if name == "Format" {
			out[name] = isFunc(sig, "fmt.State, rune", "")
		} else {
			out[name] = isFunc(sig, "", "string")
		}
	}
	return out
}

// concreteCond returns the condition on _gtt, the cellrt.CellType of a
// value _gtv, under which the interpreter's assertion of _gtv to t, a
// type that is not an interface, answers as Go's, and whether one is
// needed. yaegi's assertion to a concrete type compares reflect types,
// which types of cells share with others: a cell's Temp float64 with
// float64, its struct types with struct types of the same fields. A
// cell's type is tested by name as cellType.cond says (a type without
// methods is never in a wrapper, so a bare value may be one); a type
// that is not a cell's but has the reflect type of a cell's type with
// methods (float64, struct{ S float64 }) is never in a wrapper, so only
// a bare value is one.
func (g *gen) concreteCond(t types.Type) (string, bool) {
	if isInstance(t) || types.IsInterface(t) {
		return "", false
	}
	if isCellType(t) {
		ts, ok := g.typeSrc(t)
		if !ok {
			return "", false
		}
		return cellType{ts, structLike(t) || types.NewMethodSet(t).Len() == 0}.cond(), true
	}
	for _, tn := range g.cellTypeNames() {
		for _, ct := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if types.NewMethodSet(ct).Len() == 0 {
				continue
			}
			if types.Identical(t, ct.Underlying()) || types.Identical(t, types.NewPointer(tn.Type().Underlying())) && ct != tn.Type() {
				return "!" + rtName + ".InPackage(_gtt, \"" + cellPath + "\")", true
			}
		}
	}
	return "", false
}

// assertConcrete rewrites e.(T), T a type that is not an interface and
// whose values concreteCond says the interpreter may take others for,
// into a function literal that tests the value's type name first.
// parent is the node above the assertion (see assertIface).
func (g *gen) assertConcrete(n *ast.TypeAssertExpr, parent ast.Node) {
	t, cond, ts, ok := g.concreteAssertion(n)
	if !ok {
		return
	}
	commaOk := isCommaOk(n, parent)
	var b strings.Builder
	if commaOk {
		b.WriteString("func(_gtv any) (" + ts + ", bool) { var _gtz " + ts + "; if _gtv == nil { return _gtz, false };")
		b.WriteString(" if _gtt := " + rtName + ".CellType(_gtv); " + cond + " { _gtx, _gtok := _gtv.(" + ts + "); return _gtx, _gtok }; return _gtz, false }(")
	} else {
		static := "interface {}"
		if x := g.c.info.Types[n.X].Type; x != nil && x.Underlying().(*types.Interface).NumMethods() > 0 {
			static = goTypeName(x)
		}
		b.WriteString("func(_gtv any) " + ts + " { if _gtv == nil { panic(" + rtName + ".NotType(nil, \"\", " + strconv.Quote(static) + ", " + strconv.Quote(g.goTypeName(t)) + ")) };")
		// The value's Go type name, not the interpreter's (_gtt is ""
		// for a struct, and the interpreter's message names its
		// representation).
		fail := " panic(" + rtName + ".NotType(_gtv, " + rtName + ".TypeName(_gtv, " + typeName + "), " + strconv.Quote(static) + ", " + strconv.Quote(g.goTypeName(t)) + "))"
		b.WriteString(" if _gtt := " + rtName + ".CellType(_gtv); !(" + cond + ") {" + fail + " };")
		b.WriteString(" if _gtx, _gtok := _gtv.(" + ts + "); _gtok { return _gtx };" + fail + " }(")
	}
	g.ed.insert(g.off(n.X.Pos()), b.String())
	g.ed.replace(g.off(n.X.End()), g.off(n.Rparen)+1, ")")
}

// concreteAssertion reports whether assertConcrete rewrites n, and
// returns the asserted type, concreteCond's condition on it and its
// source.
func (g *gen) concreteAssertion(n *ast.TypeAssertExpr) (t types.Type, cond, src string, ok bool) {
	t = g.c.info.Types[n.Type].Type
	if t == nil || !g.mayConfuse(g.c.info.Types[n.X].Type) {
		return nil, "", "", false
	}
	if cond, ok = g.concreteCond(t); !ok {
		return nil, "", "", false
	}
	if src, ok = g.typeSrc(t); !ok {
		return nil, "", "", false
	}
	return t, cond, src, true
}

// warnSameFields warns at a type assertion or type switch case (pos) to
// t, a struct type without methods or a pointer to one, when a type
// declared in a cell other than t has the same fields: the interpreter
// gives both one representation and neither a name (only values of types
// with methods carry one, see cellrt.CellType), so the assertion takes a
// value of the other type for a t. (A value without methods that has the
// fields of a type with methods warns where it is made into an
// interface, see warnAmbiguous.)
func (g *gen) warnSameFields(pos token.Pos, t types.Type) {
	if t == nil || types.IsInterface(t) || !structLike(t) || isInstance(t) ||
		types.NewMethodSet(t).Len() > 0 || types.NewMethodSet(types.NewPointer(t)).Len() > 0 {
		return
	}
	base := t
	ptr := false
	if p, ok := t.Underlying().(*types.Pointer); ok {
		base, ptr = p.Elem(), true
	}
	for _, tn := range g.cellTypeNames() {
		u := tn.Type()
		if types.Identical(u, base) || !types.Identical(u.Underlying(), base.Underlying()) {
			continue
		}
		if types.NewMethodSet(u).Len() > 0 || types.NewMethodSet(types.NewPointer(u)).Len() > 0 {
			continue // its values are made into interfaces with its name
		}
		name, other := types.TypeString(t, cellQualifier), tn.Name()
		if ptr {
			other = "*" + other
		}
		g.warnf(pos, "a type assertion to %s cannot tell a %s from a %s in an interface, types with the same fields (the interpreter gives both one representation): it would take a %s for a %s; give one of the types another field or a method",
			name, name, other, other, name)
		return
	}
}

// compiledCheck returns a statement of generated code that panics (see
// cellrt.NotCellInterface) when _gtv, a value whose cellrt.CellType _gtt
// is "", is of a compiled type with the methods of t, an interface
// declared or written in a cell: yaegi's own assertion to such an interface says
// false for every compiled value, and it cannot hold one. It returns ""
// when t is not a cell's interface or no compiled type can have its
// methods (one is unexported, or its signature names a cell's type).
func (g *gen) compiledCheck(t types.Type) string {
	switch n := types.Unalias(t).(type) {
	case *types.Named:
		if !interpretedCell(n.Obj().Pkg()) || n.TypeArgs().Len() > 0 {
			return ""
		}
	case *types.Interface: // written in the cell: yaegi's own too
	default:
		return ""
	}
	iface, ok := t.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return ""
	}
	var args []string
	for i := range iface.NumMethods() {
		m := iface.Method(i)
		sig := m.Type().(*types.Signature)
		fn := types.NewSignatureType(nil, nil, nil, sig.Params(), sig.Results(), sig.Variadic())
		cell := false
		types.TypeString(fn, func(p *types.Package) string {
			cell = cell || p.Path() == cellPath
			return p.Name()
		})
		fs, ok := g.typeSrc(fn)
		if !m.Exported() || cell || !ok {
			return ""
		}
		args = append(args, strconv.Quote(m.Name()), "("+fs+")(nil)")
	}
	return " if _gtt == \"\" && " + rtName + ".CompiledImplements(_gtv, " + strings.Join(args, ", ") + ") { panic(" + rtName + ".NotCellInterface(_gtv, " + strconv.Quote(g.goTypeName(t)) + ")) };"
}

// mayConfuse reports whether the interpreter's concrete assertions of a
// value of t, an interface type, may take one type for another (see
// concreteCond): t is an empty interface or one written in a cell. A
// compiled interface (error, io.Writer) holds a compiled value or the
// interpreter's wrapper of a cell's value, which its assertions open.
func (g *gen) mayConfuse(t types.Type) bool {
	if t == nil {
		return false
	}
	iface, ok := t.Underlying().(*types.Interface)
	return ok && (iface.NumMethods() == 0 || srcIface(t))
}

// localVar reports whether id names a variable local to a function
// that the plan leaves as it is, which generated code may name again.
func (g *gen) localVar(id *ast.Ident) bool {
	v, ok := g.c.info.Uses[id].(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return false
	}
	_, renamed := g.oldSlots[v]
	return !renamed
}

// isCommaOk reports whether the assertion n is the comma-ok form: parent,
// the node above it, assigns or declares two names from it.
func isCommaOk(n *ast.TypeAssertExpr, parent ast.Node) bool {
	switch p := parent.(type) {
	case *ast.AssignStmt:
		return len(p.Lhs) == 2 && len(p.Rhs) == 1 && p.Rhs[0] == n
	case *ast.ValueSpec:
		return len(p.Names) == 2 && len(p.Values) == 1 && p.Values[0] == n
	}
	return false
}
