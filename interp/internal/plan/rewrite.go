package plan

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"runtime"
	"strconv"
	"strings"
)

// fnCtx is the function a rewrite is in.
type fnCtx struct {
	name    string
	results *ast.FieldList // its result types, as written
	// depth marks a function that counts its depth with decrements at
	// every return; reset one that restores it in a deferred call.
	depth, reset bool
	cellBody     bool // the statements of the cell
	// loops are the enclosing range-over-func loops, innermost last.
	loops []*funcLoop
	// copies are the enclosing three-clause loops whose variables are
	// copied per iteration.
	copies map[ast.Stmt]*loopCopy
}

// funcLoop is a range-over-func loop being rewritten into a call of the
// iterator with a function literal: the loop body's jumps out of the loop
// become codes in ctl, which the code after the call acts on.
type funcLoop struct {
	stmt     *ast.RangeStmt
	ctl      string   // the control variable
	results  []string // variables for the enclosing function's results
	dispatch []string // "if ctl == code { jump }"
	codes    map[string]int
}

// loopCopy is a three-clause loop whose variables live per iteration: the
// loop runs on outer copies, and each iteration declares its own.
type loopCopy struct {
	vars, outer []string
}

// rewrite makes the edits that turn the checked cell into code the
// interpreter runs as Go would.
func (g *gen) rewrite() {
	c := g.c
	for _, fd := range c.funcs {
		if fd.Type.TypeParams == nil && fd.Name.Name != "_" {
			g.bodies[fd] = g.s.fresh("_gtf") + "_" + fd.Name.Name
		}
	}
	g.instanceRefs()
	for _, d := range c.file.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			// Package-level initializers run when the declarations do,
			// before the functions' variables are assigned: they call
			// the declared functions.
			g.initializer = d.Tok == token.VAR
			switch d.Tok {
			case token.IMPORT:
			case token.TYPE:
				for _, ts := range g.plainTypes(d) {
					g.walk(ts, &fnCtx{})
				}
			default:
				g.walk(d, &fnCtx{})
			}
			g.initializer = false
			if d.Tok == token.VAR {
				for _, sp := range d.Specs {
					g.multiValueVar(d, sp.(*ast.ValueSpec))
				}
			}
		case *ast.FuncDecl:
			_, inst := c.instDecls[d]
			switch {
			case g.generic(d):
				// Never run: its instances are (see mono).
			case inst:
				// Instance code: a package's needs no depth count (its
				// recursion is bounded; the functions it calls count
				// theirs).
				id := c.instDecls[d]
				g.noDepth = id.cell < 0
				name := id.inst.desc
				if d.Recv != nil {
					name += "." + d.Name.Name
					g.walk(d.Recv, &fnCtx{})
				}
				g.walkFunc(name, d.Type, d.Body)
				g.noDepth = false
			case d == c.body:
				g.topLevel(d.Body)
				g.walk(d.Body, &fnCtx{cellBody: true})
			case d.Recv != nil:
				name, _ := recvBase(d.Recv.List[0].Type)
				g.walk(d.Recv, &fnCtx{})
				g.walkFunc(name+"."+d.Name.Name, d.Type, d.Body)
			case d.Type.TypeParams != nil || d.Name.Name == "_":
				g.walkFunc(d.Name.Name, d.Type, d.Body)
			default:
				// A declared function under a name of its own, which the
				// function's variable is given (see runBlock).
				g.ed.replace(g.off(d.Name.Pos()), g.off(d.Name.End()), g.bodies[d])
				g.walkFunc(d.Name.Name, d.Type, d.Body)
			}
		}
	}
}

// hoisted returns the name of the package-level copy of a type declared
// in a function, when generic code is instantiated with it (see
// mono.hoist).
func (g *gen) hoisted(tn *types.TypeName) (string, bool) {
	if !localType(tn) || g.c.inst == nil || tn.Pkg() != g.c.pkg {
		return "", false
	}
	inst, ok := g.c.inst.byKey[g.s.objKey(tn)]
	if !ok {
		return "", false
	}
	return inst.name, true
}

// hoistedDecl drops the declarations of types in a function that are
// declared at the package level instead (see hoisted): the whole
// statement when it declares nothing else, else the type under the name
// _, its lines kept.
func (g *gen) hoistedDecl(st *ast.DeclStmt) {
	d, ok := st.Decl.(*ast.GenDecl)
	if !ok || d.Tok != token.TYPE || g.c.inst == nil {
		return
	}
	n := 0
	for _, sp := range d.Specs {
		ts := sp.(*ast.TypeSpec)
		if tn, ok := g.c.info.Defs[ts.Name].(*types.TypeName); ok {
			if _, ok := g.hoisted(tn); ok {
				n++
				g.ed.replace(g.off(ts.Name.Pos()), g.off(ts.Name.End()), "_")
			}
		}
	}
	if n > 0 && n == len(d.Specs) {
		start, end := g.off(st.Pos()), g.off(st.End())
		g.ed.replaceLines(g.c.text, start, end, strings.Repeat("\n", strings.Count(g.c.text[start:end], "\n")))
	}
}

// instanceRefs replaces the cell's uses of generic functions and types
// with the names of their instances (see mono): F(x), F[int](x),
// pkg.F(x), T[int]{}, pkg.T[int]. It runs before the other rewrites, so
// that the text they copy has the names.
func (g *gen) instanceRefs() {
	c := g.c
	if len(c.info.Instances) == 0 || g.s.prelude0 {
		return
	}
	inGeneric := c.genericSpans()
	// The expression each instance's identifier stands for: itself, a
	// qualified identifier, or an explicit instantiation.
	span := map[*ast.Ident]ast.Expr{}
	ast.Inspect(c.file, func(n ast.Node) bool {
		var id *ast.Ident
		switch n := n.(type) {
		case *ast.IndexExpr:
			id = nameOf(n.X)
		case *ast.IndexListExpr:
			id = nameOf(n.X)
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok {
				if _, isPkg := c.info.Uses[x].(*types.PkgName); isPkg {
					id = n.Sel
				}
			}
		}
		if id != nil {
			if _, ok := c.info.Instances[id]; ok {
				if _, set := span[id]; !set {
					span[id] = n.(ast.Expr)
				}
			}
		}
		return true
	})
	for id, in := range c.info.Instances {
		if inGeneric(id.Pos()) {
			continue
		}
		obj := c.info.Uses[id]
		targs := typeList(in.TypeArgs)
		if obj == nil || anyTypeParam(targs) {
			continue
		}
		key := g.s.instKey(obj, targs)
		name, ok := g.s.compiledInstance(obj, targs)
		switch {
		case ok:
		case c.inst != nil:
			name, ok = c.inst.lookup(key)
		default:
			name, ok = g.s.instances[key]
		}
		if !ok {
			g.errorf(id.Pos(), "internal error: no instance of %s; please report it", describe(obj, targs))
			continue
		}
		var e ast.Expr = id
		if x, ok := span[id]; ok {
			e = x
		}
		g.ed.replace(g.off(e.Pos()), g.off(e.End()), name)
	}
}

// multiValueVar rewrites a package-level "var a, b T = f()", whose one
// call gives several values, into variables without initializers and one
// that assigns them:
//
//	var a T; var b T; var _gtmv3 = func() bool { a, b = f(); return true }()
//
// yaegi gives functions compiled with such a declaration invalid values
// for a and b.
func (g *gen) multiValueVar(d *ast.GenDecl, vs *ast.ValueSpec) {
	if len(vs.Names) < 2 || len(vs.Values) != 1 {
		return
	}
	var decls, lhs []string
	for _, id := range vs.Names {
		obj := g.c.info.Defs[id]
		if obj == nil {
			decls = append(decls, "_ struct{}")
			lhs = append(lhs, "_")
			continue
		}
		t, ok := g.typeSrc(obj.Type())
		if !ok {
			return
		}
		decls = append(decls, g.yname(obj)+" "+t)
		lhs = append(lhs, g.yname(obj))
	}
	sep := "; "
	if !d.Lparen.IsValid() {
		sep = "; var "
	}
	v := vs.Values[0]
	g.ed.replace(g.off(vs.Names[0].Pos()), g.off(v.Pos()),
		strings.Join(decls, sep)+sep+g.s.fresh("_gtmv")+" = func() bool { "+strings.Join(lhs, ", ")+" = ")
	g.ed.insertClosing(g.off(v.End()), "; return true }()")
}

// topLevel rewrites the statements of the cell's top level: definitions
// assign the session variables the declaration file declares, and the
// last expression hands its value to the runtime.
func (g *gen) topLevel(body *ast.BlockStmt) {
	for i, st := range body.List {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				g.ed.replace(g.off(st.TokPos), g.off(st.TokPos)+2, "=")
			}
		case *ast.DeclStmt:
			g.varDecl(st.Decl.(*ast.GenDecl))
		case *ast.ExprStmt:
			if i == len(body.List)-1 {
				g.result(st)
			}
		}
	}
}

// varDecl turns a top-level "var" declaration into assignments: "var x T
// = e" into "x = e", "var x T" into "x = *new(T)".
func (g *gen) varDecl(d *ast.GenDecl) {
	if d.Tok != token.VAR {
		return
	}
	if d.Lparen.IsValid() {
		g.ed.replace(g.off(d.TokPos), g.off(d.Lparen)+1, "")
		g.ed.replace(g.off(d.Rparen), g.off(d.Rparen)+1, "")
	} else {
		g.ed.replace(g.off(d.TokPos), g.off(d.Specs[0].Pos()), "")
	}
	for _, sp := range d.Specs {
		vs := sp.(*ast.ValueSpec)
		last := vs.Names[len(vs.Names)-1]
		switch {
		case vs.Type != nil && len(vs.Values) > 0:
			g.ed.replace(g.off(last.End()), g.off(vs.Type.End()), "")
		case len(vs.Values) == 0:
			t := g.text(vs.Type)
			zeros := make([]string, len(vs.Names))
			for i := range zeros {
				zeros[i] = "*new(" + t + ")"
			}
			g.ed.replace(g.off(last.End()), g.off(vs.Type.End()), " = "+strings.Join(zeros, ", "))
		}
	}
}

// result hands the cell's last expression, when it has one value, to
// _gt.Result with the display methods of its type (compiled code cannot
// see the methods of a type declared in a cell).
func (g *gen) result(st *ast.ExprStmt) {
	tv, ok := g.c.info.Types[st.X]
	if !ok || tv.IsVoid() || tv.IsType() || tv.Type == nil {
		return
	}
	if _, tuple := tv.Type.(*types.Tuple); tuple {
		return
	}
	if b, ok := tv.Type.(*types.Basic); ok && b.Kind() == types.UntypedNil {
		return
	}
	t := tv.Type
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		t = types.Default(t)
	}
	r := &Result{Type: t, Cell: isCellType(t)}
	v := "_gtres"
	args := []string{v, "nil", "nil", "nil", "nil", "nil"}
	if r.Cell {
		ms := displayMethods(t)
		if text := fmtCall(v, v, ms); text != "" {
			args[1] = text
		}
		for i, m := range []string{"HTML", "Markdown", "SVG", "PNG"} {
			if ms[m] {
				args[2+i] = v + "." + m
			}
		}
		for _, m := range []string{"String", "Error", "Format", "GoString", "HTML", "Markdown", "SVG", "PNG"} {
			if ms[m] {
				r.Methods = append(r.Methods, m)
			}
		}
	}
	g.p.Result = r
	g.ed.insert(g.off(st.Pos()), v+" := ")
	g.ed.insertClosing(g.off(st.End()), "; "+rtName+".Result("+strings.Join(args, ", ")+")")
}

// fmtCall returns the call of _gt.Fmt that formats value with the fmt
// methods of ms (of the variable recv), or "" when it has none.
func fmtCall(value, recv string, ms map[string]bool) string {
	if !ms["String"] && !ms["Error"] && !ms["Format"] && !ms["GoString"] {
		return ""
	}
	args := []string{value}
	for _, m := range []string{"String", "Error", "Format", "GoString"} {
		if ms[m] {
			args = append(args, recv+"."+m)
		} else {
			args = append(args, "nil")
		}
	}
	return rtName + ".Fmt(" + strings.Join(args, ", ") + ")"
}

// isCellType reports whether t is a named type declared in a cell, or a
// pointer to one.
func isCellType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == cellPath
}

// isInstance reports whether t is an instance of a generic type, or a
// pointer to one: a type of the interpreter's (see mono), whatever
// declared the generic type.
func isInstance(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.TypeArgs().Len() > 0
}

// displayMethods returns the methods of t's method set that fmt or
// display call, with the signatures they need.
func displayMethods(t types.Type) map[string]bool {
	ms := types.NewMethodSet(t)
	out := map[string]bool{}
	for i := 0; i < ms.Len(); i++ {
		f := ms.At(i).Obj().(*types.Func)
		sig := f.Type().(*types.Signature)
		switch f.Name() {
		case "String", "Error", "GoString", "HTML", "Markdown", "SVG":
			out[f.Name()] = isFunc(sig, "", "string")
		case "PNG":
			out[f.Name()] = isFunc(sig, "", "[]byte")
		case "Format":
			out[f.Name()] = isFunc(sig, "fmt.State, rune", "")
		}
	}
	return out
}

// isFunc reports whether sig has the given parameter and result types.
func isFunc(sig *types.Signature, params, results string) bool {
	q := func(p *types.Package) string { return p.Name() }
	list := func(t *types.Tuple) string {
		var s []string
		for i := 0; i < t.Len(); i++ {
			s = append(s, types.TypeString(t.At(i).Type(), q))
		}
		return strings.Join(s, ", ")
	}
	r := strings.NewReplacer("int32", "rune", "uint8", "byte")
	return r.Replace(list(sig.Params())) == params && r.Replace(list(sig.Results())) == results && !sig.Variadic()
}

// walkFunc rewrites a function: its body counts its depth (when it calls
// interpreted code: a function that calls none cannot recurse) and checks
// the interrupt flag on entry.
func (g *gen) walkFunc(name string, ft *ast.FuncType, body *ast.BlockStmt) {
	g.walk(ft, &fnCtx{})
	if body == nil {
		return
	}
	fc := &fnCtx{name: name, results: ft.Results}
	// main and init run once, from the plan: they need no count, and a
	// prologue there would meet a yaegi bug (see DESIGN.md) that their
	// pasted programs do not meet without it.
	once := name == "main" || name == "init"
	// A function literal in a package-level variable's initializer does
	// not count its depth: yaegi refuses an initializer that refers to a
	// variable of an earlier compilation ("variable definition loop"),
	// even inside a literal.
	if !g.s.cfg.NoDepthCheck && !g.noDepth && !once && !g.initializer && g.callsInterpreted(body) {
		enter := fmt.Sprintf("%s++; if %s > %s { %s.Enter(%s) };", depthName, depthName, limitName, rtName, strconv.Quote(name))
		if hasDefer(body) {
			fc.reset = true
			g.ed.insert(g.off(body.Lbrace)+1, fmt.Sprintf(" _gtd := %s; %s defer func() { %s = _gtd }();", depthName, enter, depthName))
		} else {
			fc.depth = true
			g.ed.insert(g.off(body.Lbrace)+1, " "+enter)
			if ft.Results == nil || len(ft.Results.List) == 0 {
				g.ed.insert(g.off(body.Rbrace), "; "+depthName+"--; ")
			}
		}
	}
	g.walk(body, fc)
}

// hasDefer reports whether a function body defers a call (its own, not a
// nested function literal's).
func hasDefer(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			found = true
		}
		return !found
	})
	return found
}

// callsInterpreted reports whether a function body calls interpreted
// code: a function or method declared in a cell, a function value, an
// interface method.
func (g *gen) callsInterpreted(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if g.interpretedCall(n) {
				found = true
			}
		}
		return !found
	})
	return found
}

// interpretedCall reports whether call may call interpreted code.
func (g *gen) interpretedCall(call *ast.CallExpr) bool {
	info := g.c.info
	tv := info.Types[call.Fun]
	if tv.IsType() || tv.IsBuiltin() {
		return false
	}
	compiled := func(obj types.Object) bool {
		fn, ok := obj.(*types.Func)
		return ok && fn.Pkg() != nil && fn.Pkg().Path() != cellPath && !instantiated(fn)
	}
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return !compiled(info.Uses[f])
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[f]; ok {
			return sel.Kind() != types.MethodVal || types.IsInterface(sel.Recv()) || !compiled(sel.Obj())
		}
		return !compiled(info.Uses[f.Sel])
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return true
}

// walk rewrites the nodes under root, in function fc.
func (g *gen) walk(root ast.Node, fc *fnCtx) {
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if len(fc.loops) > 0 && fc.loops[len(fc.loops)-1].stmt == top {
				g.endFuncLoop(fc)
			}
			return true
		}
		if !g.node(n, fc, stack) {
			return false
		}
		stack = append(stack, n)
		return true
	})
}

// node rewrites one node; false means its children are done.
func (g *gen) node(n ast.Node, fc *fnCtx, stack []ast.Node) bool {
	info := g.c.info
	g.convNode(n, fc)
	switch n := n.(type) {
	case *ast.Ident:
		g.ident(n)
	case *ast.FuncLit:
		g.bindLoopVars(n, stack)
		g.walkFunc("func literal", n.Type, n.Body)
		return false
	case *ast.CallExpr:
		if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
			g.callee[id] = true
		}
		g.call(n)
	case *ast.DeclStmt:
		g.hoistedDecl(n)
	case *ast.TypeAssertExpr:
		if n.Type != nil {
			g.ifaceNode(n, stack[len(stack)-1], fc)
			g.assertError(n)
		}
	case *ast.TypeSwitchStmt:
		g.ifaceNode(n, nil, fc)
		g.switchError(n)
	case *ast.GoStmt:
		g.goStmt(n)
	case *ast.ForStmt:
		g.loopCheck(n.Body)
		g.forCopies(n, fc)
	case *ast.RangeStmt:
		return g.rangeStmt(n, fc)
	case *ast.ReturnStmt:
		g.returnStmt(n, fc)
	case *ast.BranchStmt:
		g.branch(n, fc, stack)
	case *ast.DeferStmt:
		if len(fc.loops) > 0 {
			g.errorf(n.Pos(), "defer in the body of a range over a function is not supported yet: move the body into a function")
		}
	case *ast.SelectorExpr:
		if _, ok := info.Selections[n]; !ok {
			// A qualified identifier: os.Exit and its kind.
			if g.hook(n, n.Sel) {
				return false
			}
		}
	}
	return true
}

// ident renames a use of an object whose interpreter name is not its own,
// and reads a session variable the cell redefines through its pointer.
func (g *gen) ident(id *ast.Ident) {
	obj := g.c.info.Uses[id]
	if obj == nil {
		obj = g.c.info.Defs[id]
	}
	if obj == nil {
		return
	}
	if p, ok := g.oldSlots[obj]; ok {
		g.ed.replace(g.off(id.Pos()), g.off(id.End()), "(*"+p+")")
		return
	}
	if tn, ok := obj.(*types.TypeName); ok {
		if name, ok := g.hoisted(tn); ok {
			g.ed.replace(g.off(id.Pos()), g.off(id.End()), name)
			return
		}
	}
	if _, isPkg := obj.(*types.PkgName); isPkg || strings.HasPrefix(obj.Name(), placeholderPrefix) {
		return
	}
	if v, ok := obj.(*types.Var); ok && v.IsField() && v.Embedded() {
		// An embedded instance of a generic type is a field named like
		// the instance.
		t := v.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && n.TypeArgs().Len() > 0 {
			if name, ok := g.instance(n); ok {
				g.ed.replace(g.off(id.Pos()), g.off(id.End()), name)
			}
		}
		return
	}
	if obj.Pkg() == nil || obj.Pkg().Path() != cellPath {
		g.hook(id, id)
		return
	}
	if fn, ok := obj.(*types.Func); ok && (!g.callee[id] || g.initializer) && g.c.info.Uses[id] == obj {
		// A function as a value: its declared function, which yaegi
		// converts to a named function type where a variable of function
		// type it does not.
		if body := g.bodyOf(fn); body != "" {
			g.ed.replace(g.off(id.Pos()), g.off(id.End()), body)
			return
		}
	}
	if name := g.yname(obj); name != id.Name {
		g.ed.replace(g.off(id.Pos()), g.off(id.End()), name)
	}
}

// bodyOf returns the name under which a function of a cell is declared,
// or "".
func (g *gen) bodyOf(fn *types.Func) string {
	for fd, body := range g.bodies {
		if g.c.info.Defs[fd.Name] == fn {
			return body
		}
	}
	return g.s.bodies[fn]
}

// hooks are the functions that end the process or the goroutine, which a
// cell must not, and errors.Is, which compiled code cannot do on a cell's
// errors: generated code calls the session's runtime instead.
var hooks = map[string]string{
	"os.Exit":        rtName + ".Exit",
	"syscall.Exit":   rtName + ".Exit",
	"runtime.Goexit": rtName + ".Goexit",
	"errors.Is":      rtName + ".ErrorsIs",
}

// hook replaces a reference to os.Exit, runtime.Goexit or errors.Is (the
// expression n, whose object is named by id) with the runtime's.
func (g *gen) hook(n ast.Expr, id *ast.Ident) bool {
	fn, ok := g.c.info.Uses[id].(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	key := fn.Pkg().Path() + "." + fn.Name()
	if h, ok := hooks[key]; ok {
		g.ed.replace(g.off(n.Pos()), g.off(n.End()), h)
		return true
	}
	switch key {
	case "log.Fatal", "log.Fatalln", "log.Fatalf":
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		g.fatal(sel, key)
		return true
	}
	return false
}

// fatal rewrites log.Fatal(...) and l.Fatal(...) into a call of the
// runtime that prints with log's Print and ends the cell.
func (g *gen) fatal(sel *ast.SelectorExpr, key string) {
	print := strings.Replace(strings.TrimPrefix(key[strings.LastIndex(key, "."):], "."), "Fatal", "Print", 1)
	wrap := rtName + ".Fatal("
	if strings.HasSuffix(key, "f") {
		wrap = rtName + ".Fatalf("
	}
	if _, method := g.c.info.Selections[sel]; method {
		// yaegi cannot pass a compiled method value (l.Print) as a
		// function: a literal calls it.
		if strings.HasSuffix(key, "f") {
			g.ed.insert(g.off(sel.Pos()), wrap+"func(_gtf string, _gtv ...any) { ")
			g.ed.replace(g.off(sel.Sel.Pos()), g.off(sel.Sel.End()), print+"(_gtf, _gtv...) })")
		} else {
			g.ed.insert(g.off(sel.Pos()), wrap+"func(_gtv ...any) { ")
			g.ed.replace(g.off(sel.Sel.Pos()), g.off(sel.Sel.End()), print+"(_gtv...) })")
		}
		return
	}
	g.ed.insert(g.off(sel.Pos()), wrap)
	g.ed.replace(g.off(sel.Sel.Pos()), g.off(sel.Sel.End()), print+")")
}

// call rewrites a call: the builtins the interpreter lacks, print and
// println, log.Logger's Fatal methods, errors.As on a cell's type, and the
// arguments of fmt's and log's printing functions whose type a cell
// declared with fmt methods.
func (g *gen) call(call *ast.CallExpr) {
	info := g.c.info
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok {
			g.builtin(call, id, b.Name())
			return
		}
	}
	fun := ast.Unparen(call.Fun)
	var fn *types.Func
	switch f := fun.(type) {
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[f]; ok {
			fn, _ = sel.Obj().(*types.Func)
			if fn != nil && sel.Kind() == types.MethodVal && fn.Pkg() != nil && fn.Pkg().Path() == "log" &&
				strings.HasPrefix(fn.Name(), "Fatal") {
				g.fatal(f, "log."+fn.Name())
			}
		} else {
			fn, _ = info.Uses[f.Sel].(*types.Func)
		}
	case *ast.Ident:
		fn, _ = info.Uses[f].(*types.Func)
	}
	if fn == nil || fn.Pkg() == nil {
		return
	}
	if fn.Pkg().Path() != cellPath && !instantiated(fn) {
		g.variadicSlice(call, fn)
	}
	switch fn.Pkg().Path() {
	case "fmt", "log":
		g.fmtArgs(call, fn)
	case "errors":
		if fn.Name() == "As" {
			g.errorsAs(call)
		}
		if fn.Name() == "Is" || fn.Name() == "Unwrap" {
			g.errorsIs(call, fn.Name())
		}
	case "encoding/json", "encoding/xml", "text/template", "html/template":
		g.reflectCall(call, fn, fn.Pkg().Path())
	}
}

// instantiated reports whether a function of a package runs as
// instance code in the interpreter (see mono): a generic function, or a
// method of a generic type.
func instantiated(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	if sig.TypeParams().Len() > 0 {
		return true
	}
	if r := sig.Recv(); r != nil {
		t := r.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && (n.TypeParams().Len() > 0 || n.TypeArgs().Len() > 0) {
			return true
		}
	}
	return false
}

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
		fn := minName
		if name == "max" {
			fn = maxName
		}
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

// fmtArgs fixes the arguments of fmt's and log's printing functions whose
// type a cell declared (or a pointer to one): the interpreter hands
// compiled fmt a value of another type, without methods.
//
//   - A type with String, Error, Format or GoString methods goes through
//     _gt.Fmt with them. A value whose pointer type has the methods goes
//     through it too, without them: fmt does not call them, yaegi's own
//     wrapper would.
//   - A struct formatted with %+v or %#v goes through _gt.Describe with its
//     Go type name and field names (yaegi's struct has other field names
//     and no type name).
//   - An argument formatted only with %T by a format string literal is
//     replaced with its Go type name, formatted with %s.
//
// Arguments formatted only with %p are left alone.
func (g *gen) fmtArgs(call *ast.CallExpr, fn *types.Func) {
	sig := fn.Type().(*types.Signature)
	if !sig.Variadic() || call.Ellipsis.IsValid() {
		if call.Ellipsis.IsValid() {
			g.fmtSpread(call, fn)
		}
		return
	}
	first := sig.Params().Len() - 1
	var verbs map[int][]verb
	var format *ast.BasicLit
	if strings.HasSuffix(fn.Name(), "f") && first >= 1 && first-1 < len(call.Args) {
		if v := g.c.info.Types[call.Args[first-1]].Value; v != nil && v.Kind() == constant.String {
			verbs = argVerbs(constant.StringVal(v))
			format, _ = ast.Unparen(call.Args[first-1]).(*ast.BasicLit)
		}
	}
	newFormat := ""
	if format != nil {
		newFormat = constant.StringVal(g.c.info.Types[format].Value)
	}
	for i := first; i < len(call.Args); i++ {
		a := call.Args[i]
		t := g.c.info.Types[a].Type
		used := []verb{{verb: "v"}} // Print, Println
		if verbs != nil {
			used = verbs[i-first]
		}
		if printing(fn) && g.fmtIfaceArg(a, used, false) {
			continue
		}
		if t == nil || !isCellType(t) && !isInstance(t) {
			continue
		}
		if len(used) == 1 && used[0].verb == "T" && format != nil {
			// %T: the name Go gives the type, as a string.
			v := used[0]
			newFormat = newFormat[:v.at] + "s" + newFormat[v.at+1:]
			name := g.goTypeName(t)
			g.ed.insert(g.off(a.Pos()), "func(any) string { return "+strconv.Quote(name)+" }(")
			g.ed.insertClosing(g.off(a.End()), ")")
			continue
		}
		describe := false
		for _, v := range used {
			describe = describe || len(v.verb) > 1 && strings.HasSuffix(v.verb, "v")
		}
		value := "_gtx"
		if d := g.describeCall(t); describe && d != "" {
			value = d
		}
		text := fmtCall(value, "_gtx", displayMethods(t))
		if text == "" {
			if _, isPtr := t.(*types.Pointer); !isPtr && fmtCall(value, "_gtx", displayMethods(types.NewPointer(t))) != "" {
				// The methods are the pointer's: fmt does not call them
				// on a value, but yaegi's wrapper would.
				text = rtName + ".Fmt(" + value + ", nil, nil, nil, nil)"
			} else if value != "_gtx" {
				text = value
			} else {
				continue
			}
		}
		ts, ok := g.typeSrc(t)
		if !ok {
			continue
		}
		g.ed.insert(g.off(a.Pos()), "func(_gtx "+ts+") any { return "+text+" }(")
		g.ed.insertClosing(g.off(a.End()), ")")
	}
	if format != nil && newFormat != constant.StringVal(g.c.info.Types[format].Value) &&
		!strings.Contains(format.Value, "\n") {
		g.ed.replace(g.off(format.Pos()), g.off(format.End()), strconv.Quote(newFormat))
	}
}

// goTypeName returns the name Go's reflection gives t, the instances of
// generic types under their Go names: "main.Stack[int]", not the
// instance's name in the interpreter.
func (g *gen) goTypeName(t types.Type) string {
	name := goTypeName(t)
	if !strings.Contains(name, sep) {
		return name
	}
	return instanceName.ReplaceAllStringFunc(name, func(s string) string {
		n := strings.TrimPrefix(s, "main.")
		if inst := g.c.inst; inst != nil {
			for _, in := range inst.insts {
				if in.name == n && in.goName != "" {
					return in.goName
				}
			}
		}
		if goName, ok := g.s.goNames[n]; ok {
			return goName
		}
		return s
	})
}

// instanceName matches the name of an instance in a type's name.
var instanceName = regexp.MustCompile(`main\.[\pL\pN_]*` + sep + `[\pL\pN_` + sep + `]*`)

// goTypeName returns the name Go's reflection gives t: "main.point",
// "main.Pair[string,int]" (no space between type arguments).
func goTypeName(t types.Type) string {
	s := types.TypeString(t, func(p *types.Package) string {
		if p.Path() == cellPath {
			return "main"
		}
		return p.Name()
	})
	if !strings.Contains(s, "[") {
		return s
	}
	var b strings.Builder
	var open []byte // the brackets and parentheses open at each point
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '[', '(', '{':
			open = append(open, c)
		case ']', ')', '}':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case ' ':
			if i > 0 && s[i-1] == ',' && len(open) > 0 && open[len(open)-1] == '[' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// describeCall returns the call of _gt.Describe that gives fmt the Go type
// name and field names of a struct type declared in a cell (t, or what t
// points to), or "".
func (g *gen) describeCall(t types.Type) string {
	st, ok := t.Underlying().(*types.Struct)
	if p, isPtr := t.(*types.Pointer); isPtr {
		st, ok = p.Elem().Underlying().(*types.Struct)
	}
	if !ok {
		return ""
	}
	args := []string{"_gtx", strconv.Quote(strings.TrimPrefix(g.goTypeName(t), "*"))}
	if holdsInterface(t, 0) {
		args[0] = rtName + ".FmtAny(_gtx, " + fmtName + ")" // see fmtIfaceArg
	}
	for i := 0; i < st.NumFields(); i++ {
		args = append(args, strconv.Quote(st.Field(i).Name()))
	}
	return rtName + ".Describe(" + strings.Join(args, ", ") + ")"
}

// variadicSlice passes the variadic arguments of a compiled function as a
// slice when one of them is of a type declared in a cell and the
// parameter is an interface with methods: yaegi cannot convert such a
// value to the interface among variadic arguments ("reflect: cannot use
// ... as type nn.Module"), but it can in a slice literal.
func (g *gen) variadicSlice(call *ast.CallExpr, fn *types.Func) {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || !sig.Variadic() || call.Ellipsis.IsValid() {
		return
	}
	n := sig.Params().Len() - 1
	slice := sig.Params().At(n).Type().(*types.Slice)
	iface, ok := slice.Elem().Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 || len(call.Args) <= n {
		return
	}
	cell := false
	for _, a := range call.Args[n:] {
		if t := g.c.info.Types[a].Type; t != nil && isCellType(t) {
			cell = true
		}
	}
	if !cell {
		return
	}
	ts, ok := g.typeSrc(slice)
	if !ok {
		return
	}
	g.ed.insert(g.off(call.Args[n].Pos()), ts+"{")
	g.ed.insertClosing(g.off(call.Args[len(call.Args)-1].End()), "}...")
}

// verb is a verb of a format string with its + and # flags ("+v"), and
// the offset of its letter.
type verb struct {
	verb string
	at   int
}

// argVerbs returns the verbs a format string applies to each argument,
// by index ("*" for a width or precision).
func argVerbs(format string) map[int][]verb {
	out := map[int][]verb{}
	arg := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		flags := ""
		for i < len(format) && strings.IndexByte("+-# 0", format[i]) >= 0 {
			if format[i] == '+' || format[i] == '#' {
				flags += string(format[i])
			}
			i++
		}
		index := func() {
			if i < len(format) && format[i] == '[' {
				j := strings.IndexByte(format[i:], ']')
				if j < 0 {
					return
				}
				if n, err := strconv.Atoi(format[i+1 : i+j]); err == nil {
					arg = n - 1
				}
				i += j + 1
			}
		}
		number := func() {
			index()
			if i < len(format) && format[i] == '*' {
				out[arg] = append(out[arg], verb{"*", i})
				arg++
				i++
				return
			}
			for i < len(format) && format[i] >= '0' && format[i] <= '9' {
				i++
			}
		}
		number()
		if i < len(format) && format[i] == '.' {
			i++
			number()
		}
		index()
		if i >= len(format) {
			break
		}
		if format[i] == '%' {
			continue
		}
		out[arg] = append(out[arg], verb{flags + string(format[i]), i})
		arg++
	}
	return out
}

// errorsAs rewrites errors.As(err, target) whose target points to a type
// a cell declared: compiled errors.As cannot see that such a type is an
// error. The runtime walks the chain and an interpreted type assertion
// tests each error.
func (g *gen) errorsAs(call *ast.CallExpr) {
	if len(call.Args) != 2 {
		return
	}
	target := call.Args[1]
	p, ok := g.c.info.Types[target].Type.(*types.Pointer)
	if !ok || !isCellType(p.Elem()) || types.IsInterface(p.Elem()) {
		return
	}
	t, ok := g.typeSrc(p.Elem())
	if !ok {
		return
	}
	g.ed.replace(g.off(call.Fun.Pos()), g.off(call.Lparen)+1, rtName+".ErrorsAs(")
	g.ed.replace(g.off(call.Args[0].End()), g.off(target.Pos()),
		", func(_gte any) bool { _gtv, _gtok := _gte.("+t+"); if _gtok { *(")
	g.ed.replace(g.off(target.End()), g.off(call.Rparen)+1, ") = _gtv }; return _gtok }, "+errName+")")
}

// assertError makes a type assertion on an error see the value a
// compiled function handed back for a cell's error (the interpreter's
// wrapper, or cellrt's formatter after fmt.Errorf's %w): e.(T) becomes
// _gt.Identity(e).(T). errors.AsType's code and a cell's
// errors.Unwrap(err).(*MyErr) need it.
func (g *gen) assertError(n *ast.TypeAssertExpr) {
	if t := g.c.info.Types[n.X].Type; t == nil || !types.Identical(t, errorIface) {
		return
	}
	g.ed.insert(g.off(n.X.Pos()), rtName+".Identity(")
	g.ed.insertClosing(g.off(n.X.End()), ")")
}

// switchError does for a type switch on an error what assertError does,
// unless the variable it binds is used where its type is the error's (a
// default case, a case of several types or nil).
func (g *gen) switchError(sw *ast.TypeSwitchStmt) {
	var guard *ast.TypeAssertExpr
	switch a := sw.Assign.(type) {
	case *ast.AssignStmt:
		guard, _ = a.Rhs[0].(*ast.TypeAssertExpr)
	case *ast.ExprStmt:
		guard, _ = a.X.(*ast.TypeAssertExpr)
	}
	if guard == nil {
		return
	}
	for _, st := range sw.Body.List {
		cc := st.(*ast.CaseClause)
		if len(cc.List) == 1 && !g.c.info.Types[cc.List[0]].IsNil() {
			continue
		}
		obj := g.c.info.Implicits[cc]
		if obj == nil {
			continue
		}
		used := false
		for _, s := range cc.Body {
			ast.Inspect(s, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && g.c.info.Uses[id] == obj {
					used = true
				}
				return !used
			})
		}
		if used {
			return
		}
	}
	g.assertError(guard)
}

// errorIface is the error interface.
var errorIface = types.Universe.Lookup("error").Type()

// goStmt makes a goroutine report its panic instead of killing the
// process: "go f(a, b)" becomes
//
//	go func(_gtf F, _gta0 A, _gta1 B) { defer <report>; _gtf(_gta0, _gta1) }(f, a, b)
//
// which evaluates f and its arguments where the go statement is, as Go
// does.
func (g *gen) goStmt(st *ast.GoStmt) {
	call := st.Call
	report := "defer func() { if _gtr := recover(); _gtr != nil { " + rtName + ".GoPanic(_gtr) } }();"
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
		g.ed.insert(g.off(lit.Body.Lbrace)+1, " "+report)
		return
	}
	tv := g.c.info.Types[call.Fun]
	sig, ok := tv.Type.(*types.Signature)
	if !ok || tv.IsBuiltin() || tv.IsType() {
		return
	}
	f, ok := g.typeSrc(sig)
	if !ok {
		return
	}
	params := []string{"_gtf " + f}
	var args []string
	for i := 0; i < sig.Params().Len(); i++ {
		t, ok := g.typeSrc(sig.Params().At(i).Type())
		if !ok {
			return
		}
		name := "_gta" + strconv.Itoa(i)
		params = append(params, name+" "+t)
		args = append(args, name)
	}
	inner := "_gtf(" + strings.Join(args, ", ")
	if sig.Variadic() {
		if call.Ellipsis.IsValid() {
			inner += "..."
		} else {
			// The variadic arguments, gathered into their slice.
			n := sig.Params().Len() - 1
			last := sig.Params().At(n).Type()
			ts, _ := g.typeSrc(last)
			if len(call.Args) > n {
				g.ed.insert(g.off(call.Args[n].Pos()), ts+"{")
				g.ed.insertClosing(g.off(call.Args[len(call.Args)-1].End()), "}")
			} else {
				g.ed.insert(g.off(call.Rparen), ", "+ts+"(nil)")
			}
			inner += "..."
		}
	}
	inner += ")"
	g.ed.insert(g.off(call.Fun.Pos()), "func("+strings.Join(params, ", ")+") { "+report+" "+inner+" }(")
	sep := ""
	if len(call.Args) > 0 || sig.Variadic() && !call.Ellipsis.IsValid() {
		sep = ", "
	}
	g.ed.replace(g.off(call.Lparen), g.off(call.Lparen)+1, sep)
	if call.Ellipsis.IsValid() {
		g.ed.replace(g.off(call.Ellipsis), g.off(call.Ellipsis)+3, "")
	}
}

// bindLoopVars makes a function literal in a loop take the variables of
// the iteration it uses (the loop's variables, those its body declares)
// as parameters of a function called at once:
//
//	func(i int) func() { return func() { use(i) } }(i)
//
// yaegi gives a closure that compiled code calls (sync.WaitGroup.Go, a
// callback kept for later) the variables of the frame as they are when it
// is called, not as they were when it was made: every closure of the loop
// would see the last iteration's. A literal that assigns one of those
// variables is left alone, since the copy would not see its writes.
func (g *gen) bindLoopVars(lit *ast.FuncLit, stack []ast.Node) {
	var loops []ast.Node
	for _, n := range stack {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			loops = append(loops, n)
		case *ast.FuncLit:
			loops = nil // an enclosing function's loops run before it
		}
	}
	if len(loops) == 0 {
		return
	}
	inLoop := func(v *types.Var) bool {
		for _, l := range loops {
			if v.Pos() >= l.Pos() && v.Pos() < l.End() && !(v.Pos() >= lit.Pos() && v.Pos() < lit.End()) {
				return true
			}
		}
		return false
	}
	var vars []*types.Var
	seen := map[*types.Var]bool{}
	assigned := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if v, ok := g.c.info.Uses[n].(*types.Var); ok && !v.IsField() && inLoop(v) && !seen[v] {
				seen[v] = true
				vars = append(vars, v)
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && inLoop(asVar(g.c.info.Uses[id])) {
					assigned = true
				}
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && inLoop(asVar(g.c.info.Uses[id])) {
				assigned = true
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND && inLoop(asVar(g.c.info.Uses[id])) {
				assigned = true
			}
		}
		return !assigned
	})
	if assigned || len(vars) == 0 {
		return
	}
	var params, args []string
	for _, v := range vars {
		t, ok := g.typeSrc(v.Type())
		if !ok {
			return
		}
		params = append(params, v.Name()+" "+t)
		args = append(args, v.Name())
	}
	ft := g.text(lit.Type)
	g.ed.insert(g.off(lit.Pos()), "func("+strings.Join(params, ", ")+") "+ft+" { return ")
	g.ed.insertClosing(g.off(lit.End()), " }("+strings.Join(args, ", ")+")")
}

// asVar returns obj as a variable, or a variable no loop holds.
func asVar(obj types.Object) *types.Var {
	if v, ok := obj.(*types.Var); ok {
		return v
	}
	return types.NewVar(token.NoPos, nil, "", nil)
}

// loopCheck makes a loop body check the interrupt flag first.
func (g *gen) loopCheck(body *ast.BlockStmt) {
	if g.initializer {
		// In a package-level variable's initializer (see walkFunc), the
		// compiled check: slower, but it refers to no variable.
		g.ed.insert(g.off(body.Lbrace)+1, " "+rtName+".Check();")
		return
	}
	g.ed.insert(g.off(body.Lbrace)+1, fmt.Sprintf(" if %s != 0 { %s.Stop() };", stopName, rtName))
}

// forCopies gives a three-clause loop's variables one copy per iteration
// (Go 1.22), when a function literal captures one or it has its address
// taken: the loop runs on outer variables, each iteration declares its
// own from them and copies it back at its end and before continue.
func (g *gen) forCopies(f *ast.ForStmt, fc *fnCtx) {
	init, ok := f.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE {
		return
	}
	vars := map[types.Object]*ast.Ident{}
	for _, l := range init.Lhs {
		if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
			if obj := g.c.info.Defs[id]; obj != nil {
				vars[obj] = id
			}
		}
	}
	if len(vars) == 0 || !g.captures(f, vars) {
		return
	}
	lc := &loopCopy{}
	outer := map[types.Object]string{}
	for _, l := range init.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok || vars[g.c.info.Defs[id]] == nil {
			continue
		}
		o := g.fresh("_gtloop") + "_" + id.Name
		outer[g.c.info.Defs[id]] = o
		lc.vars = append(lc.vars, id.Name)
		lc.outer = append(lc.outer, o)
	}
	rename := func(n ast.Node) {
		if n == nil {
			return
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				obj := g.c.info.Uses[id]
				if obj == nil {
					obj = g.c.info.Defs[id]
				}
				if o, ok := outer[obj]; ok {
					g.ed.replace(g.off(id.Pos()), g.off(id.End()), o)
				}
			}
			return true
		})
	}
	rename(f.Init)
	rename(f.Cond)
	rename(f.Post)
	in, out := strings.Join(lc.vars, ", "), strings.Join(lc.outer, ", ")
	g.ed.insert(g.off(f.Body.Lbrace)+1, " "+in+" := "+out+";")
	g.ed.insert(g.off(f.Body.Rbrace), "; "+out+" = "+in+"; ")
	if fc.copies == nil {
		fc.copies = map[ast.Stmt]*loopCopy{}
	}
	fc.copies[f] = lc
}

// captures reports whether a function literal in loop uses one of vars,
// or the loop takes the address of one.
func (g *gen) captures(loop ast.Node, vars map[types.Object]*ast.Ident) bool {
	found := false
	var lits int
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			lits++
			ast.Inspect(n.Body, visit)
			lits--
			return false
		case *ast.Ident:
			if lits > 0 && vars[g.c.info.Uses[n]] != nil {
				found = true
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND && vars[g.c.info.Uses[id]] != nil {
				found = true
			}
		}
		return !found
	}
	ast.Inspect(loop, visit)
	return found
}

// rangeStmt rewrites a range loop: over an integer into a three-clause
// loop (yaegi lacks it), over a string into a loop that decodes runes
// (yaegi counts runes where Go gives byte offsets), over a function into
// a call of the function; and gives its variables one copy per iteration
// when a function literal captures them.
func (g *gen) rangeStmt(r *ast.RangeStmt, fc *fnCtx) bool {
	g.loopCheck(r.Body)
	t := g.c.info.Types[r.X].Type
	if t == nil {
		return true
	}
	u := t.Underlying()
	if b, ok := u.(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
		g.rangeInt(r, t)
		return true
	}
	if b, ok := u.(*types.Basic); ok && b.Info()&types.IsString != 0 {
		if id, ok := r.Key.(*ast.Ident); ok && id.Name != "_" {
			g.rangeString(r)
			return true
		}
	}
	if sig, ok := u.(*types.Signature); ok {
		g.startFuncLoop(r, sig, fc)
		return true
	}
	if r.Tok == token.DEFINE {
		vars := map[types.Object]*ast.Ident{}
		var names []string
		for _, e := range []ast.Expr{r.Key, r.Value} {
			if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
				if obj := g.c.info.Defs[id]; obj != nil {
					vars[obj] = id
					names = append(names, id.Name)
				}
			}
		}
		if len(vars) > 0 && g.captures(r.Body, vars) {
			list := strings.Join(names, ", ")
			g.ed.insert(g.off(r.Body.Lbrace)+1, " "+list+" := "+list+";")
		}
	}
	return true
}

// rangeInt rewrites "for i := range n" into
//
//	for _gti, _gtn := T(0), T(n); _gti < _gtn; _gti++ { i := _gti; ... }
func (g *gen) rangeInt(r *ast.RangeStmt, t types.Type) {
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		t = types.Default(t)
	}
	ts, ok := g.typeSrc(t)
	if !ok {
		g.errorf(r.X.Pos(), "cannot range over %s: the interpreter cannot name its type", t)
		return
	}
	i, n := g.fresh("_gti"), g.fresh("_gtn")
	g.ed.replace(g.off(r.For), g.off(r.X.Pos()), fmt.Sprintf("for %s, %s := %s(0), %s(", i, n, ts, ts))
	key := ""
	if r.Key != nil {
		if id, ok := r.Key.(*ast.Ident); !ok || id.Name != "_" {
			op := " = "
			if r.Tok == token.DEFINE {
				op = " := "
			}
			key = " " + g.text(r.Key) + op + i + ";"
		}
	}
	g.ed.replace(g.off(r.X.End()), g.off(r.Body.Lbrace)+1, fmt.Sprintf("); %s < %s; %s++ {%s", i, n, i, key))
}

// rangeString rewrites "for i, r := range s" into a loop that decodes
// the runes of s and gives i their byte offsets.
func (g *gen) rangeString(r *ast.RangeStmt) {
	s, k, w, v := g.fresh("_gts"), g.fresh("_gtk"), g.fresh("_gtw"), g.fresh("_gtr")
	g.ed.replace(g.off(r.For), g.off(r.X.Pos()), fmt.Sprintf("for %s, %s := ", s, k))
	decode := fmt.Sprintf("%s, %s := %s.DecodeRune(string(%s[%s:]));", v, w, rtName, s, k)
	var assign string
	if r.Tok == token.DEFINE {
		assign = fmt.Sprintf(" %s := %s;", g.text(r.Key), k)
		if r.Value != nil {
			assign += fmt.Sprintf(" %s := %s;", g.text(r.Value), v)
		}
	} else {
		assign = fmt.Sprintf(" %s = %s;", g.text(r.Key), k)
		if r.Value != nil {
			assign += fmt.Sprintf(" %s = %s;", g.text(r.Value), v)
		}
	}
	assign += " _ = " + v + ";"
	g.ed.replace(g.off(r.X.End()), g.off(r.Body.Lbrace)+1,
		fmt.Sprintf(", 0; %s < len(%s); { %s%s %s += %s;", k, s, decode, assign, k, w))
}

// startFuncLoop begins the rewrite of "for k, v := range seq { body }"
// over a function into
//
//	for ctl := 0; ctl == 0; ctl = -1 { seq(func(k K, v V) bool { body; return true }); dispatch }
//
// The one-iteration loop keeps the statement's label and holds the
// control variable; the body's jumps out of the loop (see jump) set it and
// make the function return false; dispatch acts on it after the call.
func (g *gen) startFuncLoop(r *ast.RangeStmt, sig *types.Signature, fc *fnCtx) {
	if sig.Params().Len() != 1 {
		return
	}
	yield, ok := sig.Params().At(0).Type().Underlying().(*types.Signature)
	if !ok {
		return
	}
	l := &funcLoop{stmt: r, ctl: g.fresh("_gtctl"), codes: map[string]int{}}
	var decls []string
	if fc.results != nil {
		for _, f := range fc.results.List {
			for range max(len(f.Names), 1) {
				v := l.ctl + "_r" + strconv.Itoa(len(l.results))
				l.results = append(l.results, v)
				decls = append(decls, "var "+v+" "+g.text(f.Type)+";")
			}
		}
	}
	head := fmt.Sprintf("for %s := 0; %s == 0; %s = -1 { ", l.ctl, l.ctl, l.ctl)
	if len(decls) > 0 {
		head += strings.Join(decls, " ") + " "
	}
	g.ed.replace(g.off(r.For), g.off(r.X.Pos()), head)
	var params []string
	var assigns string
	for i := 0; i < yield.Params().Len(); i++ {
		t, ok := g.typeSrc(yield.Params().At(i).Type())
		if !ok {
			g.errorf(r.X.Pos(), "cannot range over %s: the interpreter cannot name the type of its values", sig)
			return
		}
		var e ast.Expr
		if i == 0 {
			e = r.Key
		} else if i == 1 {
			e = r.Value
		}
		name := "_"
		if id, ok := e.(*ast.Ident); ok && r.Tok == token.DEFINE {
			name = id.Name
		} else if e != nil && !isBlank(e) {
			name = l.ctl + "_v" + strconv.Itoa(i)
			assigns += " " + g.text(e) + " = " + name + ";"
		}
		params = append(params, name+" "+t)
	}
	g.ed.replace(g.off(r.X.End()), g.off(r.Body.Lbrace)+1, "(func("+strings.Join(params, ", ")+") bool {"+assigns)
	fc.loops = append(fc.loops, l)
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// endFuncLoop ends the rewrite of the innermost range-over-func loop.
func (g *gen) endFuncLoop(fc *fnCtx) {
	l := fc.loops[len(fc.loops)-1]
	fc.loops = fc.loops[:len(fc.loops)-1]
	body := l.stmt.Body
	g.ed.insert(g.off(body.Rbrace), "; return true ")
	end := "})"
	if len(l.dispatch) > 0 {
		end += "; " + strings.Join(l.dispatch, " ")
	}
	g.ed.replace(g.off(body.Rbrace), g.off(body.Rbrace)+1, end+" }")
}

// returnStmt rewrites a return: inside a range-over-func loop into a jump
// (see jump); in a function that counts its depth, so that the count goes
// down after the results are computed.
func (g *gen) returnStmt(r *ast.ReturnStmt, fc *fnCtx) {
	if len(fc.loops) > 0 {
		results := ""
		if len(r.Results) > 0 {
			results = g.exprList(r.Results)
		}
		g.ed.replace(g.off(r.Pos()), g.off(r.End()), g.jump(fc, len(fc.loops)-1, "return", results))
		return
	}
	if !fc.depth {
		return
	}
	if len(r.Results) == 0 || !g.hasCall(r.Results) {
		g.ed.insert(g.off(r.Pos()), depthName+"--; ")
		return
	}
	var decls, names []string
	for _, f := range fc.results.List {
		for range max(len(f.Names), 1) {
			v := "_gtr" + strconv.Itoa(len(names))
			names = append(names, v)
			decls = append(decls, "var "+v+" "+g.text(f.Type)+";")
		}
	}
	closing := fmt.Sprintf("; %s--; return %s }", depthName, strings.Join(names, ", "))
	if len(r.Results) == 1 || len(r.Results) != len(names) {
		// One result, or one call of several results.
		g.ed.replace(g.off(r.Pos()), g.off(r.Return)+len("return"),
			"{ "+strings.Join(decls, " ")+" "+strings.Join(names, ", ")+" =")
		g.ed.insertClosing(g.off(r.End()), closing)
		return
	}
	// One assignment per result, in order: yaegi gets a parallel
	// assignment of nil to an interface wrong (reflect: New(nil)), and the
	// temporaries are not in the results, so the order of evaluation is
	// the same.
	g.ed.replace(g.off(r.Pos()), g.off(r.Return)+len("return"), "{ "+strings.Join(decls, " "))
	for i, e := range r.Results {
		g.ed.insert(g.off(e.Pos()), names[i]+" = ")
		if i > 0 {
			prev := g.off(r.Results[i-1].End())
			if comma := strings.IndexByte(g.c.text[prev:g.off(e.Pos())], ','); comma >= 0 {
				g.ed.replace(prev+comma, prev+comma+1, ";")
			}
		}
	}
	g.ed.insertClosing(g.off(r.End()), closing)
}

// resultNames returns the names of named results.
func resultNames(l *ast.FieldList) []string {
	var names []string
	for _, f := range l.List {
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
	}
	return names
}

// exprList returns the edited source of a list of expressions.
func (g *gen) exprList(list []ast.Expr) string {
	s := make([]string, len(list))
	for i, e := range list {
		s[i] = g.text(e)
	}
	return strings.Join(s, ", ")
}

// hasCall reports whether the expressions call a function (not a
// conversion or builtin).
func (g *gen) hasCall(list []ast.Expr) bool {
	found := false
	for _, e := range list {
		ast.Inspect(e, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				tv := g.c.info.Types[c.Fun]
				if !tv.IsType() && !tv.IsBuiltin() {
					found = true
				}
			}
			_, lit := n.(*ast.FuncLit)
			return !found && !lit
		})
	}
	return found
}

// branch rewrites break, continue and goto: out of a range-over-func loop
// into jumps, and continue in a loop whose variables are copied per
// iteration so that the copy goes back first.
func (g *gen) branch(b *ast.BranchStmt, fc *fnCtx, stack []ast.Node) {
	if b.Tok == token.GOTO {
		if len(fc.loops) > 0 {
			g.errorf(b.Pos(), "goto in the body of a range over a function is not supported yet")
		}
		return
	}
	if b.Tok == token.FALLTHROUGH {
		return
	}
	target := branchTarget(b, stack)
	// The innermost range-over-func loop that the jump leaves or ends.
	for i := len(fc.loops) - 1; i >= 0; i-- {
		l := fc.loops[i]
		if target == ast.Stmt(l.stmt) || !within(target, l.stmt) {
			label := ""
			if b.Label != nil {
				label = b.Label.Name
			}
			g.ed.replace(g.off(b.Pos()), g.off(b.End()), g.jumpFrom(fc, len(fc.loops)-1, b.Tok.String(), label, target))
			return
		}
	}
	if b.Tok == token.CONTINUE {
		if lc, ok := fc.copies[target]; ok {
			g.ed.replace(g.off(b.Pos()), g.off(b.End()), fmt.Sprintf("{ %s = %s; %s }",
				strings.Join(lc.outer, ", "), strings.Join(lc.vars, ", "), g.c.text[g.off(b.Pos()):g.off(b.End())]))
		}
	}
}

// within reports whether statement s is inside loop's body.
func within(s ast.Stmt, loop *ast.RangeStmt) bool {
	return s != nil && s.Pos() >= loop.Body.Pos() && s.End() <= loop.Body.End()
}

// branchTarget returns the statement a break or continue applies to.
func branchTarget(b *ast.BranchStmt, stack []ast.Node) ast.Stmt {
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.LabeledStmt:
			if b.Label != nil && n.Label.Name == b.Label.Name {
				return n.Stmt
			}
		case *ast.ForStmt, *ast.RangeStmt:
			if b.Label == nil {
				return n.(ast.Stmt)
			}
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			if b.Label == nil && b.Tok == token.BREAK {
				return n.(ast.Stmt)
			}
		}
	}
	return nil
}

// jumpFrom returns the code for a break or continue, inside range-over-func
// loop number level of fc, to target.
func (g *gen) jumpFrom(fc *fnCtx, level int, tok, label string, target ast.Stmt) string {
	l := fc.loops[level]
	if target == ast.Stmt(l.stmt) {
		if tok == "continue" {
			return "return true"
		}
		return "return false"
	}
	key := tok + " " + label
	code, ok := l.codes[key]
	if !ok {
		code = len(l.codes) + 2
		l.codes[key] = code
		var then string
		if level > 0 && !within(target, fc.loops[level-1].stmt) {
			then = g.jumpFrom(fc, level-1, tok, label, target)
		} else {
			then = strings.TrimSpace(tok + " " + label)
			if lc, ok := fc.copies[target]; ok && tok == "continue" {
				then = fmt.Sprintf("%s = %s; %s", strings.Join(lc.outer, ", "), strings.Join(lc.vars, ", "), then)
			}
		}
		l.dispatch = append(l.dispatch, fmt.Sprintf("if %s == %d { %s };", l.ctl, code, then))
	}
	return fmt.Sprintf("{ %s = %d; return false }", l.ctl, code)
}

// jump returns the code for a return of results (edited source, or "")
// inside range-over-func loop number level of fc: the results go to the
// loop's variables, and the code after the call returns them.
func (g *gen) jump(fc *fnCtx, level int, tok, results string) string {
	l := fc.loops[level]
	const code = 1
	if results == "" && len(l.results) > 0 {
		results = strings.Join(resultNames(fc.results), ", ") // named results
	}
	set := ""
	if results != "" {
		set = strings.Join(l.results, ", ") + " = " + results + "; "
	}
	if _, ok := l.codes["return"]; !ok {
		l.codes["return"] = code
		var then string
		if level > 0 {
			rs := ""
			if len(l.results) > 0 {
				rs = strings.Join(l.results, ", ")
			}
			then = g.jump(fc, level-1, tok, rs)
		} else {
			then = strings.TrimSpace("return " + strings.Join(l.results, ", "))
			if fc.depth {
				then = depthName + "--; " + then
			}
		}
		l.dispatch = append(l.dispatch, fmt.Sprintf("if %s == %d { %s };", l.ctl, code, then))
	}
	return fmt.Sprintf("{ %s%s = %d; return false }", set, l.ctl, code)
}
