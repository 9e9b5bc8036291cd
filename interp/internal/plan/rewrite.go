package plan

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
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

// rewrite makes the edits that turn the checked cell into code the
// interpreter runs as Go would. Each family of rewrite has a file of its
// own, with its tests beside it: rewrite_func.go (function bodies: depth
// and interrupts), rewrite_toplevel.go (the cell's statements),
// rewrite_generic.go (instances), rewrite_fmt.go (fmt's arguments and the
// cell's value), rewrite_hooks.go (os.Exit, log.Fatal, runtime.Goexit),
// rewrite_builtin.go, rewrite_errors.go, rewrite_go.go (go statements),
// rewrite_loops.go (loop variables per iteration), rewrite_range.go (range
// forms, range over functions and their jumps), rewrite_return.go,
// rewrite_defer.go (deferred calls: their arguments, recover and
// closures), rewrite_assign.go (parallel assignments of interface values),
// rewrite_commaok.go (comma-ok values that fail),
// rewrite_conv.go (cell values converted to interfaces), rewrite_equal.go
// (== of interface values), rewrite_iface.go
// (assertions and type switches to interfaces), rewrite_fmtany.go (fmt of
// values held in interfaces), rewrite_reflect.go (compiled code that
// reflects on cell types: errors, encoding/json and xml, templates),
// rewrite_jsonview.go and rewrite_jsonfill.go (the views encoding/json
// writes and fills of cell types, with jsonfields.go),
// rewrite_xmlview.go and rewrite_xmlfill.go (encoding/xml's, with
// xmlfields.go) and rewrite_template.go (those text/template and
// html/template are given).
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
			switch top := top.(type) {
			case *ast.DeferStmt:
				g.deferValues(top)
			case *ast.AssignStmt:
				g.mapElemAssign(top, stack)
				g.commaOkStmt(top, fc, stack)
			case *ast.DeclStmt:
				g.commaOkStmt(top, fc, stack)
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
	if a, ok := n.(*ast.AssignStmt); ok {
		g.parallelAssign(a, fc, stack) // before convNode: its call holds conversions
		g.storedAssign(a, fc, stack)
		g.funcMapAssign(a)
		g.commaOkAssign(a, fc, stack)
	}
	if c, ok := n.(*ast.CallExpr); ok {
		g.compiledVariadic(c) // before convNode: its slice holds the arguments' conversions
	}
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
		if len(stack) > 0 {
			g.keepResult(n, stack[len(stack)-1])
		}
	case *ast.CompositeLit:
		g.funcMapLit(n)
		g.mapLitKeys(n)
	case *ast.IndexExpr:
		g.warnIfaceKey(n.Index, info.Types[n.X].Type)
	case *ast.BinaryExpr:
		g.equalIface(n)
		g.shiftConst(n)
	case *ast.DeclStmt:
		g.hoistedDecl(n)
		g.storedDecl(n, fc, stack)
		g.commaOkDecl(n, fc, stack)
	case *ast.TypeAssertExpr:
		if n.Type != nil {
			g.ifaceNode(n, stack[len(stack)-1], fc)
			g.assertError(n)
		}
	case *ast.TypeSwitchStmt:
		g.ifaceNode(n, nil, fc)
		g.switchError(n)
	case *ast.GoStmt:
		g.discarded(n.Call)
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
		g.discarded(n.Call)
		g.deferDirect(n.Call)
		g.deferArgs(n, stack)
		if len(fc.loops) > 0 {
			g.errorf(n.Pos(), "defer in the body of a range over a function is not supported yet: move the body into a function")
		}
	case *ast.SelectorExpr:
		if call, ok := stackTop(stack).(*ast.CallExpr); !ok || ast.Unparen(call.Fun) != ast.Expr(n) {
			g.methodValue(n)
			g.templateMethodValue(n)
		}
		if _, ok := info.Selections[n]; !ok {
			// A qualified identifier: os.Exit and its kind.
			if g.hook(n, n.Sel) {
				return false
			}
		}
	}
	return true
}

// stackTop returns the last node of stack, or nil.
func stackTop(stack []ast.Node) ast.Node {
	if len(stack) == 0 {
		return nil
	}
	return stack[len(stack)-1]
}

// methodValue rewrites x.M, a method value (not called where it is
// written) of a method with a value receiver, so that it binds a copy of
// x made when it is evaluated, as Go does: the interpreter binds x
// itself, so f := c.Value; c.Inc(); f() saw the incremented c.
func (g *gen) methodValue(n *ast.SelectorExpr) {
	sel, ok := g.c.info.Selections[n]
	if !ok || sel.Kind() != types.MethodVal || types.IsInterface(sel.Recv()) {
		return
	}
	fn, ok := sel.Obj().(*types.Func)
	if !ok || instantiated(fn) {
		return
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return
	}
	if _, ptr := recv.Type().(*types.Pointer); ptr {
		return // the method binds x's address, as the interpreter does
	}
	t := g.c.info.Types[n.X].Type
	x := g.text(n.X)
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t, x = p.Elem(), "*"+x
	}
	ts, ok1 := g.typeSrc(t)
	sig, ok2 := g.typeSrc(g.c.info.Types[n].Type)
	if !ok1 || !ok2 {
		return
	}
	g.ed.replace(g.off(n.Pos()), g.off(n.End()), "func(_gtr "+ts+") "+sig+" { return _gtr."+n.Sel.Name+" }("+x+")")
}

// ident renames a use of an object whose interpreter name is not its own,
// and reads a session variable the cell redefines through its pointer.
func (g *gen) ident(id *ast.Ident) {
	if slices.Contains(g.direct, id) {
		return // see deferDirect
	}
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
	if p, ok := g.viaPointer[id]; ok {
		g.ed.replace(g.off(id.Pos()), g.off(id.End()), "(*"+p+")")
		return
	}
	if tn, ok := obj.(*types.TypeName); ok {
		if name, ok := g.hoisted(tn); ok {
			g.ed.replace(g.off(id.Pos()), g.off(id.End()), name)
			return
		}
	}
	if _, isPkg := obj.(*types.PkgName); isPkg {
		return
	}
	if name, ok := strings.CutPrefix(obj.Name(), placeholderPrefix); ok {
		// A function's use of a top-level variable of the statements.
		if v, ok := g.c.topVars[name]; ok {
			if yn := g.yname(v); yn != name {
				g.ed.replace(g.off(id.Pos()), g.off(id.End()), yn)
			}
		}
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

// compiledVariadic passes the variadic arguments of a call of a compiled
// function as a slice where variadicSlice says so. The slice is the
// outer of the edits at its first argument: the arguments' own
// conversions (convNode) go inside it.
func (g *gen) compiledVariadic(call *ast.CallExpr) {
	if fn := g.calledFunc(call); fn != nil && fn.Pkg() != nil && !interpretedCell(fn.Pkg()) && !instantiated(fn) {
		g.variadicSlice(call, fn)
	}
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
	if g.contextValue(call) {
		g.contextKey(call.Args[0])
	}
	fn := g.calledFunc(call)
	if fn == nil || fn.Pkg() == nil {
		return
	}
	if f, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if sel, ok := info.Selections[f]; ok && sel.Kind() == types.MethodVal && fn.Pkg().Path() == "log" &&
			strings.HasPrefix(fn.Name(), "Fatal") {
			g.fatal(f, "log."+fn.Name())
		}
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
		g.viewedLits(call.Args)
		g.reflectCall(call, fn, fn.Pkg().Path())
	default:
		g.compiledAnyCall(call, fn)
	}
}

// viewedLits notes the composite literals in args, of a call whose
// values json, xml or a template get a view of: the view spells their
// elements as they are written, which convAny leaves alone.
func (g *gen) viewedLits(args []ast.Expr) {
	for _, a := range args {
		ast.Inspect(a, func(n ast.Node) bool {
			if lit, ok := n.(*ast.CompositeLit); ok {
				if g.viewed == nil {
					g.viewed = map[*ast.CompositeLit]bool{}
				}
				g.viewed[lit] = true
			}
			_, fn := n.(*ast.FuncLit)
			return !fn
		})
	}
}

// calledFunc returns the function or method a call calls, or nil (a
// function value, a conversion, a builtin).
func (g *gen) calledFunc(call *ast.CallExpr) *types.Func {
	var fn *types.Func
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		if sel, ok := g.c.info.Selections[f]; ok {
			fn, _ = sel.Obj().(*types.Func)
		} else {
			fn, _ = g.c.info.Uses[f.Sel].(*types.Func)
		}
	case *ast.Ident:
		fn, _ = g.c.info.Uses[f].(*types.Func)
	}
	return fn
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

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}
